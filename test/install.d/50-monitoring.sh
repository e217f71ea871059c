#!/usr/bin/env bash
# Monitoring test tools (test/install-tools.sh runs this hook; idempotent):
#   Debian: prometheus-node-exporter (the tests read node_* names from a real /metrics)
#   .tools/bin/promql-check      dashboards/test/promql-check, Prometheus's PromQL parser
#   .tools/bin/lab-exporter      images/mongodb-exporter, the exporter image's entrypoint
#   .tools/bin/mongodb_exporter  percona/mongodb_exporter, built from the Go module proxy at the
#                                version the lab's image uses (about a minute on a fresh cache)
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"
EXPORTER_VERSION=v0.43.1 # keep in step with images/mongodb-exporter/Dockerfile
mkdir -p "$TOOLS_DIR/bin"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod

if ! dpkg -s prometheus-node-exporter >/dev/null 2>&1; then
  echo "install-tools: apt-get install prometheus-node-exporter"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends prometheus-node-exporter >/dev/null
fi
# The package starts a system service on :9100; the tests start their own on a free port.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active -q prometheus-node-exporter 2>/dev/null; then
  systemctl disable --now -q prometheus-node-exporter || true
fi

echo "install-tools: building promql-check and lab-exporter"
(cd "$LAB_ROOT/dashboards/test/promql-check" && go build -trimpath -o "$TOOLS_DIR/bin/promql-check" .)
(cd "$LAB_ROOT/images/mongodb-exporter" && go build -trimpath -o "$TOOLS_DIR/bin/lab-exporter" .)

stamp=$TOOLS_DIR/bin/.mongodb_exporter.version
if [[ ! -x $TOOLS_DIR/bin/mongodb_exporter || $(cat "$stamp" 2>/dev/null) != "$EXPORTER_VERSION" ]]; then
  echo "install-tools: building mongodb_exporter $EXPORTER_VERSION from the Go module proxy"
  dir=$(go mod download -json "github.com/percona/mongodb_exporter@$EXPORTER_VERSION" | jq -r .Dir)
  # go mod download: also the test-only modules dashboards/test/exporter-names.sh needs.
  (cd "$dir" && go mod download)
  (cd "$dir" && go build -trimpath -ldflags "-s -w -X main.version=${EXPORTER_VERSION#v}" -o "$TOOLS_DIR/bin/mongodb_exporter" .)
  echo "$EXPORTER_VERSION" >"$stamp"
fi

# The suite's go vet and go test (dashboards/test/run-tests.sh, exporter-names.sh) build with
# flags of their own, which the builds above do not cache for them: on a fresh Go cache they
# compiled Prometheus's and the exporter's packages inside the suite (the monitoring suite 464 CPU s
# on a fresh machine, 2026-12-02; promql-check's go test alone 98 CPU s cold, 1.5 warm). Built
# here once, as the tools are; the tests still run in the suite.
echo "install-tools: compiling the monitoring suite's Go tests (Go's build cache; once)"
(cd "$LAB_ROOT/dashboards/test/promql-check" && go test -count=1 -run '^$' ./... >/dev/null)
(cd "$LAB_ROOT/images/mongodb-exporter" && GOFLAGS='' go vet ./... && GOFLAGS='' go test -count=1 -run '^$' ./... >/dev/null)
names=$(mktemp)
bash "$LAB_ROOT/dashboards/test/exporter-names.sh" "$names" >/dev/null
rm -f "$names"
