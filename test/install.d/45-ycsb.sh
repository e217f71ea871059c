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
# sha256 of each jar (computed from the Maven Central downloads, whose .sha1 Maven verified).
pinned() {
  cat <<'SUMS'
e1c64d09bfc642715428c2e53ec129b0a98a0e634ee32bf0ae77e5b4eebb3cda  core-0.17.0.jar
8e68b9608ab107690350b904eab24087785f69218e5c6acd860d28116eded708  HdrHistogram-2.1.4.jar
5d45b7904857c3e4ad36b3bcc57be2d2c5f308c69b5f6a58bd86aa7d48a25ef6  htrace-core4-4.1.0-incubating.jar
6129e1b91d7850ba250b1375094c8ca215a0f7cf234b6f60a2f4a88d5b1272c9  jackson-core-asl-1.9.4.jar
f013389c3eb92aa997df801e4a352464925af634a4af3e5bd77c6c0763dc9c99  jackson-mapper-asl-1.9.4.jar
SUMS
}
if ! (cd "$dir" 2>/dev/null && pinned | sha256sum --quiet -c - 2>/dev/null); then
  mkdir -p "$dir"
  mvn -q -B -f "$LAB_ROOT/loader/test/support/ycsb/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$dir"
  (cd "$dir" && pinned | sha256sum --quiet -c -) || { echo "45-ycsb: a YCSB jar in $dir does not match its pinned sha256" >&2; exit 1; }
fi
