#!/usr/bin/env bash
# install-tools hook: FerretDB v1.24.2, the suite's second real server (an independently written
# MongoDB-compatible server, SQLite backend), built from the Go module proxy into .tools/bin/ferretdb.
# The suite 45-ferretdb runs the experiments and the kill and freeze tests against it.
#
# Why the version files: the module as the proxy serves it has no build/version/version.txt (it is
# generated from git by build/version/generate.go, and a module zip carries no .git), and a
# FerretDB binary built without it panics at start ("Invalid build/version/version.txt file
# content", build/version/version.go init(): the version must start with "v"). The module copy is
# read-only in the Go module cache, so the build happens in a scratch copy with the file written
# to the released tag. package.txt says how it was built (buildInfo does not show it; the binary's
# own --version does). Idempotent: skipped when the binary already prints this version.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FERRETDB_VERSION=v1.24.2
bin="$LAB_ROOT/.tools/bin/ferretdb"
command -v go >/dev/null || { echo "45-ferretdb: 'go' is missing (install Go 1.22+)" >&2; exit 1; }
# The version is read whole before it is matched: `ferretdb --version | grep -q` under pipefail
# fails at random, since grep leaves at the first line and ferretdb, still printing the next
# ones, dies of SIGPIPE (a CI run stopped here with a good binary).
reports_version() { [[ -x $bin && $("$bin" --version 2>/dev/null) == *"version: $FERRETDB_VERSION"* ]]; }
if reports_version; then exit 0; fi
echo "45-ferretdb: building FerretDB $FERRETDB_VERSION from the Go module proxy (a minute or two)"
dir=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | jq -r .Dir)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$dir/." "$scratch/src"
chmod -R u+w "$scratch/src"
echo "$FERRETDB_VERSION" >"$scratch/src/build/version/version.txt"
echo "lab-install-tools" >"$scratch/src/build/version/package.txt"
mkdir -p "$LAB_ROOT/.tools/bin"
(cd "$scratch/src" && go build -trimpath -o "$scratch/ferretdb" ./cmd/ferretdb)
mv "$scratch/ferretdb" "$bin"
reports_version || { echo "45-ferretdb: the built binary does not report $FERRETDB_VERSION" >&2; exit 1; }
