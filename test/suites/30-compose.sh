# shellcheck shell=bash
# compose/: every engine x profile x mongos count rendered and validated by the real Compose v2,
# with assertions on the rendered model (compose/test/*.test.js, node:test), and the scripts of
# compose/init under the real mongosh against FerretDB (compose/test/init-mongosh.test.js:
# .tools/bin/mongosh from test/install.d/47-mongosh.sh, .tools/bin/ferretdb from 45-ferretdb.sh).
compose_suite() {
  need_tool node || return 1
  if [[ -z $(compose_bin) ]]; then
    echo "not ok 1 - Compose v2 not found in .tools/bin or on PATH: $INSTALL_HINT"
    return 1
  fi
  local t
  for t in mongosh ferretdb; do
    [[ -x $TOOLS_DIR/bin/$t ]] || { echo "not ok 1 - missing tool '$t' (.tools/bin/$t): $INSTALL_HINT"; return 1; }
  done
  node --test --test-reporter=tap "$LAB_ROOT"/compose/test/*.test.js
}
run_suite compose compose_suite
