#!/usr/bin/env bash
# install-tools hook: YCSB 0.17.0 for the tests and the bench: its core for the tests that check the
# ycsb kind's keys against YCSB itself and parse YCSB's real output (loader/test/ycsb-*.test.js,
# with YCSB's BasicDB), and its MongoDB binding for loader/bench (YCSB workload A beside the
# loader, same server, same pinned core). YCSB core and mongo-java-driver 3.8.0 come
# from Maven Central into .tools/ycsb-mongodb/lib/; the binding, which Maven Central does not
# have, is compiled from YCSB's released source kept in images/ycsb/binding (see the README there;
# the YCSB image is built from the same jars and source) into .tools/ycsb-mongodb/classes/. Every
# jar is checked against images/ycsb/jars.sha256. Idempotent. Needs Java 17 (javac) and Maven.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in java javac mvn; do
  command -v "$t" >/dev/null || { echo "46-ycsb-mongodb: '$t' is missing (install a JDK 17 and Maven)" >&2; exit 1; }
done
dest="$LAB_ROOT/.tools/ycsb-mongodb"
src="$LAB_ROOT/images/ycsb/binding/site/ycsb/db"
sums="$LAB_ROOT/images/ycsb/jars.sha256"
if ! (cd "$dest/lib" 2>/dev/null && sha256sum --quiet -c "$sums" 2>/dev/null); then
  mkdir -p "$dest/lib"
  mvn -q -B -f "$LAB_ROOT/loader/bench/ycsb/pom.xml" dependency:copy-dependencies -DoutputDirectory="$dest/lib"
  (cd "$dest/lib" && sha256sum --quiet -c "$sums") || { echo "46-ycsb-mongodb: a jar in $dest/lib does not match images/ycsb/jars.sha256" >&2; exit 1; }
fi
if [ ! -f "$dest/classes/site/ycsb/db/MongoDbClient.class" ] || [ "$src/MongoDbClient.java" -nt "$dest/classes/site/ycsb/db/MongoDbClient.class" ]; then
  tmp=$(mktemp -d "$dest/.classes-XXXXXX")
  # -nowarn: the 2015 source uses APIs the 3.8 driver marks deprecated.
  javac -nowarn -d "$tmp" -cp "$dest/lib/*" "$src/MongoDbClient.java" "$src/OptionsSupport.java"
  rm -rf "$dest/classes"
  mv "$tmp" "$dest/classes"
fi
