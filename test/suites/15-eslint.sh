# shellcheck shell=bash
# Every JavaScript file meets the lab's ESLint rules (eslint.config.js): one TAP line per file,
# each problem under a failing one. ESLint is the one test/install.d/15-eslint.sh installs into
# .tools/eslint (LAB_ESLINT_DIR overrides), run from there: npx would fetch whatever version the
# registry has when the tool dir lacks it. NODE_PATH lets the config require its packages.
eslint_suite() {
  need_tool node || return 1
  local dir=${LAB_ESLINT_DIR:-$TOOLS_DIR/eslint} out line rc=0
  [[ -x $dir/node_modules/.bin/eslint ]] || { echo "not ok 1 - ESLint missing ($dir): $INSTALL_HINT"; return 1; }
  out=$(cd "$LAB_ROOT" && NODE_PATH="$dir/node_modules" "$dir/node_modules/.bin/eslint" --format json . 2>&1) || rc=$?
  # exit 1: problems found (the JSON lists them); any other failure is ESLint's own, said as it is
  if ((rc > 1)); then
    echo "not ok 1 - eslint could not run (exit $rc)"
    while IFS= read -r line; do echo "# $line"; done <<<"$out"
    return 1
  fi
  # shellcheck disable=SC2016  # the script is node's
  node -e 'const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const root = process.argv[1] + "/";
    let bad = 0;
    files.forEach((f, i) => {
      const ok = f.errorCount === 0;
      if (!ok) bad++;
      console.log(`${ok ? "ok" : "not ok"} ${i + 1} - eslint ${f.filePath.replace(root, "")}`);
      for (const m of f.messages) console.log(`#   ${m.line}:${m.column} ${m.ruleId || ""} ${m.message}`);
    });
    process.exit(bad ? 1 : 0);' "$LAB_ROOT" <<<"$out"
}
run_suite eslint eslint_suite
