#!/usr/bin/env bash
# exporter-1s.sh: the measurement behind the lab's 1 s exporter fix, runnable without Docker.
# A real Prometheus scrapes the real mongodb_exporter every 1 s (timeout 1 s) twice over: straight,
# and through lab-exporter (images/mongodb-exporter). Both watch one wire-protocol server
# (mongo-java-server) while the loader runs experiment2 against it, for WINDOW seconds. Then:
#   - sample spacing of every series each exporter returned (dashboards/test/sample-spacing.sh):
#     samples per series vs WINDOW, the largest gap between consecutive samples;
#   - up and mongodb_up sample counts per job (up=1 with no mongodb_up = the silent gap);
#   - scrape_duration_seconds mean / p99 / max per job (the exporter's own cost per scrape).
# mongo-java-server implements neither getDiagnosticData nor replSetGetStatus: the MongoDB series
# here are mongodb_up and the exporter's own; this measures timing, not metric names.
#
# Usage: dashboards/test/exporter-1s.sh [WINDOW_SECONDS]   (default 60; needs bash
#        test/install-tools.sh: mongodb_exporter, lab-exporter, prometheus, java, node, jq)
# Exit 0 when the lab-exporter job passes (every series every second) and the straight job shows
# the failure it exists to fix; 1 otherwise.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$LAB_ROOT"
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"
WINDOW=${1:-60}
if ! [[ $WINDOW =~ ^[0-9]+$ ]] || ((WINDOW < 5)); then echo "usage: $0 [WINDOW_SECONDS >= 5]" >&2; exit 2; fi
for t in mongodb_exporter lab-exporter prometheus java node jq curl python3; do
  command -v "$t" >/dev/null || { echo "missing $t: $INSTALL_HINT" >&2; exit 1; }
done

# shellcheck source=test/lib/local-servers.sh
source "$LAB_ROOT/test/lib/local-servers.sh" # scratch_begin, free_port, start_mongo_java_server
scratch_begin exporter-1s

start_mongo_java_server $((WINDOW + 120)) >&2 || exit 1

DPORT=$(free_port) PPORT=$(free_port) UPORT=$(free_port) PROMPORT=$(free_port) LPORT=$(free_port)
# The flags compose/monitoring.yml gives the exporter, minus credentials and compatible mode
# (mongo-java-server has no users and no oplog).
flags=(--mongodb.uri="mongodb://127.0.0.1:$MPORT" --mongodb.global-conn-pool --mongodb.direct-connect
  --collector.diagnosticdata --collector.replicasetstatus --log.level=error)
mongodb_exporter "${flags[@]}" --web.listen-address="127.0.0.1:$DPORT" >"$WORK/direct.log" 2>&1 &
PIDS+=($!)
lab-exporter --listen="127.0.0.1:$PPORT" --exporter-listen="127.0.0.1:$UPORT" --exporter="$(command -v mongodb_exporter)" \
  --password-file= -- "${flags[@]}" >"$WORK/lab.log" 2>&1 &
PIDS+=($!)
cat >"$WORK/prom.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: straight
    static_configs: [{targets: ['127.0.0.1:$DPORT']}]
  - job_name: lab-exporter
    static_configs: [{targets: ['127.0.0.1:$PPORT']}]
  - job_name: loader
    static_configs: [{targets: ['127.0.0.1:$LPORT']}]
EOF
prometheus --config.file="$WORK/prom.yml" --storage.tsdb.path="$WORK/tsdb" --web.listen-address="127.0.0.1:$PROMPORT" >"$WORK/prom.log" 2>&1 &
PIDS+=($!)
# Load on the server while it is watched: experiment2 (50 % find, 50 % update), 2 clients.
node loader/bin/lab-loader.js experiment2 --uri "mongodb://127.0.0.1:$MPORT/" --preload-docs 5000 --clients 2 \
  --duration "$((WINDOW + 10))s" --metrics-port "$LPORT" --engine bench --results-dir "$WORK/results" >"$WORK/loader.log" 2>&1 &
PIDS+=($!)

echo "# exporter-1s: mongodb_exporter $(mongodb_exporter --version 2>&1 | awk '/Version/{print $2}') at 1 s scrapes, window ${WINDOW}s, loader experiment2 running"
sleep $((WINDOW + 5))
PROM=http://127.0.0.1:$PROMPORT
q() { curl -fsS "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // "0"'; }

rc=0
for job in straight lab-exporter; do
  up=$(q "sum(count_over_time(up{job=\"$job\"}[${WINDOW}s]))")
  up1=$(q "sum(sum_over_time(up{job=\"$job\"}[${WINDOW}s]))")
  mdb=$(q "sum(count_over_time(mongodb_up{job=\"$job\"}[${WINDOW}s]))")
  mean=$(q "avg_over_time(scrape_duration_seconds{job=\"$job\"}[${WINDOW}s]) * 1000")
  p99=$(q "quantile_over_time(0.99, scrape_duration_seconds{job=\"$job\"}[${WINDOW}s]) * 1000")
  max=$(q "max_over_time(scrape_duration_seconds{job=\"$job\"}[${WINDOW}s]) * 1000")
  printf '%-13s scrapes %s/%s, up=1 in %s, mongodb_up samples %s/%s, scrape duration mean %.1f ms p99 %.1f ms max %.1f ms\n' \
    "$job" "$up" "$WINDOW" "$up1" "$mdb" "$WINDOW" "$mean" "$p99" "$max"
  # Every series the job returned, each checked for a sample every second.
  out=$(dashboards/test/sample-spacing.sh --prom "$PROM" --window "${WINDOW}s" "{job=\"$job\"}" 2>&1) && srcrc=0 || srcrc=$?
  series=$(grep -cE '^(ok|FAIL)' <<<"$out" || true)
  fails=$(grep -cE '^FAIL' <<<"$out" || true)
  worst=$(grep -oE 'max_gap=[0-9.]+s' <<<"$out" | sort -t= -k2 -g | tail -1)
  printf '%-13s %s series, %s with a gap or missing samples, worst %s\n' "$job" "$series" "$fails" "${worst:-n/a}"
  if [[ $job == lab-exporter ]]; then
    ((srcrc == 0 && mdb >= WINDOW - 1)) || rc=1
  else
    ((mdb == 0 && up1 >= WINDOW - 1)) || rc=1 # the silent gap: scrapes succeed, no MongoDB series
  fi
done
echo "# verdict: $([[ $rc == 0 ]] && echo "straight fails silently at 1 s; lab-exporter holds 1 s" || echo "UNEXPECTED (see above)")"
exit "$rc"
