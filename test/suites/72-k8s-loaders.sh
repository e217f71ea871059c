# shellcheck shell=bash
# The loaders' Job without a cluster: N loader processes against mongo-java-server, merged by the
# real report (k8s/test/loaders.test.js). About 20 s. A suite of its own so that it runs in the
# Docker suite's lane while the manifests' (70-k8s.sh) run in the other (test/run-all.sh).
k8s_loaders_suite() {
  need_tool node || return 1
  [[ -d $LAB_ROOT/loader/node_modules/mongodb && -d $LAB_ROOT/report/node_modules ]] ||
    { echo "not ok 1 - loader/ or report/ node_modules missing: $INSTALL_HINT"; return 1; }
  compgen -G "$LAB_ROOT/.tools/mongo-java-server/mongo-java-server-core-*.jar" >/dev/null ||
    { echo "not ok 1 - mongo-java-server jars missing: $INSTALL_HINT"; return 1; }
  node --test --test-reporter=tap "$LAB_ROOT/k8s/test/loaders.test.js"
}
run_suite k8s-loaders k8s_loaders_suite
