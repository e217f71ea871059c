#!/usr/bin/env bash
# install-tools hook: YCSB 0.17.0's core (site.ycsb:core: Client, CoreWorkload, BasicDB, the
# measurement output) and its runtime dependencies from Maven Central into .tools/ycsb/, for the
# tests that check the ycsb kind's keys against YCSB itself and parse YCSB's real output
# (loader/test/ycsb-*.test.js). Maven checks each download against Central's .sha1; the sha256 of
# every jar is pinned here as well, so a changed artifact fails the install. Idempotent.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in java mvn sha256sum; do
  command -v "$t" >/dev/null || { echo "45-ycsb: '$t' is missing (install a JDK 17, Maven and coreutils)" >&2; exit 1; }
done
dir="$LAB_ROOT/.tools/ycsb"
# sha256 of each jar: images/ycsb/jars.sha256, the pins the YCSB image checks too (computed from
# Maven Central's files, which matched Central's .sha1); mongo-java-driver is the binding's, not core's.
pinned() { grep -v ' mongo-java-driver-' "$LAB_ROOT/images/ycsb/jars.sha256"; }
if ! (cd "$dir" 2>/dev/null && pinned | sha256sum --quiet -c - 2>/dev/null); then
  mkdir -p "$dir"
  mvn -q -B -f "$LAB_ROOT/loader/test/support/ycsb/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$dir"
  (cd "$dir" && pinned | sha256sum --quiet -c -) || { echo "45-ycsb: a YCSB jar in $dir does not match its pinned sha256" >&2; exit 1; }
fi
