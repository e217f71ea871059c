# shellcheck shell=bash
# The Kubernetes part without a cluster, with real components (k8s/test/validate.sh: kubeconform
# on schemas from Kubernetes and the operator's CRD, the operator's own Go validation, a real
# kube-apiserver + etcd with server-side dry-run), and the loaders' Job as N loader processes
# against mongo-java-server merged by the real report (k8s/test/loaders.test.js). About 2 minutes.
# run.sh's k8s verbs with the stub kubectl are test/k8s.bats (the bats suite).
# kube-apiserver, etcd and the exporter on ports found free first: on a loopback of their own.
k8s_manifests_suite() {
  own_loopback bash "$LAB_ROOT/k8s/test/validate.sh"
}
k8s_loaders_suite() {
  need_tool node || return 1
  [[ -d $LAB_ROOT/loader/node_modules/mongodb && -d $LAB_ROOT/report/node_modules ]] ||
    { echo "not ok 1 - loader/ or report/ node_modules missing: $INSTALL_HINT"; return 1; }
  compgen -G "$LAB_ROOT/.tools/mongo-java-server/mongo-java-server-core-*.jar" >/dev/null ||
    { echo "not ok 1 - mongo-java-server jars missing: $INSTALL_HINT"; return 1; }
  node --test --test-reporter=tap "$LAB_ROOT/k8s/test/loaders.test.js"
}
run_suite k8s-manifests k8s_manifests_suite
run_suite k8s-loaders k8s_loaders_suite
