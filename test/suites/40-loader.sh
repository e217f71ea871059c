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
  node_tests "$LAB_ROOT/loader" 3 "${files[@]}"
}
run_suite loader loader_suite
