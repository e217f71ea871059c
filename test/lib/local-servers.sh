# shellcheck shell=bash
# Servers a shell test starts on loopback, shared by dashboards/test/run-tests.sh (in the suite)
# and the by-hand measurements dashboards/test/exporter-1s.sh and k8s/test/exporter-cpu.sh.
# The caller sources test/lib/tools.sh first (TOOLS_DIR) and keeps WORK (a scratch folder) and
# PIDS (an array of what to stop).

# free_port: a TCP port free on 127.0.0.1 now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# scratch_begin NAME: WORK, a new scratch folder, and PIDS, stopped with WORK removed at exit.
scratch_begin() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  PIDS=()
  trap scratch_end EXIT
}
# shellcheck disable=SC2317  # called by the EXIT trap
scratch_end() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null
  rm -rf "$WORK"
}

# start_mongo_java_server SECONDS: mongo-java-server (.tools/mongo-java-server, LabMongoServer) on
# a free port, for at most SECONDS (it ends when its stdin closes); sets MPORT. On failure, prints
# why and returns 1.
start_mongo_java_server() {
  local mjs=$TOOLS_DIR/mongo-java-server cp
  # The launcher is compiled per version of its source (loader/test/support/server.js: classes-<hash>);
  # the same module compiles it if needed and names the class path.
  if ! compgen -G "$mjs/*.jar" >/dev/null ||
    ! cp=$(node -e 'const s = require(process.argv[1]); s.compile(); process.stdout.write(s.classpath())' "$LAB_ROOT/loader/test/support/server.js" 2>/dev/null); then
    echo "mongo-java-server missing in .tools/mongo-java-server: $INSTALL_HINT"
    return 1
  fi
  mkfifo "$WORK/mjs.in"
  sleep "$1" >"$WORK/mjs.in" &
  PIDS+=($!)
  java -cp "$cp" LabMongoServer 127.0.0.1 0 <"$WORK/mjs.in" >"$WORK/mjs.out" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q '^PORT ' "$WORK/mjs.out" 2>/dev/null && break; sleep 0.1; done
  MPORT=$(awk '/^PORT /{print $2}' "$WORK/mjs.out")
  [[ -n $MPORT ]] || { echo "mongo-java-server did not start: $(cat "$WORK/mjs.out")"; return 1; }
}
