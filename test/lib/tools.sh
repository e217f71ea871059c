# shellcheck shell=bash
# Where the test suite finds its tools, and the install hint when one is missing.
# test/install-tools.sh installs all of them (it is what .ci/run calls).

TOOLS_DIR="$LAB_ROOT/.tools"
# shellcheck disable=SC2034  # read by test/install-tools.sh, which sources this file
COMPOSE_VERSION=v2.40.3
export PATH="$TOOLS_DIR/bin:$PATH"

INSTALL_HINT="run 'bash test/install-tools.sh' (installs Debian packages, builds Compose v2 from the Go module proxy, fetches npm and Maven dependencies)"

# tools_from_cache CACHE: where .tools does not exist yet (a fresh clone), make it a link to CACHE,
# a folder that outlives the clone (.ci/run: the runner's cache), so that the pinned binaries
# built there (Compose, FerretDB, kube-apiserver, ...: each install step skips a binary that
# already prints its version) are built once per runner, not once per run. A .tools that exists
# (a folder or a link) is left as it is; CACHE empty: nothing to do.
tools_from_cache() {
  local cache=$1
  [[ -n $cache ]] || return 0
  [[ -e $TOOLS_DIR || -L $TOOLS_DIR ]] && return 0
  mkdir -p "$cache" || return 0 # no writable cache on this runner: build in the clone as before
  ln -s "$cache" "$TOOLS_DIR"
  echo "install-tools: .tools -> $cache (kept between runs)"
}

# own_loopback CMD...: CMD in a network namespace of its own with only its loopback up, where this
# user may make one (root, as in CI); elsewhere CMD as is. The lanes run side by side and every
# suite binds and connects on 127.0.0.1: the Docker suite's stack publishes 127.0.0.1:27017, and a
# port a suite found free (test/lib/local-servers.sh free_port) can be taken by another lane's
# connection before the suite binds it (a fresh-clone CI run: monitoring's mongodb_exporter,
# "bind: address already in use", with the Docker and loader suites beside it).
own_loopback() {
  if [[ $(id -u) == 0 ]] && command -v unshare >/dev/null && command -v ip >/dev/null && unshare -n true 2>/dev/null; then
    echo "# in a network namespace of its own (unshare -n, loopback up): the other lanes' ports are not seen"
    unshare -n bash -c 'ip link set lo up && exec "$@"' _ "$@"
  else
    "$@"
  fi
}

# need_tool NAME: fail loudly with the install hint when NAME is not on PATH.
need_tool() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "not ok 1 - missing tool '$1': $INSTALL_HINT"
  return 1
}

# compose_bin: the real Compose v2 used to validate files (a docker CLI plugin or the standalone).
compose_bin() {
  if [[ -x $TOOLS_DIR/bin/docker-compose ]]; then echo "$TOOLS_DIR/bin/docker-compose"; return 0; fi
  command -v docker-compose 2>/dev/null
}

# node_tests DIR CONCURRENCY FILE...: node --test over FILE... from DIR, CONCURRENCY files at a
# time, TAP out. A file whose premise is a quiet host says so on a line of its own
# ("// runs alone: why") and runs after the others, by itself: beside other test files its
# premise failed and it skipped in every run (loader/test/limited.test.js,
# stability-steady.test.js, report/test/compare-known-ratio.test.js; 2026-11-26).
# Under test/run-all.sh (LAB_ALONE_LATER, a folder) those files are listed, not run: DIR, then
# each file, in LAB_ALONE_LATER/<suite>.list; run-all runs them once every lane has ended, as the
# suite "<suite>-alone" (node_tests_alone; one suite's beside another's, run_alone_parts).
# Elsewhere they run here, after the others.
node_tests() {
  local dir=$1 conc=$2 alone rest rc=0
  shift 2
  mapfile -t alone < <(grep -l '^// runs alone: ' "$@")
  mapfile -t rest < <(printf '%s\n' "$@" "${alone[@]}" | sort | uniq -u)
  if ((${#rest[@]})); then node_test_bounded "$dir" --test-concurrency="$conc" --test-reporter=tap "${rest[@]}" || rc=1; fi
  if ((${#alone[@]})) && [[ -n ${LAB_ALONE_LATER:-} ]]; then
    printf '%s\n' "$dir" "${alone[@]}" >"$LAB_ALONE_LATER/${SUITE_NAME:-node}.list"
    echo "# ${#alone[@]} file(s) needing a quiet host run once every lane has ended: ${SUITE_NAME:-node}-alone"
  elif ((${#alone[@]})); then
    node_tests_alone "$dir" "${alone[@]}" || rc=1
  fi
  return "$rc"
}

# node_tests_alone DIR FILE...: node --test over FILE... from DIR, one file at a time.
node_tests_alone() {
  local dir=$1
  shift
  node_test_bounded "$dir" --test-concurrency=1 --test-reporter=tap "$@"
}

# node_test_bounded DIR ARG...: `node --test ARG...` from DIR, ended after LAB_NODE_TEST_BOUND
# seconds (default 2700) with a failure naming the test files still running. node --test waits
# for each file's process to exit, and a file whose tests have ended can go on (a timer, a socket,
# a loop left running): a fault test once left writers running for an hour, and the suite waited
# 53 minutes in silence (fresh-clone CI, 2026-12-01). The bound is twice the loader suite's
# longest on a saturated host (about 25 minutes), well inside the CI's 90.
node_test_bounded() {
  local dir=$1 bound=${LAB_NODE_TEST_BOUND:-2700} shell=$BASHPID watchdog rc=0
  shift
  # node in the foreground (Ctrl-C reaches it: a background job of a script ignores SIGINT), the
  # watchdog beside it finds it as this shell's child
  (
    sleep "$bound"
    pid=$(pgrep -P "$shell" -f '^node --test ' | head -1)
    [[ -n $pid ]] || exit 0
    # each file runs in a node child of node --test, its path the last argument
    running=$(ps -o etimes=,args= --ppid "$pid" | awk '{ n = split($NF, p, "/"); printf "%s%s (%d s)", sep, p[n - 1] "/" p[n], $1; sep = ", " }')
    echo "not ok - node --test did not end within $bound s; still running: ${running:-none (node --test itself)}"
    pkill -KILL -P "$pid"
    kill -KILL "$pid"
  ) &
  watchdog=$!
  (cd "$dir" && exec node --test "$@") || rc=$?
  pkill -P "$watchdog" 2>/dev/null
  kill "$watchdog" 2>/dev/null
  wait "$watchdog" 2>/dev/null
  return "$rc"
}
