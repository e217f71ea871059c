# shellcheck shell=bash
# The Kubernetes manifests without a cluster, with real components (k8s/test/validate.sh: kubeconform
# on schemas from Kubernetes and the operator's CRD, the operator's own Go validation, a real
# kube-apiserver + etcd with server-side dry-run). About 25 s. The loaders' Job as processes is
# 72-k8s-loaders.sh, in the other lane; run.sh's k8s verbs with the stub kubectl are test/k8s.bats.
# kube-apiserver, etcd and the exporter on ports found free first: on a loopback of their own.
k8s_manifests_suite() {
  own_loopback bash "$LAB_ROOT/k8s/test/validate.sh"
}
run_suite k8s-manifests k8s_manifests_suite
