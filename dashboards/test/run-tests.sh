#!/usr/bin/env bash
# jq, awk and sed programs are single-quoted on purpose: their $ is theirs, not the shell's.
# shellcheck disable=SC2016
# Monitoring tests (run by ./run.sh test through test/suites/50-monitoring.sh). TAP on stdout.
# Real components only: Prometheus's own parser (promql-check, promtool), a real Prometheus
# scraping a real loader at 1 s, the real mongodb_exporter behind lab-exporter against a real
# wire-protocol server (mongo-java-server), the real Compose v2. About 30 s.
# Tools come from test/install-tools.sh (test/install.d/50-monitoring.sh builds promql-check,
# mongodb_exporter and lab-exporter into .tools/bin).
set -uo pipefail

LAB_ROOT=${LAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$LAB_ROOT" || exit 1
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"

DASH=(dashboards/cluster-overview.json dashboards/engine-cache.json dashboards/disk-host.json dashboards/replication.json)
declare -A UIDS=([dashboards/cluster-overview.json]=lab-cluster-overview [dashboards/engine-cache.json]=lab-engine-cache
  [dashboards/disk-host.json]=lab-disk-host [dashboards/replication.json]=lab-replication)
CATALOG=dashboards/metrics-catalog

N=0
FAILS=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); FAILS=$((FAILS + 1)); echo "not ok $N - $1"; shift; local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done; }
check() { # check DESC CMD...: ok when CMD exits 0, else not ok with its output
  local desc=$1 out
  shift
  if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc" "$out"; fi
}

# shellcheck source=test/lib/local-servers.sh
source "$LAB_ROOT/test/lib/local-servers.sh" # scratch_begin, free_port, start_mongo_java_server
scratch_begin lab-mon-test

missing=()
for t in jq promtool prometheus node go java curl promql-check mongodb_exporter lab-exporter; do
  command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
if ((${#missing[@]})); then
  not_ok "tools present" "missing: ${missing[*]}" "$INSTALL_HINT"
  echo "1..$N"
  exit 1
fi
ok "tools present (jq promtool prometheus node go java promql-check mongodb_exporter lab-exporter)"

# subst_vars: Grafana's substitution, as promql-check does it: $__rate_interval = max(4 x 1 s
# scrape interval, $__interval) = 4 s with timeInterval 1s; engine wiredtiger; rs and member "All".
subst_vars() { sed -e 's/\$__rate_interval/4s/g' -e 's/\$engine/wiredtiger/g' -e 's/\$rs/.*/g' -e 's/\$member/.*/g'; }

# ---- dashboards: JSON, uid, volatile fields, variables, annotations ----------------------------
check "dashboards are generated from dashboards/src/generate.js and up to date" node dashboards/src/generate.js --check
check "panels whose series some engines or server lines lack say \"not collected on this server line\" and name those engines (compose/engines.tsv)" \
  node --test dashboards/test/server-lines.test.js
for f in "${DASH[@]}"; do
  if ! jq -e . "$f" >/dev/null 2>&1; then not_ok "$f is valid JSON" "$(jq . "$f" 2>&1 | tail -2)"; continue; fi
  ok "$f is valid JSON"
  check "$f has the fixed uid ${UIDS[$f]}" jq -e --arg u "${UIDS[$f]}" '.uid == $u' "$f"
  # Volatile fields Grafana writes on save: ids, versions, iteration, export inputs.
  # Checked on the dashboard, its panels (rows included) and variables; "id" inside field
  # overrides (matcher.id, properties[].id) is Grafana's option name, not a volatile field.
  vol=$(jq -r '[(., (.panels | .. | objects | select(has("gridPos"))), .templating.list[]) | keys[]
    | select(. == "id" or . == "version" or . == "iteration" or . == "gnetId" or . == "__inputs" or . == "__requires" or . == "__elements" or . == "created" or . == "updated")] | unique | join(",")' "$f")
  if [[ -z $vol ]]; then ok "$f has no volatile fields"; else not_ok "$f has no volatile fields" "found: $vol"; fi
  check "$f has variables engine, rs, member" jq -e '[.templating.list[].name] as $n | ($n | index("engine")) and ($n | index("rs")) and ($n | index("member"))' "$f"
  check "$f shows Grafana annotations tagged lab" jq -e '[.annotations.list[] | select(.target.type == "tags" and (.target.tags | index("lab")))] | length == 1' "$f"
  check "$f: every query uses the provisioned datasource lab-prometheus" \
    jq -e '[.. | objects | select(has("datasource") and (.datasource | type) == "object" and .datasource.type == "prometheus") | .datasource.uid] | all(. == "lab-prometheus")' "$f"
  # Range windows: $__rate_interval for rates; 1m (and the 1m:1s subquery) only in the
  # scrape-health panels, which count samples per minute by definition.
  check "$f: rate windows use \$__rate_interval" \
    jq -e '[.. | objects | .expr? // empty | select(test("\\[(?!\\$__rate_interval\\]|1m\\]|1m:1s\\])[^\\]]*\\]"))] | length == 0' "$f"
  check "$f has a scrape-health panel on up, scrape_duration_seconds and sample counts" \
    jq -e '[.. | objects | .expr? // empty] | (any(test("^up\\{"))) and (any(test("scrape_duration_seconds"))) and (any(test("count_over_time\\(mongodb_ss_uptime")))' "$f"
done
# Grafana's file provider reads every .json below the mounted dashboards/ folder, tests included.
check "the only JSON files below dashboards/ are the four dashboards (Grafana provisions every .json there)" \
  bash -c "[[ \$(find dashboards -name node_modules -prune -o -name '*.json' -print | sort) == \$(printf '%s\n' ${DASH[*]} | sort) ]]"
check "dashboard uids are unique" bash -c "[[ -z \$(jq -r .uid ${DASH[*]} | sort | uniq -d) ]]"
check "provisioned datasource: Prometheus uid lab-prometheus, timeInterval 1s" \
  bash -c "grep -q 'uid: lab-prometheus' dashboards/provisioning/datasources/prometheus.yaml && grep -q 'timeInterval: 1s' dashboards/provisioning/datasources/prometheus.yaml"
check "dashboard provider points at the mounted dashboards folder" grep -q 'path: /etc/grafana/lab-dashboards' dashboards/provisioning/dashboards/lab.yaml

# ---- every PromQL expression parses with Prometheus's parser ------------------------------------
if promql-check "${DASH[@]}" >"$WORK/exprs.tsv" 2>&1; then
  ok "every panel and variable expression parses (Prometheus 3 parser, $(wc -l <"$WORK/exprs.tsv") expressions)"
else
  not_ok "every panel and variable expression parses (Prometheus 3 parser)" "$(grep -v '^ok' "$WORK/exprs.tsv")"
fi
# The same expressions through the installed Prometheus 2.x's promtool, as recording rules.
{
  echo "groups:"
  echo "  - name: dashboards"
  echo "    rules:"
  i=0
  jq -r '.. | objects | .expr? // empty | @json' "${DASH[@]}" | while IFS= read -r e; do
    i=$((i + 1))
    expr=$(jq -r . <<<"$e" | subst_vars)
    printf '      - record: lab:expr_%d\n        expr: %s\n' "$i" "$(jq -Rn --arg s "$expr" '$s')"
  done
} >"$WORK/rules.yml"
check "every panel expression parses with promtool check rules ($(promtool --version 2>&1 | head -1 | awk '{print $3}'))" promtool check rules "$WORK/rules.yml"

# The logic of the trickier panels (lag with an unreachable member, the silent-exporter panel,
# oplog window, loader rate) against Prometheus's own engine: promtool test rules with the
# expressions taken from the checked-in dashboards (dashboards/test/semantics/).
mkdir -p "$WORK/semantics"
cp dashboards/test/semantics/tests.yml "$WORK/semantics/"
{
  echo "groups:"
  echo "  - name: semantics"
  echo "    rules:"
  grep -v '^#' dashboards/test/semantics/rules.tsv | while IFS=$'\t' read -r rule file title ref; do
    e=$(jq -r --arg t "$title" --arg r "$ref" '.. | objects | select(.title? == $t) | .targets[] | select(.refId == $r) | .expr' "dashboards/$file" | subst_vars)
    printf '      - record: %s\n        expr: %s\n' "$rule" "$(jq -Rn --arg s "$e" '$s')"
  done
} >"$WORK/semantics/rules.yml"
check "panel logic holds on Prometheus's engine (promtool test rules: lag skips an unreachable member, silent exporter, oplog window, loader rate, largest gap)" \
  bash -c "cd '$WORK/semantics' && promtool test rules tests.yml"
# The silent-exporter test must reject the panel's old expression, which keyed on mongodb_up: the
# exporter emits mongodb_up after every ping, so that expression never listed an exporter that
# answered without MongoDB data.
mkdir -p "$WORK/semantics-old"
cp dashboards/test/semantics/tests.yml "$WORK/semantics-old/"
old_silent='up{engine="wiredtiger", job=~"mongod|mongos"} == 1 unless on (instance) mongodb_up{engine="wiredtiger"}'
# (ENVIRON, not awk -v, which would unescape the JSON string's backslashes.)
E=$(jq -Rn --arg s "$old_silent" '$s') awk '/record: lab:silent_exporter/ { print; getline; print "        expr: " ENVIRON["E"]; next } { print }' \
  "$WORK/semantics/rules.yml" >"$WORK/semantics-old/rules.yml"
old_out=$(cd "$WORK/semantics-old" && promtool test rules tests.yml 2>&1)
if [[ $old_out == *'expr: "lab:silent_exporter"'* ]]; then
  ok "the silent-exporter test fails on the old expression (up == 1 unless on (instance) mongodb_up)"
else
  not_ok "the silent-exporter test fails on the old expression (up == 1 unless on (instance) mongodb_up)" "$(cat "$WORK/semantics-old/rules.yml")"
fi

# ---- metric names: from the loader's real /metrics or the catalogue -----------------------------
cut -f4 "$WORK/exprs.tsv" | tr ',' '\n' | sed '/^$/d' | sort -u >"$WORK/names.txt"
grep -v '^#' "$CATALOG" | tail -n +2 | cut -f1 | sort -u >"$WORK/catalog.txt"
check "metrics catalogue rows have five columns; naming-rule rows name their server lines" \
  awk -F'\t' '!/^#/ && NF != 5 { print "bad row: " $0; bad = 1 } !/^#/ && $3 ~ /^naming-rule/ && $5 == "-" { print "no server line: " $1; bad = 1 } END { exit bad }' "$CATALOG"
unused=$(comm -13 "$WORK/names.txt" "$WORK/catalog.txt")
if [[ -z $unused ]]; then ok "every catalogue entry is used by a panel"; else not_ok "every catalogue entry is used by a panel" "unused: $unused"; fi

# Exporter names: "naming-rule" rows must come out of mongodb_exporter's own naming code run over
# getDiagnosticData replies shaped like MongoDB 8.0's, for every server line the row claims
# (dashboards/test/exporter-names/<server>.extjson), with the labels the panels use; "code" rows
# must be literals in the named source file of the exporter version the image uses.
# catalog_naming_check NAMES: the naming-rule rows not produced as claimed (empty = all are).
catalog_naming_check() {
  grep -v '^#' "$CATALOG" | tail -n +2 | awk -F'\t' '$3 ~ /^naming-rule/' | while IFS=$'\t' read -r name _ _ labels servers; do
    for server in ${servers//,/ }; do
      [[ -f dashboards/test/exporter-names/$server.extjson ]] || { echo "$name: no fixture for server line $server"; continue; }
      grep -q "^$server"$'\t'"$name"$'\t' "$1" || { echo "$name: not produced for $server"; continue; }
      got=$(awk -F'\t' -v s="$server" -v n="$name" '$1 == s && $2 == n { print $3 }' "$1" | tr ',' '\n' | sort -u)
      for l in $labels; do
        # rs_nm comes from the topology labels, instance/job/engine from Prometheus.
        [[ $l == - || $l == rs_nm || $l == instance ]] && continue
        grep -qx "$l" <<<"$got" || echo "$name: no label $l for $server (has: $(paste -sd, <<<"$got"))"
      done
    done
  done
}
# catalog_job_check: a panel query that reads exporter names with job="mongos" needs them claimed
# (and so produced) for mongos-8.0, with job="mongod" for a mongod line. Other exporter names
# (per-member queries) need at least one line: the check above.
catalog_job_check() {
  local file where metrics expr job m servers
  while IFS=$'\t' read -r _ file where metrics; do
    expr=$(jq -r --arg w "$where" '.. | objects | select(.targets?) | .title as $t | .targets[] | select(($t + " [" + .refId + "]") == $w) | .expr' "$file")
    for job in mongos mongod; do
      grep -q "job=\"$job\"" <<<"$expr" || continue
      for m in ${metrics//,/ }; do
        servers=$(awk -F'\t' -v n="$m" '!/^#/ && $1 == n && $3 ~ /^naming-rule/ { print $5 }' "$CATALOG")
        [[ -z $servers ]] && continue
        grep -qE "(^|,)$job-" <<<"$servers" || echo "$file: $where reads $m with job=\"$job\", but the catalogue claims it only for $servers"
      done
    done
  done <"$WORK/exprs.tsv"
}
if bash dashboards/test/exporter-names.sh "$WORK/exporter-names.tsv" >"$WORK/exporter-names.log" 2>&1; then
  bad=$(catalog_naming_check "$WORK/exporter-names.tsv")
  if [[ -z $bad ]]; then
    ok "catalogue naming-rule names and labels come out of mongodb_exporter's naming code for every server line they claim ($(cut -f1 "$WORK/exporter-names.tsv" | sort -u | paste -sd' '))"
  else
    not_ok "catalogue naming-rule names and labels come out of mongodb_exporter's naming code for every server line they claim" "$bad"
  fi
  bad=$(catalog_job_check)
  if [[ -z $bad ]]; then ok "panels filtered by job=\"mongos\"/\"mongod\" read names claimed for that server line"; else not_ok "panels filtered by job read names claimed for that server line" "$bad"; fi
  # The check must be able to fail: a name 8.0 no longer produces (WiredTiger removed
  # "transaction checkpoint currently running", WT-11171) is reported when a row claims it.
  { cat "$CATALOG"; printf 'mongodb_ss_wt_txn_transaction_checkpoint_currently_running\tx\tnaming-rule\t-\tmongod-wiredtiger-8.0\n'; } >"$WORK/catalog-bad"
  bad=$(CATALOG=$WORK/catalog-bad catalog_naming_check "$WORK/exporter-names.tsv")
  if [[ $bad == *'checkpoint_currently_running: not produced for mongod-wiredtiger-8.0'* ]]; then
    ok "the naming check reports a name 8.0 does not produce (transaction checkpoint currently running)"
  else
    not_ok "the naming check reports a name 8.0 does not produce (transaction checkpoint currently running)"
  fi
  src=$(GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/percona/mongodb_exporter@$(sed -n 's/^EXPORTER_VERSION=\([^ ]*\).*/\1/p' test/install.d/50-monitoring.sh)" | jq -r .Dir)
  bad=$(grep -v '^#' "$CATALOG" | tail -n +2 | awk -F'\t' '$3 ~ /^code /' | while IFS=$'\t' read -r name _ evidence _ _; do
    file=$(awk '{print $2}' <<<"$evidence")
    grep -q "\"$name\"" "$src/$file" 2>/dev/null || echo "$name: not a literal in $file"
  done)
  if [[ -z $bad ]]; then ok "catalogue code names are literals in the named mongodb_exporter source files"; else not_ok "catalogue code names are literals in the named mongodb_exporter source files" "$bad"; fi
else
  not_ok "mongodb_exporter naming code runs over the 8.0-shaped fixtures (dashboards/test/exporter-names.sh)" "$(tail -20 "$WORK/exporter-names.log")" "$INSTALL_HINT"
fi

# A real node_exporter's /metrics must carry the node_* names (Debian prometheus-node-exporter),
# and, with the textfile directory each platform's compose file mounts, lab_node_view saying what
# the host panels show (compose/monitoring/node-exporter-{host,desktop-vm}.yml).
if command -v prometheus-node-exporter >/dev/null 2>&1; then
  for view in host desktop-vm; do
    np=$(free_port)
    prometheus-node-exporter --web.listen-address="127.0.0.1:$np" --collector.textfile.directory="compose/monitoring/node-view/$view" >"$WORK/node-$view.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 50); do curl -fsS "127.0.0.1:$np/metrics" >"$WORK/node-$view.metrics" 2>/dev/null && break; sleep 0.1; done
    got=$(grep '^lab_node_view{' "$WORK/node-$view.metrics")
    case $view in
      host) want='view="host"' ;;
      desktop-vm) want='host disks not visible on Docker Desktop: showing the Desktop VM' ;;
    esac
    if [[ $(wc -l <<<"$got") == 1 && $got == *"$want"* && $got == *' 1' ]]; then
      ok "$view: a real node_exporter with node-view/$view publishes lab_node_view ($want)"
    else
      not_ok "$view: a real node_exporter with node-view/$view publishes lab_node_view ($want)" "got: ${got:-nothing}" "$(tail -3 "$WORK/node-$view.log")"
    fi
  done
  miss=$(grep -P '^node_\S+\t.*\trun-here\t' "$CATALOG" | cut -f1 | while read -r n; do grep -q "^${n}[{ ]" "$WORK/node-host.metrics" || echo "$n"; done)
  if [[ -z $miss ]]; then ok "catalogue node_* names are on a real node_exporter's /metrics"; else not_ok "catalogue node_* names are on a real node_exporter's /metrics" "missing: $miss"; fi
else
  not_ok "catalogue node_* names are on a real node_exporter's /metrics" "prometheus-node-exporter not installed: $INSTALL_HINT"
fi

# sample-spacing.sh refuses to take mongodb_up as evidence that exporters returned MongoDB data.
if out=$(dashboards/test/sample-spacing.sh --prom http://127.0.0.1:9 --targets 'mongod|mongos' 'mongodb_up{engine="x"}' 2>&1); then
  not_ok "sample-spacing.sh --targets refuses mongodb_up (emitted on every scrape)" "exit 0: $out"
elif [[ $? == 2 && $out == *mongodb_ss_uptime* ]]; then
  ok "sample-spacing.sh --targets refuses mongodb_up (emitted on every scrape) and names mongodb_ss_uptime"
else
  not_ok "sample-spacing.sh --targets refuses mongodb_up (emitted on every scrape)" "$out"
fi

# ---- promtool check config on the real prometheus.yml --------------------------------------------
sed 's/@LAB_ENGINE@/wiredtiger/g' compose/monitoring/prometheus.yml >"$WORK/prometheus.yml"
check "promtool check config compose/monitoring/prometheus.yml" promtool check config "$WORK/prometheus.yml"
check "every job scrapes at 1 s with a 1 s timeout (no per-job override)" \
  bash -c "grep -q '^  scrape_interval: 1s' '$WORK/prometheus.yml' && grep -q '^  scrape_timeout: 1s' '$WORK/prometheus.yml' && ! grep -qE '^    scrape_(interval|timeout):' '$WORK/prometheus.yml'"
for job in mongod mongos mongos-optional loader cadvisor node prometheus; do
  check "prometheus.yml has job $job" grep -q "job_name: $job\$" "$WORK/prometheus.yml"
done
check "loader is scraped as loader:9464" bash -c "grep -q 'names: \[loader\]' <<<\"\$(grep -A3 'job_name: loader' '$WORK/prometheus.yml')\" && grep -q 'port: 9464' <<<\"\$(grep -A6 'job_name: loader' '$WORK/prometheus.yml')\""

# ---- Compose: renders with the real Compose, ports on 127.0.0.1, no secret in the config ---------
COMPOSE=$(compose_bin)
if [[ -z $COMPOSE ]]; then
  not_ok "Compose v2 found" "$INSTALL_HINT"
elif [[ ! -f compose/cluster.yml ]]; then
  not_ok "compose/cluster.yml exists (the monitoring file overlays it)"
else
  mkdir -p "$WORK/secrets"
  for s in keyfile root-password exporter-password grafana-admin-password; do
    echo "SECRET-$s-$RANDOM$RANDOM" >"$WORK/secrets/$s"
  done
  for engine in $(grep -v '^#' compose/engines.tsv | tail -n +2 | cut -f1); do
    env_args=(LAB_ENGINE="$engine" LAB_ENGINE_IMAGE=img LAB_MONGOD_UID=999 LAB_PROFILE=laptop LAB_DATA_MEM=1g LAB_DATA_CPUS=1
      LAB_DATA_CACHE_GB=0.5 LAB_CFG_MEM=512m LAB_CFG_CPUS=1 LAB_CFG_CACHE_GB=0.25 LAB_SECRETS_DIR="$WORK/secrets" LAB_UID=1000 LAB_GID=1000
      LAB_SHELL=mongosh LAB_DATA_CACHE_GB_WHOLE=1 LAB_MEMBER_CPUSET=0-1 LAB_LOADER_CPUSET=0-1
      LAB_OPLOG_MB=1024 LAB_PLATFORM=) # the shard members' --oplogSize and the image's platform (lib/stack.sh)
    files=(-f compose/cluster.yml -f "compose/engines/$engine.yml" -f compose/monitoring.yml)
    if env "${env_args[@]}" "$COMPOSE" --project-directory "$LAB_ROOT" -p "lab-$engine" "${files[@]}" --profile mongos2 --profile mongos3 config --format json >"$WORK/cfg-$engine.json" 2>"$WORK/cfg-$engine.err" &&
      env "${env_args[@]}" "$COMPOSE" --project-directory "$LAB_ROOT" -p "lab-$engine" "${files[@]}" config --quiet 2>>"$WORK/cfg-$engine.err"; then
      ok "$engine: cluster + engine + monitoring render with the real Compose (config --quiet)"
    else
      not_ok "$engine: cluster + engine + monitoring render with the real Compose" "$(cat "$WORK/cfg-$engine.err")"
      continue
    fi
    c=$WORK/cfg-$engine.json
    # The exporters the topology table asks for: one per row, under the row's Compose profile.
    t=$(jq -R -s 'split("\n") | map(select(length > 0 and (startswith("#") | not)) | split("\t")) | .[1:]
      | map({s: (.[0] + "-exporter"), p: (if .[5] == "-" then [] else [.[5]] end)})' compose/topology.tsv)
    check "$engine: every published port is bound to 127.0.0.1" \
      jq -e '[.services[] | .ports[]? | .host_ip] | all(. == "127.0.0.1")' "$c"
    check "$engine: monitoring publishes only Grafana 3000 and Prometheus 9090" \
      jq -e '[.services | to_entries[] | select(.key | test("exporter|prometheus|grafana|cadvisor|node-exporter")) | .value.ports[]? | .published] | sort == ["3000","9090"]' "$c"
    check "$engine: one exporter per mongod and per mongos of compose/topology.tsv (optional routers' too)" \
      jq -e --argjson t "$t" '[.services | keys[] | select(endswith("-exporter") and . != "node-exporter")] | sort == ($t | map(.s) | sort)' "$c"
    check "$engine: exporters carry their member's Compose profile (the optional routers')" \
      jq -e --argjson t "$t" '.services as $s | [$t[] | ($s[.s].profiles // []) == .p] | all' "$c"
    check "$engine: exporters wait for init (service_completed_successfully), use the global pool and direct connect" \
      jq -e --argjson t "$t" '[.services[($t[].s)] | (.depends_on.init.condition == "service_completed_successfully") and (.command | index("--mongodb.global-conn-pool")) and (.command | index("--mongodb.direct-connect"))] | all' "$c"
    check "$engine: exporters mount only the exporter password, read-only at /run/lab-secrets" \
      jq -e --argjson t "$t" '[.services[($t[].s)] | .volumes | map(select(.target | startswith("/run/lab-secrets"))) | (length == 1 and .[0].target == "/run/lab-secrets/exporter-password" and .[0].read_only == true)] | all' "$c"
    # cAdvisor before 0.56.2 sees no container under the containerd image store (0.53), fails
    # without the containerd socket (0.54-0.55) or panics on a nil GraphDriver (0.56.0-0.56.1):
    # see the comment in compose/monitoring.yml.
    check "$engine: cAdvisor is ghcr.io/google/cadvisor 0.56.2 or newer (containerd image store, google/cadvisor#3643)" \
      jq -e '.services.cadvisor.image | capture("^ghcr\\.io/google/cadvisor:(?<v>[0-9]+\\.[0-9]+\\.[0-9]+)$").v | split(".") | map(tonumber) | . >= [0, 56, 2]' "$c"
    check "$engine: Grafana reads its admin password from the file, anonymous Viewer, min refresh 1s" \
      jq -e '.services.grafana.environment | (.GF_SECURITY_ADMIN_PASSWORD__FILE == "/run/lab-secrets/grafana-admin-password") and (.GF_AUTH_ANONYMOUS_ENABLED == "true") and (.GF_AUTH_ANONYMOUS_ORG_ROLE == "Viewer") and (.GF_DASHBOARDS_MIN_REFRESH_INTERVAL == "1s")' "$c"
    # The Prometheus container's start script, as Compose renders it ($$ is Compose's escape for
    # a literal $), run here with the container paths mapped into the work folder: it must stamp
    # this engine on every job and leave a config promtool accepts.
    jq -r '.services.prometheus.command[0]' "$c" | sed -e 's/\$\$/$/g' -e "s|/etc/prometheus/lab/|$LAB_ROOT/compose/monitoring/|" \
      -e "s|> /prometheus/prometheus.yml|> $WORK/prom-$engine.yml|" -e 's|exec /bin/prometheus|exec true|' >"$WORK/prom-start-$engine.sh"
    if LAB_ENGINE=$engine sh -e "$WORK/prom-start-$engine.sh" && promtool check config "$WORK/prom-$engine.yml" >/dev/null 2>&1 &&
      ! grep -q '@LAB_ENGINE@' "$WORK/prom-$engine.yml" && grep -q "regex: 'lab-$engine'" "$WORK/prom-$engine.yml"; then
      ok "$engine: Prometheus's start script stamps engine=$engine and yields a valid config"
    else
      not_ok "$engine: Prometheus's start script stamps engine=$engine and yields a valid config" "$(cat "$WORK/prom-start-$engine.sh")"
    fi
    # (The YAML rendering captured first: under pipefail, grep -q closing the pipe early would make
    # the pipeline fail exactly when it found a secret.)
    yaml=$(env "${env_args[@]}" "$COMPOSE" --project-directory "$LAB_ROOT" -p "lab-$engine" "${files[@]}" config 2>/dev/null)
    if grep -q "SECRET-" "$c" || [[ $yaml == *SECRET-* ]]; then
      not_ok "$engine: no secret value in the rendered config"
    else
      ok "$engine: no secret value in the rendered config"
    fi
  done
fi

# ---- lab-exporter unit tests ------------------------------------------------------------------
check "images/mongodb-exporter: go vet and go test (header rewrite, 502 on a dead exporter, password env)" \
  bash -c "cd images/mongodb-exporter && GOTOOLCHAIN=local go vet ./... && GOTOOLCHAIN=local go test -count=1 ./..."
check "dashboards/test/promql-check: go test" bash -c "cd dashboards/test/promql-check && GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 ./..."
check "every panel's query means what dashboards/test/panels.tsv says it must show (metrics, functions, operators, window, quantile, label set, filters)" \
  bash -c "cd dashboards/test/promql-check && GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 -run 'TestPanelSemantics|TestEverySelectorHasTheEngine' ./..."

# ---- live: a real Prometheus at 1 s scraping the loader and the exporter --------------------------
# One wire-protocol server for both; the loader runs a tiny experiment2 against it; the exporter
# is scraped twice, straight and through lab-exporter. mongo-java-server has no getDiagnosticData,
# so the exporter's MongoDB series here are mongodb_up and friends: this measures scrape timing,
# not metric names (those come from the catalogue and the smoke test on a Docker host).
if ! start_mongo_java_server 120 >"$WORK/mjs.why"; then
  not_ok "mongo-java-server started" "$(cat "$WORK/mjs.why")"
  echo "1..$N"
  exit 1
fi

LPORT=$(free_port) JPORT=$(free_port) DPORT=$(free_port) PPORT=$(free_port) UPORT=$(free_port) PROMPORT=$(free_port)
mongodb_exporter --mongodb.uri="mongodb://127.0.0.1:$MPORT" --mongodb.global-conn-pool --mongodb.direct-connect \
  --collector.diagnosticdata --collector.replicasetstatus --web.listen-address="127.0.0.1:$DPORT" >"$WORK/direct.log" 2>&1 &
PIDS+=($!)
lab-exporter --listen="127.0.0.1:$PPORT" --exporter-listen="127.0.0.1:$UPORT" --exporter="$(command -v mongodb_exporter)" --password-file= -- \
  --mongodb.uri="mongodb://127.0.0.1:$MPORT" --mongodb.global-conn-pool --mongodb.direct-connect \
  --collector.diagnosticdata --collector.replicasetstatus >"$WORK/proxied.log" 2>&1 &
PIDS+=($!)

# The loader's job as in compose/monitoring/prometheus.yml (instance=loader, engine label), with a
# static target instead of Docker DNS; exporters likewise.
cat >"$WORK/prom-live.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
scrape_configs:
  - job_name: loader
    static_configs: [{targets: ['127.0.0.1:$LPORT']}]
    relabel_configs:
      - {target_label: instance, replacement: loader}
      - {target_label: engine, replacement: wiredtiger}
  # A second loader, of a kind that records documents and bytes (journal's bulk_import), for the
  # MB/s and documents/s panels; another instance name, as a second host's loader would have.
  - job_name: loader-journal
    static_configs: [{targets: ['127.0.0.1:$JPORT']}]
    relabel_configs:
      - {target_label: job, replacement: loader}
      - {target_label: instance, replacement: loader-journal}
      - {target_label: engine, replacement: wiredtiger}
  - job_name: exporter-direct
    static_configs: [{targets: ['127.0.0.1:$DPORT']}]
    relabel_configs: [{target_label: engine, replacement: wiredtiger}]
  - job_name: exporter-lab
    static_configs: [{targets: ['127.0.0.1:$PPORT']}]
    relabel_configs: [{target_label: engine, replacement: wiredtiger}]
EOF
prometheus --config.file="$WORK/prom-live.yml" --storage.tsdb.path="$WORK/tsdb" --web.listen-address="127.0.0.1:$PROMPORT" >"$WORK/prom.log" 2>&1 &
PIDS+=($!)
# --rate: paced, so the intended-latency gauge a panel reads is on its /metrics too.
node loader/bin/lab-loader.js experiment2 --uri "mongodb://127.0.0.1:$MPORT/" --preload-docs 500 --clients 1,2 --duration 8s --rate 200 \
  --metrics-port "$LPORT" --engine test --results-dir "$WORK/results" >"$WORK/loader.log" 2>&1 &
LOADER_PID=$!
PIDS+=("$LOADER_PID")
# Sized to outlast the window below (killed at exit with the others).
node loader/bin/lab-loader.js journal --uri "mongodb://127.0.0.1:$MPORT/" --docs 20000000 --batch 100 --commit-intervals none \
  --repeat 1 --metrics-port "$JPORT" --engine test --results-dir "$WORK/results-journal" >"$WORK/loader-journal.log" 2>&1 &
PIDS+=($!)

for _ in $(seq 100); do curl -fsS "127.0.0.1:$LPORT/metrics" >"$WORK/loader.metrics" 2>/dev/null && break; sleep 0.1; done
# Loader names: every lab_loader_* name a panel reads is on the loader's real /metrics (histogram
# panels read NAME_bucket, listed as such by prom-client).
sleep 4
curl -fsS "127.0.0.1:$LPORT/metrics" >"$WORK/loader.metrics" 2>/dev/null
curl -fsS "127.0.0.1:$JPORT/metrics" >>"$WORK/loader.metrics" 2>/dev/null
# A name is on /metrics when a sample carries it, or when prom-client declares it (# TYPE): a
# gauge with labels (lab_loader_intended_latency_seconds, paced steps only) has no sample until
# the first step's first second, which 4 s may not reach on a busy host; nor has a histogram with
# labels (lab_loader_op_duration_seconds) before its first operation, whose declared series are
# NAME_bucket, NAME_sum and NAME_count (the exposition format's; a summary's NAME_sum, NAME_count).
{
  grep -v '^#' "$WORK/loader.metrics" | sed -E 's/[{ ].*//'
  awk '/^# TYPE/ { print $3 } /^# TYPE .* histogram$/ { print $3 "_bucket" }
    /^# TYPE .* (histogram|summary)$/ { print $3 "_sum"; print $3 "_count" }' "$WORK/loader.metrics"
} | sort -u >"$WORK/loader-names.txt"
unknown=$(comm -23 "$WORK/names.txt" <(sort -u "$WORK/catalog.txt" "$WORK/loader-names.txt"))
if [[ -s $WORK/loader-names.txt && -z $unknown ]]; then
  ok "every metric a panel names is on the loader's real /metrics or in the catalogue"
else
  not_ok "every metric a panel names is on the loader's real /metrics or in the catalogue" "unknown: ${unknown:-<loader /metrics empty>}" "$(tail -5 "$WORK/loader.log" "$WORK/loader-journal.log")"
fi

# Let Prometheus collect ~12 s of 1 s samples while the loader runs its two client steps.
sleep 9
query() { curl -fsS --max-time 5 "127.0.0.1:$PROMPORT/api/v1/query" --data-urlencode "query=$1"; }

# Loader panels: every expression that reads only lab_loader_* metrics returns data.
# Loader panels: expressions all of whose metrics are lab_loader_* (promql-check's 4th column).
awk -F'\t' '{ n = split($4, m, ","); all = n > 0; for (i = 1; i <= n; i++) if (m[i] !~ /^lab_loader_/) all = 0; if (all) print $3 }' \
  "$WORK/exprs.tsv" | sort -u >"$WORK/loader-panels.txt"
nloader=0
while IFS=$'\t' read -r where expr; do
  grep -qxF "$where" "$WORK/loader-panels.txt" || continue
  nloader=$((nloader + 1))
  # $__rate_interval = 4 s (4 x 1 s scrape, timeInterval 1s); the loader's results label is "test",
  # the Prometheus engine label is wiredtiger.
  q=$(subst_vars <<<"$expr")
  n=$(query "$q" | jq '.data.result | length')
  if [[ ${n:-0} -gt 0 ]]; then ok "loader panel returns data: $where ($n series)"; else not_ok "loader panel returns data: $where" "query: $q"; fi
done < <(jq -r '.. | objects | select(.targets?) | .title as $t | .targets[] | [$t + " [" + .refId + "]", .expr] | @tsv' "${DASH[@]}")
((nloader > 0)) || not_ok "the dashboards have loader panels"

# 1 s spacing of the loader's series, measured the way the smoke test measures the cluster's.
# --min-ratio 0.85: an 8 s window can hold 7 samples when a scrape lands on its edge; a missed
# scrape still fails on the gap (>= 1.9 s).
if out=$(dashboards/test/sample-spacing.sh --prom "http://127.0.0.1:$PROMPORT" --window 8s --min-ratio 0.85 'lab_loader_active_clients' 2>&1); then
  ok "loader series: one sample per second over 8 s (sample-spacing.sh)"
else
  not_ok "loader series: one sample per second over 8 s (sample-spacing.sh)" "$out"
fi

# The exporter at 1 s: straight, the deadline is 1 s - 1 s = 0 s and no MongoDB series come back
# although the scrape "succeeds"; through lab-exporter, every scrape carries mongodb_up.
# mongodb_up is the right witness for the deadline alone: with the deadline already passed,
# baseCollector.Describe returns before collecting anything, mongodb_up included
# (exporter/base_collector.go, v0.43.1). It is no witness of MongoDB data (it is emitted after any
# ping, 0 or 1); that is mongodb_ss_uptime on a Docker host, which mongo-java-server here cannot
# give (it has no getDiagnosticData).
direct_up=$(query 'sum(count_over_time(up{job="exporter-direct"}[8s]))' | jq -r '.data.result[0].value[1] // "0"')
direct_mdb=$(query 'sum(count_over_time(mongodb_up{job="exporter-direct"}[8s]))' | jq -r '.data.result[0].value[1] // "0"')
if ((direct_up >= 7 && direct_mdb == 0)); then
  ok "straight mongodb_exporter at 1 s: $direct_up/8 scrapes up=1, $direct_mdb with MongoDB series (the silent gap, reproduced)"
else
  not_ok "straight mongodb_exporter at 1 s reproduces the silent gap" "up samples $direct_up, mongodb_up samples $direct_mdb" "$(tail -3 "$WORK/direct.log")"
fi
# A scrape the host made too slow for Prometheus's own 1 s timeout (up 0, its duration at the
# timeout) leaves a gap that is no deadline's: a premise not met, said with its figures (seen
# on a host whose CPUs were 100 % busy, 2026-12-02); any other gap fails.
timed_out=$(query 'count_over_time((up{job="exporter-lab"} == 0)[8s:1s]) and on() max_over_time(scrape_duration_seconds{job="exporter-lab"}[8s]) >= 0.95' |
  jq -r '.data.result[0].value[1] // "0"')
if out=$(dashboards/test/sample-spacing.sh --prom "http://127.0.0.1:$PROMPORT" --window 8s --min-ratio 0.85 'mongodb_up{job="exporter-lab"}' 2>&1); then
  ok "mongodb_exporter behind lab-exporter at 1 s: mongodb_up every second over 8 s"
elif ((${timed_out:-0} > 0)); then
  ok "mongodb_exporter behind lab-exporter at 1 s: mongodb_up every second over 8 s # skip premise: the host made a scrape run past Prometheus's 1 s timeout ($(grep -m1 -o 'max_gap=[0-9.]*s' <<<"$out"); $(grep -m1 'exporter-lab' <<<"$out" | tr -s '\t' ' '))"
else
  not_ok "mongodb_exporter behind lab-exporter at 1 s: mongodb_up every second over 8 s" "$out" "$(tail -3 "$WORK/proxied.log")"
fi
# smoke_monitoring's panel check (lib/monitoring.sh), pointed at this Prometheus: the loader's
# panels have data, the exporter panels (no mongod here) are reported as missing, the inMemory
# panels are skipped for wiredtiger. The real run is ./run.sh smoke on a Docker host.
smoke_out=$(
  # shellcheck source=lib/tables.sh
  source lib/tables.sh
  # shellcheck source=lib/monitoring.sh
  source lib/monitoring.sh
  MONITORING_PROMETHEUS_PORT=$PROMPORT
  monitoring_panels_have_data wiredtiger 2>&1
  echo "rc=$?"
)
if grep -q '^rc=1$' <<<"$smoke_out" && grep -q 'no data: engine-cache.json: WT bytes in cache' <<<"$smoke_out" &&
  grep -q 'skip (not collected for wiredtiger): engine-cache.json: inMemory bytes in cache' <<<"$smoke_out" && ! grep -q 'no data: cluster-overview.json: Loader' <<<"$smoke_out" &&
  grep -q 'panel queries checked against Prometheus' <<<"$smoke_out"; then
  ok "smoke_monitoring's panel check: loader panels pass, exporter panels without a mongod are reported, inMemory skipped on wiredtiger"
else
  not_ok "smoke_monitoring's panel check behaves" "$smoke_out"
fi
# On an old server line the panels the dashboards mark "not collected on this server line" for it
# (flow control before 4.2, WiredTiger series on MMAPv1) are skipped, and the rest still checked.
old_line_out=$(
  # shellcheck source=lib/tables.sh
  source lib/tables.sh
  # shellcheck source=lib/monitoring.sh
  source lib/monitoring.sh
  MONITORING_PROMETHEUS_PORT=$PROMPORT
  monitoring_panels_have_data mmapv1 2>&1
)
if grep -q 'skip (not collected for mmapv1): replication.json: Flow control: lagged and target rate' <<<"$old_line_out" &&
  grep -q 'skip (not collected for mmapv1): engine-cache.json: WT bytes in cache' <<<"$old_line_out" &&
  grep -q 'no data: cluster-overview.json: Opcounters per member' <<<"$old_line_out" &&
  ! grep -q 'skip (not collected for mmapv1): cluster-overview.json' <<<"$old_line_out"; then
  ok "smoke_monitoring's panel check skips exactly the panels marked not collected for an old server line (mmapv1)"
else
  not_ok "smoke_monitoring's panel check skips exactly the panels marked not collected for an old server line (mmapv1)" "$old_line_out"
fi
# A panel check that examined nothing is a failure, not "0 panel queries checked" and a pass:
# the same function with no dashboards to read (an empty LAB_ROOT).
mkdir -p "$WORK/empty-root/dashboards"
empty_out=$(
  # shellcheck source=lib/tables.sh
  source lib/tables.sh
  # shellcheck source=lib/monitoring.sh
  source lib/monitoring.sh
  MONITORING_PROMETHEUS_PORT=$PROMPORT LAB_ROOT=$WORK/empty-root
  monitoring_panels_have_data wiredtiger 2>&1
  echo "rc=$?"
)
if grep -q '^rc=1$' <<<"$empty_out" && grep -q ' 0 panel queries checked' <<<"$empty_out"; then
  ok "smoke_monitoring's panel check fails when it checked 0 panel queries"
else
  not_ok "smoke_monitoring's panel check fails when it checked 0 panel queries" "$empty_out"
fi
wait "$LOADER_PID" 2>/dev/null
echo "1..$N"
((FAILS == 0))
