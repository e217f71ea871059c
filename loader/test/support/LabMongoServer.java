import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.BinData;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import io.netty.channel.Channel;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The loader tests' real wire-protocol server: mongo-java-server with the in-memory backend.
 * Usage: java -cp JARS:DIR LabMongoServer [host] [port]   (port 0 = any free port)
 * Prints "PORT <n>" on stdout when it accepts connections; exits when stdin closes, so it dies
 * with the test process that started it (even on SIGKILL of the parent).
 *
 * Why a custom version: mongo-java-server 1.47.0's newest ServerVersion (MONGO_5_0) reports
 * maxWireVersion 8, and the mongodb Node driver 7.x refuses anything below wire version 9
 * (MIN_SUPPORTED_WIRE_VERSION in lib/cmap/wire_protocol/constants.js). MemoryBackend.version()
 * takes any MongoVersion, so we report 7.0 / wire 21. The loader only uses commands the server
 * implements (insert, find, update, createIndexes, count, hello, serverStatus, buildInfo).
 *
 * The announced version can be changed, to test how the loader meets older server lines:
 *   LAB_SERVER_VERSION=3.6.0 LAB_WIRE_VERSION=6   buildInfo/hello report that version and wire
 *                            version (both or neither; default 7.0.0 / 21)
 *
 * Two switches, by environment, for what a real mongod does and mongo-java-server does not:
 *   LAB_STORAGE_ENGINE=NAME  serverStatus reports storageEngine { name: NAME } (mongod always does)
 *   LAB_REJECT_AUTH=1        saslStart answers as mongod does for a wrong password:
 *                            { ok: 0, code: 18, codeName: "AuthenticationFailed", errmsg: "Authentication failed." }
 *                            (without it, saslStart is "no such command").
 *   LAB_ACCEPT_PLAIN=1       saslStart with mechanism PLAIN (authMechanism=PLAIN, as LDAP users of
 *                            MongoDB Enterprise and Atlas log in) succeeds in one round
 *                            { conversationId: 1, done: true, payload: <empty>, ok: 1 }, whatever
 *                            the password: a run with a user and password in its URI goes through.
 */
public class LabMongoServer {
    static final MongoVersion MONGO_7_0 = new MongoVersion() {
        public List<Integer> getVersionArray() { return List.of(7, 0, 0); }
        public String toVersionString() { return "7.0.0"; }
        public int getWireVersion() { return 21; }
    };

    /** The version from LAB_SERVER_VERSION / LAB_WIRE_VERSION, or 7.0 / wire 21 when unset. */
    static MongoVersion announcedVersion() {
        String version = System.getenv("LAB_SERVER_VERSION");
        String wire = System.getenv("LAB_WIRE_VERSION");
        if (version == null || version.isEmpty()) return MONGO_7_0;
        final int wireVersion = Integer.parseInt(wire);
        final List<Integer> parts = new java.util.ArrayList<>();
        for (String p : version.split("\\.")) parts.add(Integer.parseInt(p));
        final String text = version;
        return new MongoVersion() {
            public List<Integer> getVersionArray() { return parts; }
            public String toVersionString() { return text; }
            public int getWireVersion() { return wireVersion; }
        };
    }

    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        final String storageEngine = System.getenv("LAB_STORAGE_ENGINE");
        final boolean rejectAuth = "1".equals(System.getenv("LAB_REJECT_AUTH"));
        final boolean acceptPlain = "1".equals(System.getenv("LAB_ACCEPT_PLAIN"));
        MemoryBackend backend = new MemoryBackend() {
            @Override
            public Document handleCommand(Channel channel, String database, String command, Document query) {
                if (rejectAuth && (command.equals("saslStart") || command.equals("authenticate"))) {
                    throw new MongoServerError(18, "AuthenticationFailed", "Authentication failed.");
                }
                if (acceptPlain && command.equals("saslStart") && "PLAIN".equals(query.get("mechanism"))) {
                    return new Document("conversationId", 1).append("done", true)
                        .append("payload", new BinData(new byte[0])).append("ok", 1.0);
                }
                return super.handleCommand(channel, database, command, query);
            }

            @Override
            public Document getServerStatus() {
                Document status = super.getServerStatus();
                if (storageEngine != null && !storageEngine.isEmpty()) {
                    status.put("storageEngine", new Document("name", storageEngine).append("persistent", true));
                }
                return status;
            }
        };
        MongoServer server = new MongoServer(backend.version(announcedVersion()));
        server.bind(host, port);
        InetSocketAddress addr = server.getLocalAddress();
        System.out.println("PORT " + addr.getPort());
        System.out.flush();
        // Parent gone (pipe closed) -> exit. read() returns -1 on EOF.
        while (System.in.read() != -1) { /* ignore input */ }
        server.shutdownNow();
        System.exit(0);
    }
}
