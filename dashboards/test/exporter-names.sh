#!/usr/bin/env bash
# exporter-names.sh OUT: every metric name mongodb_exporter's own naming code gives the exporter's
# own getDiagnosticData testdata (a real mongod reply) plus dashboards/test/exporter-names/
# server-sections.extjson (7.0+ tickets, Percona inMemory cache), written to OUT as "name<TAB>labels".
# The metrics catalogue's "naming-rule" rows are checked against it (dashboards/test/run-tests.sh).
# How: a scratch copy of the exporter module from the Go module cache (test/install.d/50-monitoring.sh
# downloads it), plus dashboards/test/exporter-names/zz_lab_names_test.go, run with go test.
# The testdata stores optimeDate as plain strings; they are turned into {"$date": ...} first, as
# the driver would decode them, so that the DateTime metrics (ms) appear.
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
# shellcheck disable=SC2016  # "$date" is extended JSON, not a shell variable
sed -i -E 's/"(optimeDate|optimeDurableDate|lastHeartbeat|lastHeartbeatRecv)": "([^"]+)"/"\1": {"$date": "\2"}/' \
  "$scratch/exporter/testdata/get_diagnostic_data.json"
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
(cd "$scratch/exporter" && LAB_NAMES_OUT=$out_abs LAB_EXTRA_DOC="$LAB_ROOT/dashboards/test/exporter-names/server-sections.extjson" \
  go test -count=1 -run '^TestLabMetricNames$' . >/dev/null)
