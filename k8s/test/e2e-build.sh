#!/usr/bin/env bash
# e2e-build.sh: the binaries k8s/test/e2e-offline.sh runs, built once from the Go module proxy and
# cached under .tools/k8s/e2e/ (a stamp names the versions; a rerun takes under a second):
#   kube-controller-manager, kube-scheduler  k8s.io/kubernetes at KUBERNETES_VERSION (the same
#                                            throwaway module test/install.d/70-k8s.sh builds
#                                            kube-apiserver and kubectl with)
#   psmdb-operator                           cmd/manager of the operator at PSMDB_OPERATOR_VERSION
#                                            (k8s/validate's go.mod, with percona-backup-mongodb
#                                            at the commit the operator requires, from git)
# Not part of the 15-minute suite: cold, on 2 shared cores, this takes long (nice'd). Needs
# test/install.d/70-k8s.sh to have run (kube-apiserver's build module and Go cache).
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=k8s/versions.env
source "$LAB_ROOT/k8s/versions.env"
E2E=$LAB_ROOT/.tools/k8s/e2e
mkdir -p "$E2E/bin"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
want="$KUBERNETES_VERSION $PSMDB_OPERATOR_VERSION"
if [[ -f $E2E/stamp && $(cat "$E2E/stamp") == "$want" ]]; then echo "e2e-build: cached ($want)"; exit 0; fi
[[ -x $E2E/bin/kube-controller-manager && -x $E2E/bin/kube-scheduler && -f $E2E/kube.stamp && $(cat "$E2E/kube.stamp") == "$KUBERNETES_VERSION" ]] && skip_kube=1 || skip_kube=0
build=$LAB_ROOT/.tools/k8s/apiserver-build
[[ -f $build/go.mod ]] || { echo "e2e-build: $build missing: run 'bash test/install-tools.sh' first" >&2; exit 1; }
start=$SECONDS
minor=${KUBERNETES_VERSION#v1.}
minor=${minor%%.*}
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$KUBERNETES_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor"
if ((!skip_kube)); then
  echo "e2e-build: kube-controller-manager and kube-scheduler $KUBERNETES_VERSION"
  (cd "$build" && nice -n 15 go build -trimpath -o "$E2E/bin/" -ldflags "$ldflags" \
    k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  printf '%s\n' "$KUBERNETES_VERSION" >"$E2E/kube.stamp"
fi
echo "e2e-build: operator $PSMDB_OPERATOR_VERSION (cmd/manager)"
# The operator requires modules at versions the Go module proxy refuses (403, "not available"):
# percona-backup-mongodb at a pseudo-version (psmdb-check gets by with an older one,
# k8s/validate/go.mod; the operator's backup code does not: it imports pbm/storage/oci), which in
# turn requires mongo-tools at a pseudo-version and oci-go-sdk v65.114.1. The two pseudo-versions
# come from git at the required commit (PBM_GIT_DIR / MONGO_TOOLS_GIT_DIR: a clone or bare mirror,
# else cloned from GitHub); oci-go-sdk is taken at v65.115.0, the next release the proxy serves.
modcache=$(go env GOMODCACHE)
# git_source MODULE GIT_DIR URL REQUIRER_GO_MOD: the module's source at the commit REQUIRER_GO_MOD
# requires, extracted under $E2E; prints its directory.
git_source() {
  local rev dir git_dir=$2
  rev=$(awk -v m="$1" '$1 == m { print $2 }' "$4" | sed 's/.*-//')
  dir=$E2E/$(basename "$1")-$rev
  if [[ ! -f $dir/go.mod ]]; then
    if [[ -z $git_dir ]]; then
      git_dir=$E2E/$(basename "$1").git
      [[ -d $git_dir ]] || git clone -q --bare "$3" "$git_dir" >&2
    fi
    mkdir -p "$dir"
    git --git-dir="$git_dir" archive "$rev" | tar -x -C "$dir"
  fi
  echo "$dir"
}
pbm=$(git_source github.com/percona/percona-backup-mongodb "${PBM_GIT_DIR:-}" https://github.com/percona/percona-backup-mongodb \
  "$modcache/github.com/percona/percona-server-mongodb-operator@$PSMDB_OPERATOR_VERSION/go.mod")
tools=$(git_source github.com/mongodb/mongo-tools "${MONGO_TOOLS_GIT_DIR:-}" https://github.com/mongodb/mongo-tools "$pbm/go.mod")
op=$E2E/operator-build
rm -rf "$op"
mkdir -p "$op"
sed -e 's#^module .*#module lab/e2e/operator#' -e '/^replace github.com\/percona\/percona-backup-mongodb/d' \
  "$LAB_ROOT/k8s/validate/go.mod" >"$op/go.mod"
{
  echo "replace github.com/percona/percona-backup-mongodb => $pbm"
  echo "replace github.com/mongodb/mongo-tools => $tools"
  echo "replace github.com/oracle/oci-go-sdk/v65 => github.com/oracle/oci-go-sdk/v65 v65.115.0"
} >>"$op/go.mod"
cp "$LAB_ROOT/k8s/validate/go.sum" "$op/go.sum"
(cd "$op" && nice -n 15 go build -trimpath -ldflags "-s -w" -o "$E2E/bin/psmdb-operator" github.com/percona/percona-server-mongodb-operator/cmd/manager)
printf '%s\n' "$want" >"$E2E/stamp"
echo "e2e-build: built in $((SECONDS - start)) s"
