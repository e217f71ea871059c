#!/usr/bin/env bash
# install-tools hook: the loader's npm dependencies (exactly the lock file) and the wire-protocol
# server its tests start (de.bwaldvogel:mongo-java-server + dependencies, from Maven Central, into
# .tools/mongo-java-server/). Idempotent. Needs node >= 20.19 (mongodb driver 7), npm, Java 17, Maven.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in node npm java javac mvn; do
  command -v "$t" >/dev/null || { echo "40-loader: '$t' is missing (install Node.js 20.19+, a JDK 17 and Maven)" >&2; exit 1; }
done
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  { echo "40-loader: Node.js >= 20.19 is needed by the mongodb driver 7 (found $(node --version))" >&2; exit 1; }

(cd "$LAB_ROOT/loader" && npm ci --no-audit --no-fund --loglevel=error)

jars="$LAB_ROOT/.tools/mongo-java-server"
if ! compgen -G "$jars/mongo-java-server-core-*.jar" >/dev/null; then
  mkdir -p "$jars"
  mvn -q -B -f "$LAB_ROOT/loader/test/support/pom.xml" dependency:copy-dependencies -DoutputDirectory="$jars"
fi
# Compile the launcher now so the first test does not pay for it (the harness recompiles if stale).
node -e 'require(process.argv[1]).compile()' "$LAB_ROOT/loader/test/support/server.js"
