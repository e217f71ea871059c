#!/usr/bin/env bash
# install-tools hook: mongosh, the shell of every 8.0 engine's image, from npm into .tools/mongosh
# (exactly the lock file beside this hook, test/install.d/mongosh/), with .tools/bin/mongosh a
# symlink to it. The compose suite runs every script of compose/init under it against a real
# server (compose/test/init-mongosh.test.js).
#
# Which version: the one in test/install.d/mongosh/package.json, 2.12.0, the newest on npm when
# pinned. The images pin none: mongo:8.0 installs mongodb-org-shell, which pulls the
# mongodb-mongosh package the repository had on the image's build date (docker-library/mongo
# 8.0/Dockerfile), and percona/percona-server-mongodb:8.0 Percona's build of a mongosh 2.x. For
# what the scripts use they behave alike: load, print, sleep, quit, require('fs'), new Mongo(uri),
# getDB, runCommand, insertOne and close are the same across 2.x, and so is how the async
# rewriter treats a shell call: its stage src/stages/transform-maybe-await.ts (mongodb-js/mongosh
# packages/async-rewriter2) is unchanged since 2024-03, and @mongosh/async-rewriter2 1.10.6,
# 2.0.0, 2.4.19 and 2.6.0 (the one 2.12.0 locks) rewrite lab.js's old run() alike, the
# `return db.runCommand(doc)` inside try unawaited (see run() in compose/init/lab.js).
# Idempotent: skipped when the stamp names this lock file and the binary prints the version.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in node npm; do
  command -v "$t" >/dev/null || { echo "47-mongosh: '$t' is missing (install Node.js 20.19+)" >&2; exit 1; }
done
src="$LAB_ROOT/test/install.d/mongosh"
dest="$LAB_ROOT/.tools/mongosh"
bin="$LAB_ROOT/.tools/bin/mongosh"
version=$(node -p 'require(process.argv[1]).dependencies.mongosh' "$src/package.json")
want="$version $(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ -x $bin && $(cat "$dest/.stamp" 2>/dev/null) == "$want" && $("$bin" --version 2>/dev/null) == "$version" ]]; then exit 0; fi
echo "47-mongosh: npm ci mongosh $version into .tools/mongosh"
mkdir -p "$dest" "$LAB_ROOT/.tools/bin"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
ln -sfn ../mongosh/node_modules/.bin/mongosh "$bin"
got=$("$bin" --version)
[[ $got == "$version" ]] || { echo "47-mongosh: .tools/bin/mongosh prints '$got', not $version" >&2; exit 1; }
echo "$want" >"$dest/.stamp"
