# shellcheck shell=bash
# A second real server: FerretDB v1.24.2 on SQLite (built by test/install.d/45-ferretdb.sh), an
# independently written MongoDB-compatible server. The loader's MONGODB_URI mode runs against it:
# experiments 1-3 end to end (loader/test/experiments.test.js), the other experiments, identity
# and what FerretDB ignores (loader/test/ferretdb/), and the kill and freeze tests
# (loader/test/failures.test.js: LAB_TEST_SERVER=ferretdb makes the servers they kill and freeze
# FerretDB processes too). Tests that hold only on mongo-java-server skip naming its deviation.
ferretdb_suite() {
  need_tool node || return 1
  [[ -x $LAB_ROOT/.tools/bin/ferretdb ]] || { echo "not ok 1 - missing tool 'ferretdb' (.tools/bin/ferretdb): $INSTALL_HINT"; return 1; }
  [[ -d $LAB_ROOT/loader/node_modules/mongodb ]] || { echo "not ok 1 - loader/node_modules missing: $INSTALL_HINT"; return 1; }
  local files uri rc fifo dir pid own
  # The files on the shared server run one at a time (experiments.test.js and ferretdb/footprint
  # both fill lab.seed004; node's default is one less than the CPUs). failures.test.js starts the
  # FerretDB processes it kills and freezes itself: it runs beside them (one after the other, the
  # suite took 63 s of a CI run, 21 s of it failures.test.js).
  mapfile -t files < <(printf '%s\n' "$LAB_ROOT/loader/test/experiments.test.js"; find "$LAB_ROOT/loader/test/ferretdb" -name '*.test.js' | sort)
  dir=$(mktemp -d)
  fifo="$dir/stdin"
  mkfifo "$fifo"
  # The server's stdin is a fifo held open by this shell: closing it stops the server (and its
  # SQLite folder goes) even if this suite is killed before it can send the signal.
  node "$LAB_ROOT/loader/test/support/ferretdb-serve.js" <"$fifo" >"$dir/uri" &
  pid=$!
  exec {hold}>"$fifo"
  for _ in $(seq 1 300); do [[ -s $dir/uri ]] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  uri=$(head -1 "$dir/uri")
  if [[ -z $uri ]]; then echo "not ok 1 - FerretDB did not start (see the log above)"; exec {hold}>&-; rm -rf "$dir"; return 1; fi
  (cd "$LAB_ROOT/loader" && MONGODB_URI=$uri LAB_TEST_SERVER=ferretdb node --test --test-reporter=tap "$LAB_ROOT/loader/test/failures.test.js") >"$dir/own.tap" 2>&1 &
  own=$!
  (cd "$LAB_ROOT/loader" && MONGODB_URI=$uri LAB_TEST_SERVER=ferretdb node --test --test-concurrency=1 --test-reporter=tap "${files[@]}")
  rc=$?
  wait "$own" || rc=1
  cat "$dir/own.tap"
  exec {hold}>&-
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  rm -rf "$dir"
  return "$rc"
}
run_suite ferretdb ferretdb_suite
