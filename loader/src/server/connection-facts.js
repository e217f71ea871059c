'use strict';
// How the loader reached the server, for summary.json "connection": the hosts a mongodb+srv://
// name resolved to, TLS and authentication as the driver applied them (URI and flags merged, as
// client.options holds them after connect()). Never a secret: no password, no key passphrase, no
// mechanism properties (AWS session tokens live there); file paths are recorded, not contents.

// connectionFacts(client) -> { srv, hosts, replica_set, tls, auth }
function connectionFacts(client) {
  const o = client.options;
  const hosts = (o.hosts || []).map((h) => h.toString());
  const cred = o.credentials;
  return {
    // The driver fills hosts from _<srvServiceName>._tcp.<srvHost> inside connect()
    // (mongodb lib/mongo_client.js connect, lib/connection_string.js resolveSRVRecord).
    srv: o.srvHost ? { name: o.srvHost, record: `_${o.srvServiceName || 'mongodb'}._tcp.${o.srvHost}`, resolved_hosts: hosts } : null,
    hosts,
    replica_set: o.replicaSet ?? null,
    // tls is on by default for mongodb+srv:// (lib/connection_string.js parseOptions: "SRV turns
    // on TLS by default"); tlsAllowInvalidCertificates / tlsInsecure become rejectUnauthorized false.
    tls: {
      enabled: Boolean(o.tls),
      allow_invalid_certificates: o.tls ? o.rejectUnauthorized === false : null,
      ca_file: o.tlsCAFile ?? null,
      certificate_key_file: o.tlsCertificateKeyFile ?? null,
      certificate_key_file_password: o.passphrase !== undefined ? 'given (not recorded)' : null,
    },
    auth: cred ? { username: cred.username || null, source: cred.source ?? null,
      mechanism: cred.mechanism ?? null } : null,
  };
}

module.exports = { connectionFacts };
