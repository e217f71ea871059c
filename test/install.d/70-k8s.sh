#!/usr/bin/env bash
# install-tools hook: what the Kubernetes part's tests (test/suites/70-k8s.sh) need, all real
# components, versions pinned in k8s/versions.env. Idempotent: each step is skipped when its
# result is already there (a stamp file names the version it was made from).
#   Debian:          etcd-server (the store behind the real kube-apiserver)
#   Go module proxy: kube-apiserver and kubectl of the same release (built from k8s.io/kubernetes,
#                    staging modules from the proxy; the tests never use a kubectl found on PATH),
#                    kubeconform, the Percona operator module (its CRDs and its Go validation code,
#                    built into .tools/bin/psmdb-check from k8s/validate/), Prometheus's
#                    relabel and PromQL code (.tools/bin/relabel-check from k8s/relabel-check/)
#   PyPI:            openapi2jsonschema (Kubernetes' swagger.json -> kubeconform's JSON schemas)
# Timings measured here on 2 shared cores, cold Go caches: kube-apiserver 560 s, kubectl about 60 s
# more of CPU on the warm cache, psmdb-check 250 s (most of it the k8s.io packages kube-apiserver
# has then compiled already), kubeconform + JSON schemas 155 s. A second run takes under 1 s.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=k8s/versions.env
source "$LAB_ROOT/k8s/versions.env"
TOOLS=$LAB_ROOT/.tools
K8S_TOOLS=$TOOLS/k8s
mkdir -p "$TOOLS/bin" "$K8S_TOOLS"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local

step() { echo "70-k8s: $*"; }
stamped() { [[ -f $K8S_TOOLS/$1.stamp && $(cat "$K8S_TOOLS/$1.stamp") == "$2" ]]; }
stamp() { printf '%s\n' "$2" >"$K8S_TOOLS/$1.stamp"; }
module_dir() { go mod download -json "$1" | jq -r .Dir; }

for t in go jq python3; do
  command -v "$t" >/dev/null || { echo "70-k8s: '$t' is missing" >&2; exit 1; }
done

if ! command -v etcd >/dev/null; then
  step "apt-get install etcd-server"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
fi

# The operator module: its CRDs (deploy/crd.yaml) and k8s/validate's dependency.
op_dir=$(module_dir "github.com/percona/percona-server-mongodb-operator@$PSMDB_OPERATOR_VERSION")
cp "$op_dir/deploy/crd.yaml" "$K8S_TOOLS/psmdb-crd.yaml"
chmod 644 "$K8S_TOOLS/psmdb-crd.yaml"

# k8s.io/kubernetes: its swagger.json (schemas) and the source of kube-apiserver and kubectl.
k8s_dir=$(module_dir "k8s.io/kubernetes@$KUBERNETES_VERSION")

# kube-apiserver and kubectl from the module proxy: k8s.io/kubernetes replaces its staging modules
# with ./staging paths that a module zip does not carry, so a throwaway module requires it and
# points every staging name at the published v0.x of the same release.
if ! stamped kube-apiserver "$KUBERNETES_VERSION kubectl"; then
  step "building kube-apiserver and kubectl $KUBERNETES_VERSION (about 10 min on 2 cores, cold)"
  start=$SECONDS
  build=$K8S_TOOLS/apiserver-build
  rm -rf "$build"
  mkdir -p "$build"
  staging_v="v0.${KUBERNETES_VERSION#v1.}"
  {
    echo "module lab/apiserverbuild"
    echo "go $(awk '$1 == "go" { print $2 }' "$k8s_dir/go.mod")"
    echo "require k8s.io/kubernetes $KUBERNETES_VERSION"
    sed -n '/^replace (/,/^)/p' "$k8s_dir/go.mod" | awk '$2 == "=>" { print "replace " $1 " => " $1 " '"$staging_v"'" }'
  } >"$build/go.mod"
  printf 'package main\n\nimport (\n\t_ "k8s.io/kubectl/pkg/cmd"\n\t_ "k8s.io/kubernetes/cmd/kube-apiserver/app"\n)\n\nfunc main() {}\n' >"$build/pin.go"
  minor=${KUBERNETES_VERSION#v1.}
  minor=${minor%%.*}
  ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$KUBERNETES_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor"
  # one go build for both: they share most packages and the two links run side by side
  (cd "$build" && go mod tidy >/dev/null 2>&1 &&
    nice -n 10 go build -trimpath -o "$TOOLS/bin/" -ldflags "$ldflags" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl)
  stamp kube-apiserver "$KUBERNETES_VERSION kubectl"
  step "kube-apiserver and kubectl built in $((SECONDS - start)) s"
fi

# psmdb-check: the operator's own defaulting and validation (CheckNSetDefaults) on our manifests.
if ! stamped psmdb-check "$PSMDB_OPERATOR_VERSION $(cat "$LAB_ROOT"/k8s/validate/*.go "$LAB_ROOT/k8s/validate/go.mod" | sha256sum)"; then
  step "building psmdb-check against the operator $PSMDB_OPERATOR_VERSION module"
  start=$SECONDS
  (cd "$LAB_ROOT/k8s/validate" && nice -n 10 go build -trimpath -o "$TOOLS/bin/psmdb-check" .)
  stamp psmdb-check "$PSMDB_OPERATOR_VERSION $(cat "$LAB_ROOT"/k8s/validate/*.go "$LAB_ROOT/k8s/validate/go.mod" | sha256sum)"
  step "psmdb-check built in $((SECONDS - start)) s"
fi

# relabel-check: Prometheus's own relabelling and PromQL parser (the version promql-check uses,
# dashboards/test/promql-check) on the k8s and Compose scrape configs (k8s/test/validate.sh).
rc_sum=$(cat "$LAB_ROOT"/k8s/relabel-check/*.go "$LAB_ROOT/k8s/relabel-check/go.mod" | sha256sum)
if ! stamped relabel-check "$rc_sum"; then
  step "building relabel-check"
  (cd "$LAB_ROOT/k8s/relabel-check" && nice -n 10 go build -trimpath -o "$TOOLS/bin/relabel-check" .)
  stamp relabel-check "$rc_sum"
fi

# kubeconform and its CRD -> JSON schema script.
if ! stamped kubeconform "$KUBECONFORM_VERSION"; then
  step "building kubeconform $KUBECONFORM_VERSION"
  kc_dir=$(module_dir "github.com/yannh/kubeconform@$KUBECONFORM_VERSION")
  (cd "$kc_dir" && nice -n 10 go build -trimpath -o "$TOOLS/bin/kubeconform" ./cmd/kubeconform)
  cp "$kc_dir/scripts/openapi2jsonschema.py" "$K8S_TOOLS/crd2jsonschema.py"
  stamp kubeconform "$KUBECONFORM_VERSION"
fi

# JSON schemas: built-in kinds from the pinned Kubernetes' swagger.json, the operator's CRDs.
if ! stamped schemas "$KUBERNETES_VERSION $PSMDB_OPERATOR_VERSION"; then
  step "making JSON schemas (Kubernetes $KUBERNETES_VERSION, operator $PSMDB_OPERATOR_VERSION)"
  start=$SECONDS
  if [[ ! -x $K8S_TOOLS/venv/bin/openapi2jsonschema ]]; then
    python3 -m venv "$K8S_TOOLS/venv"
    # openapi2jsonschema 0.9.1 pins pyyaml<6, which does not build on Python 3.11: its other
    # pins by hand, pyyaml 6 (the API it uses is unchanged).
    "$K8S_TOOLS/venv/bin/pip" install -q --no-deps openapi2jsonschema==0.9.1
    "$K8S_TOOLS/venv/bin/pip" install -q 'click<8' 'colorama<0.5' 'jsonref<0.3' 'pyyaml>=6,<7' 2>&1 | grep -v 'dependency resolver\|openapi2jsonschema 0.9.1 requires pyyaml' >&2 || true
  fi
  rm -rf "$K8S_TOOLS/schemas"
  mkdir -p "$K8S_TOOLS/schemas/crd"
  (cd "$K8S_TOOLS/schemas" && "$K8S_TOOLS/venv/bin/openapi2jsonschema" --expanded --kubernetes --stand-alone --strict \
    -o "v${KUBERNETES_VERSION#v}-standalone-strict" "$k8s_dir/api/openapi-spec/swagger.json" >/dev/null)
  (cd "$K8S_TOOLS/schemas/crd" && FILENAME_FORMAT='{kind}_{version}' DENY_ROOT_ADDITIONAL_PROPERTIES=true \
    "$K8S_TOOLS/venv/bin/python" "$K8S_TOOLS/crd2jsonschema.py" "$K8S_TOOLS/psmdb-crd.yaml" >/dev/null)
  stamp schemas "$KUBERNETES_VERSION $PSMDB_OPERATOR_VERSION"
  step "schemas made in $((SECONDS - start)) s"
fi

