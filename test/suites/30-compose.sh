# shellcheck shell=bash
# compose/: every engine x profile x mongos count rendered and validated by the real Compose v2,
# with assertions on the rendered model (compose/test/*.test.js, node:test, no dependencies).
compose_suite() {
  need_tool node || return 1
  if [[ -z $(compose_bin) ]]; then
    echo "not ok 1 - Compose v2 not found in .tools/bin or on PATH: $INSTALL_HINT"
    return 1
  fi
  node --test --test-reporter=tap "$LAB_ROOT"/compose/test/*.test.js
}
run_suite compose compose_suite
