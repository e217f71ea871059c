#!/usr/bin/env bash
# Mutation check of compose/engines.tsv (a wrong value in any column of any row
# fails a test). For each mutant below, a temporary copy of the repository gets one cell of the
# table changed to a plausible wrong value, and the test files that read the table run in order,
# fast ones first, until one fails: that mutant is killed. A column of the header with no mutant
# here, or a mutant whose column is gone, is reported too. Not part of ./run.sh test: about 4 min
# on two busy cores (a baseline run of every file, ~70 s, then each mutant until a file fails; the
# real Compose file adds ~30 s to a mutant only it kills). Needs what the compose and loader suites
# need (bash test/install-tools.sh).
# Usage: bash test/engines-mutation.sh [COLUMN...]   (default: every mutant)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$ROOT/.tools/bin:$PATH"

# column <TAB> row <TAB> wrong value
MUTANTS=$(cat <<'EOF'
engine	percona-wt	perconawt
image	wiredtiger	mongo:7.0
mongod_uid	rocksdb	999
description	percona-wt	WiredTiger on Percona Server for MongoDB 7.0 (same engine as wiredtiger, Percona build)
description	mmapv1	MMAPv1 on Percona Server for MongoDB 4.0, its last line
description	inmemory	WiredTiger on Percona Server for MongoDB 8.0 (no data on disk)
server_engine	percona-wt	inMemory
keeps_data	inmemory	yes
journal	inmemory	yes
fault_methods	rocksdb	fsync,netem
server_line	mmapv1	4.2
shell	mmapv1	mongosh
driver_line	rocksdb	mongodb-6.16
cache_flag	inmemory	--wiredTigerCacheSizeGB
cache_flag	mmapv1	--wiredTigerCacheSizeGB
majority_reads	rocksdb	yes
retryable_writes	rocksdb	yes
hold_fcv	rocksdb	-
nojournal	mmapv1	no
oplog_mb	wiredtiger	990
preallocates	mmapv1	no
platform	wiredtiger	linux/amd64
platform	rocksdb	-
mem_beyond_cache_mb	rocksdb	128
oplog_share	inmemory	0.5
oplog_share	wiredtiger	0.25
oplog_share	percona-wt	0.25
journal_dir	rocksdb	journal
journal_dir	percona-wt	db/journal
journal_dir	mmapv1	-
EOF
)

# The test files that read the table, fastest first (compose.test.js renders every engine with the
# real Compose: last).
TESTS=(
  loader/test/tables.test.js
  loader/test/tables-agree.test.js
  compose/test/init-fcv.test.js
  compose/test/init-scripts.test.js
  loader/test/faults/retry-writes.test.js
  loader/test/faults/engines.test.js
  test/member-memory.bats
  test/journal-path.bats
  test/storage.bats
  loader/test/storage-facts.test.js
  compose/test/compose.test.js
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$ROOT" --exclude=./.git --exclude=node_modules --exclude=./results -cf - . | tar -C "$tmp" -xf -
for d in loader report; do ln -s "$(readlink -f "$ROOT/$d/node_modules")" "$tmp/$d/node_modules"; done
table=$tmp/engines.tsv.orig # the table as it was at the start, whatever happens to the working tree
cp "$ROOT/compose/engines.tsv" "$table"
header=$(grep -v '^#' "$table" | head -1)

# run_one FILE: 0 when it passes; otherwise prints the first failing test's name.
run_one() {
  local out
  if [[ $1 == *.bats ]]; then
    out=$(cd "$tmp" && bats --tap "$1" 2>&1) && return 0
  else
    out=$(cd "$tmp" && node --test --test-reporter=tap "$1" 2>&1) && return 0
  fi
  grep -m1 -E '^ *not ok' <<<"$out" | sed -E 's/^ *not ok [0-9]+ - //' | cut -c1-150
  return 1
}

case ${1:-} in -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
start=$SECONDS
# the unchanged table passes every file, so a failure below is the mutant's
for t in "${TESTS[@]}"; do why=$(run_one "$t") || { echo "BASELINE FAILS $t: $why"; exit 1; }; done
killed=0 survived=0
declare -A mutated=()
while IFS=$'\t' read -r col row value; do
  (($#)) && ! grep -qxF -- "$col" <<<"$(printf '%s\n' "$@")" && continue
  mutated[$col]=1
  if ! grep -qxF -- "$col" <<<"${header//$'\t'/$'\n'}"; then echo "GONE     $col (no such column)"; continue; fi
  awk -F'\t' -v OFS='\t' -v col="$col" -v row="$row" -v value="$value" '
    /^#/ { print; next }
    !hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; print; next }
    $1 == row { $(idx[col]) = value; hit = 1 }
    { print }
    END { if (!hit) exit 1 }' "$table" >"$tmp/compose/engines.tsv" ||
    { echo "NO ROW   $col: $row"; continue; }
  killer=""
  for t in "${TESTS[@]}"; do
    if why=$(run_one "$t"); then continue; fi
    killer="$t: $why"
    break
  done
  if [[ -n $killer ]]; then
    killed=$((killed + 1)); printf 'KILLED   %s %s=%s  by %s\n' "$col" "$row" "$value" "$killer"
  else
    survived=$((survived + 1)); printf 'SURVIVED %s %s=%s\n' "$col" "$row" "$value"
  fi
done <<<"$MUTANTS"
cp "$table" "$tmp/compose/engines.tsv"
# a check that examined nothing fails: a column named on the command line with no mutant here
for col in "$@"; do [[ -n ${mutated[$col]:-} ]] || { echo "NO MUTANT $col (the columns: $(tr '\t' ' ' <<<"$header"))"; survived=$((survived + 1)); }; done
if (($# == 0)); then
  for col in $(tr '\t' ' ' <<<"$header"); do [[ -n ${mutated[$col]:-} ]] || { echo "UNTESTED $col (no mutant here)"; survived=$((survived + 1)); }; done
fi
echo "killed $killed, survived or untested $survived, $((SECONDS - start)) s"
((survived == 0))
