#!/usr/bin/env bash
# ycsb-run PHASE DIR THREADS: one YCSB 0.17.0 phase (load | run) with DIR/ycsb/workload.properties
# (written by lab-ycsb prepare) against YCSB_URI (the stack's URI, no credentials), output to
# DIR/ycsb/load.txt or DIR/ycsb/run-threads-THREADS.txt (a "# started:" line, then YCSB's stdout;
# its stderr, the 1 s status lines included, beside it as .log).
# mongodb.url carries root's password, read from the mounted secret file into a properties file
# inside this container (mode 600, gone with the container): never on a command line.
set -euo pipefail
phase=$1 dir=$2 threads=$3
: "${YCSB_URI:?YCSB_URI (the stack URI without credentials) is required}"
: "${YCSB_DATABASE:?YCSB_DATABASE is required}"
secret=${YCSB_PASSWORD_FILE:-/run/lab-secrets/root-password}
case $phase in
  load) flag=-load out=$dir/ycsb/load ;;
  run) flag=-t out=$dir/ycsb/run-threads-$threads ;;
  *) echo "ycsb-run: phase is load or run (got '$phase')" >&2; exit 2 ;;
esac

# urlencode: RFC 3986 percent-encoding of everything but unreserved characters.
urlencode() {
  local LC_ALL=C # byte by byte: a UTF-8 character becomes its bytes' %XX
  local s=$1 i c out=""
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [A-Za-z0-9._~-]) out+=$c ;;
      *) out+=$(printf '%%%02X' "'$c") ;;
    esac
  done
  printf '%s' "$out"
}

password=$(tr -d '\n' <"$secret")
# mongodb://hosts/?opts -> mongodb://root:PW@hosts/DB?opts&authSource=admin&w=1
rest=${YCSB_URI#mongodb://}
hosts=${rest%%/*}
query=${rest#*/}
query=${query#\?}
query=${query:+$query&}authSource=admin\&w=1
props=$(mktemp)
chmod 600 "$props"
printf 'mongodb.url=mongodb://%s:%s@%s/%s?%s\n' "${YCSB_USERNAME:-root}" "$(urlencode "$password")" "$hosts" "$YCSB_DATABASE" "$query" >"$props"
trap 'rm -f "$props"' EXIT

echo "# started: $(date -u +%Y-%m-%dT%H:%M:%S.000Z)" >"$out.txt"
java -cp "$YCSB_HOME/lib/*:$YCSB_HOME/classes" site.ycsb.Client "$flag" -db site.ycsb.db.MongoDbClient \
  -P "$dir/ycsb/workload.properties" -P "$props" -threads "$threads" -s >>"$out.txt" 2>"$out.log"
