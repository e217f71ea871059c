#!/usr/bin/env bash
# exporter-names.sh OUT: every metric name mongodb_exporter's own naming code gives the
# getDiagnosticData replies in dashboards/test/exporter-names/*.extjson (documents shaped like
# MongoDB 8.0's, one per server line: a WiredTiger shard member, a Percona inMemory shard member,
# a mongos; make-fixtures.py says which 8.0 server and WiredTiger sources they follow), written to
# OUT as "server<TAB>name<TAB>labels". The metrics catalogue's "naming-rule" rows are checked
# against it per server line (dashboards/test/run-tests.sh).
# How: a scratch copy of the exporter module from the Go module cache (test/install.d/50-monitoring.sh
# downloads it), plus dashboards/test/exporter-names/zz_lab_names_test.go, run with go test
# (-trimpath: the scratch folder's name then leaves Go's build cache valid from run to run).
# The exporter's own testdata (a 4.x mongod) is not used: names that 8.0 no longer produces
# (WiredTiger's "transaction checkpoint currently running", the oplog's top-level size) came out
# of it and let panels without data pass.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:?usage: exporter-names.sh OUT}
version=$(sed -n 's/^EXPORTER_VERSION=\([^ ]*\).*/\1/p' "$LAB_ROOT/test/install.d/50-monitoring.sh")
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
src=$(go mod download -json "github.com/percona/mongodb_exporter@$version" | jq -r .Dir)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/exporter-names.XXXXXX")
trap 'chmod -R u+w "$scratch"; rm -rf "$scratch"' EXIT
cp -R "$src/." "$scratch/"
chmod -R u+w "$scratch"
cp "$LAB_ROOT/dashboards/test/exporter-names/zz_lab_names_test.go" "$scratch/exporter/"
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
(cd "$scratch/exporter" && LAB_NAMES_OUT=$out_abs LAB_FIXTURES="$LAB_ROOT/dashboards/test/exporter-names" \
  go test -trimpath -count=1 -run '^TestLabMetricNames$' .)
