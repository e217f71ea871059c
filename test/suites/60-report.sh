# shellcheck shell=bash
# The comparison report (report/): report.json from hand-made results folders, the CLI, the HTML
# in real headless Chromium (/usr/bin/chromium, Debian's package), and a report built from real
# loader runs against mongo-java-server. node:test, TAP out. About 3 minutes.
report_suite() {
  need_tool node || return 1
  [[ -x /usr/bin/chromium || -n ${CHROMIUM:-} ]] || { echo "not ok 1 - missing tool 'chromium' (Debian package): $INSTALL_HINT"; return 1; }
  [[ -d $LAB_ROOT/report/node_modules/@observablehq/plot ]] || { echo "not ok 1 - report/node_modules missing: $INSTALL_HINT"; return 1; }
  [[ -d $LAB_ROOT/loader/node_modules/mongodb ]] || { echo "not ok 1 - loader/node_modules missing (the real-runs test uses the loader): $INSTALL_HINT"; return 1; }
  compgen -G "$LAB_ROOT/.tools/mongo-java-server/mongo-java-server-core-*.jar" >/dev/null ||
    [[ -n ${MONGODB_URI:-} ]] || { echo "not ok 1 - mongo-java-server jars missing: $INSTALL_HINT"; return 1; }
  local files
  mapfile -t files < <(find "$LAB_ROOT/report/test" -maxdepth 1 -name '*.test.js' | sort)
  ((${#files[@]})) || { echo "not ok 1 - no report tests found"; return 1; }
  # Three test files at a time, as the loader suite (measured 2026-11-26 on the 2-core VM: 2m15s
  # at two, 1m54s at three); the files that run alone after them (test/lib/tools.sh node_tests).
  node_tests "$LAB_ROOT/report" 3 "${files[@]}"
}
run_suite report report_suite
