#!/usr/bin/env bash
# install-tools hook: YCSB 0.17.0's MongoDB binding for loader/bench (the bench runs YCSB workload
# A beside the loader, same server, same pinned core). YCSB core and mongo-java-driver 3.8.0 come
# from Maven Central into .tools/ycsb-mongodb/lib/; the binding, which Maven Central does not
# have, is compiled from YCSB's released source kept in loader/bench/ycsb/src (see the README
# there) into .tools/ycsb-mongodb/classes/. Idempotent. Needs Java 17 (javac) and Maven.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in java javac mvn; do
  command -v "$t" >/dev/null || { echo "46-ycsb-mongodb: '$t' is missing (install a JDK 17 and Maven)" >&2; exit 1; }
done
dest="$LAB_ROOT/.tools/ycsb-mongodb"
src="$LAB_ROOT/loader/bench/ycsb"
if ! compgen -G "$dest/lib/core-0.17.0.jar" >/dev/null || ! compgen -G "$dest/lib/mongo-java-driver-3.8.0.jar" >/dev/null; then
  mkdir -p "$dest/lib"
  mvn -q -B -f "$src/pom.xml" dependency:copy-dependencies -DoutputDirectory="$dest/lib"
fi
if [ ! -f "$dest/classes/site/ycsb/db/MongoDbClient.class" ] || [ "$src/src/site/ycsb/db/MongoDbClient.java" -nt "$dest/classes/site/ycsb/db/MongoDbClient.class" ]; then
  tmp=$(mktemp -d "$dest/.classes-XXXXXX")
  # -nowarn: the 2015 source uses APIs the 3.8 driver marks deprecated.
  javac -nowarn -d "$tmp" -cp "$dest/lib/*" "$src/src/site/ycsb/db/MongoDbClient.java" "$src/src/site/ycsb/db/OptionsSupport.java"
  rm -rf "$dest/classes"
  mv "$tmp" "$dest/classes"
fi
