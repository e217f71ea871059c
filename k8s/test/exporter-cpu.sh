#!/usr/bin/env bash
# exporter-cpu.sh: the CPU the lab's exporter sidecar (lab-exporter + mongodb_exporter, the flags
# k8s/manifests.sh gives it) spends per 1 s scrape, measured here against mongo-java-server with
# experiment2 running on it, to size the sidecar's CPU budget (k8s/README.md "Exporter CPU").
# Run by hand (about WINDOW + 15 s): bash k8s/test/exporter-cpu.sh [WINDOW_SECONDS]
# mongo-java-server implements neither getDiagnosticData nor replSetGetStatus, so the two largest
# parts of a real scrape (the FTDC document, the replica set status) are missing here: the numbers
# are a floor for a real mongod, never its cost. What a cluster measures instead is in the README.
# Prints CPU ms per scrape (mean and the largest second), scrape wall time, and the budget that
# answers a scrape of that cost within half the 1 s timeout under a CFS quota.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$LAB_ROOT"
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"
WINDOW=${1:-30}
if ! [[ $WINDOW =~ ^[0-9]+$ ]] || ((WINDOW < 5)); then echo "usage: $0 [WINDOW_SECONDS >= 5]" >&2; exit 2; fi
for t in mongodb_exporter lab-exporter java node curl python3; do
  command -v "$t" >/dev/null || { echo "missing $t: $INSTALL_HINT" >&2; exit 1; }
done
# shellcheck source=test/lib/local-servers.sh
source "$LAB_ROOT/test/lib/local-servers.sh" # scratch_begin, free_port, start_mongo_java_server
scratch_begin exporter-cpu
# cpu_ticks PID...: user + system clock ticks of the processes
cpu_ticks() { local p t=0; for p in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat"))); done; echo "$t"; }

start_mongo_java_server $((WINDOW + 120)) >&2 || exit 1
PPORT=$(free_port) UPORT=$(free_port)
# k8s/manifests.sh k8s_exporter_sidecar's flags, minus credentials and compatible mode
# (mongo-java-server has no users and no oplog)
lab-exporter --listen="127.0.0.1:$PPORT" --exporter-listen="127.0.0.1:$UPORT" --exporter="$(command -v mongodb_exporter)" \
  --password-file= -- --mongodb.uri="mongodb://127.0.0.1:$MPORT" --mongodb.global-conn-pool --mongodb.direct-connect \
  --collector.diagnosticdata --collector.replicasetstatus --log.level=error >"$WORK/lab.log" 2>&1 &
LPID=$!
PIDS+=("$LPID")
node loader/bin/lab-loader.js experiment2 --uri "mongodb://127.0.0.1:$MPORT/" --preload-docs 5000 --clients 2 \
  --duration "$((WINDOW + 15))s" --metrics-port 0 --engine bench --results-dir "$WORK/results" >"$WORK/loader.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$PPORT/metrics" 2>/dev/null && break; sleep 0.2; done
EPID=$(pgrep -P "$LPID" | head -1)
[[ -n $EPID ]] || { echo "mongodb_exporter did not start under lab-exporter: $(cat "$WORK/lab.log")" >&2; exit 1; }
sleep 3 # warm: the first scrapes open connections
hz=$(getconf CLK_TCK)
start=$(cpu_ticks "$LPID" "$EPID")
worst=0 wall_max=0 bytes=0
for ((i = 0; i < WINDOW; i++)); do
  t0=$(cpu_ticks "$LPID" "$EPID")
  w=$(curl -fsS -o "$WORK/m.txt" -w '%{time_total}' "http://127.0.0.1:$PPORT/metrics")
  t1=$(cpu_ticks "$LPID" "$EPID")
  ((t1 - t0 > worst)) && worst=$((t1 - t0))
  wall_max=$(awk -v a="$wall_max" -v b="$w" 'BEGIN { print (b > a) ? b : a }')
  bytes=$(wc -c <"$WORK/m.txt")
  sleep 0.8
done
end=$(cpu_ticks "$LPID" "$EPID")
awk -v t=$((end - start)) -v n="$WINDOW" -v hz="$hz" -v worst="$worst" -v wall="$wall_max" -v b="$bytes" \
  -v v="$(mongodb_exporter --version 2>&1 | awk '/Version/{print $2}')" 'BEGIN {
  mean = t / n * 1000 / hz; peak = worst * 1000 / hz
  printf "exporter-cpu: mongodb_exporter %s via lab-exporter, %d scrapes at 1 s, %d bytes each\n", v, n, b
  printf "exporter-cpu: CPU per scrape (process ticks of %d ms): mean %.1f ms, largest %.0f ms; scrape wall time max %.0f ms\n", 1000 / hz, mean, peak, wall * 1000
  # Under a CFS quota of L cores per 100 ms period, C ms of CPU take about C / L ms of wall time:
  # answering within 500 ms (half the 1 s timeout) needs L >= C / 500.
  printf "exporter-cpu: a %.0f ms scrape within 500 ms needs at least %.0fm CPU (floor: no FTDC, no replSetGetStatus here)\n", peak, peak / 500 * 1000
}'
