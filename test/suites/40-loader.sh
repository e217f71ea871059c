# shellcheck shell=bash
# The loader's own tests (loader/test/**/*.test.js, including test/faults/): node:test over real TCP
# against mongo-java-server (or MONGODB_URI). TAP out; node prints "# pass N" / "# fail N".
loader_suite() {
  need_tool node || return 1
  [[ -d $LAB_ROOT/loader/node_modules/mongodb ]] || { echo "not ok 1 - loader/node_modules missing: $INSTALL_HINT"; return 1; }
  compgen -G "$LAB_ROOT/.tools/mongo-java-server/mongo-java-server-core-*.jar" >/dev/null ||
    [[ -n ${MONGODB_URI:-} ]] || { echo "not ok 1 - mongo-java-server jars missing: $INSTALL_HINT"; return 1; }
  local files
  # test/ferretdb/ needs a FerretDB behind MONGODB_URI: suite 45-ferretdb runs it.
  mapfile -t files < <(find "$LAB_ROOT/loader/test" \( -name node_modules -o -path "$LAB_ROOT/loader/test/ferretdb" \) -prune -o -name '*.test.js' -print | sort)
  ((${#files[@]})) || { echo "not ok 1 - no loader tests found"; return 1; }
  # Three test files at a time: most of a file's time is waiting on a server or a timer, and the
  # tests hold with both cores busy (DEVELOPERS.md, Tests). Measured 2026-11-26 on the 2-core VM:
  # one at a time 10 min, two 5m46s, three 4m44s. The files whose premise is a quiet host run
  # alone after the others (test/lib/tools.sh node_tests): at three, they skipped every time.
  # 2026-11-29, in CI beside the other lane: 10m41s (597 tests, 1,692 s of test time; its quiet
  # part 47 s). With other work at load 40-60 the suite is CPU-bound: the files changed to wait
  # less (bad-input lists four processes at a time, the old driver lines side by side) took as
  # long before and after (driver-line 308 s and 328 s, 61 and 69 CPU s), the one-core premise
  # skipped in 5 s instead of 78 s; their gain is the idle cores' (see git log for the figures).
  node_tests "$LAB_ROOT/loader" 3 "${files[@]}"
}
run_suite loader loader_suite
