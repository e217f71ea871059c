#!/usr/bin/env bash
# Offline validation of every manifest ./run.sh k8s generates, by real components of the pinned
# versions (k8s/versions.env), TAP on stdout. No cluster, no network.
#  1. kubeconform -strict against JSON schemas made from Kubernetes' own swagger.json and the
#     operator's CRDs (test/install.d/70-k8s.sh makes them).
#  2. psmdb-check: the operator's Go code (CheckNSetDefaults + StatefulSpec) on every CR: accepted,
#     and the mongod arguments it would start carry the lab's engine, cache sizes, no encryption.
#  3. kube-apiserver + etcd (Debian's etcd-server, 3.4): the operator's CRDs installed, every
#     manifest applied with --dry-run=server (strict field validation, built-in validation such as
#     Indexed Jobs).
#  4. the pods' sizes and anti-affinity on the operator's own StatefulSets (every pod within its
#     profile's CPUs, dedicated members apart from every lab member of any engine).
#  5. the dashboards' selectors on Kubernetes targets as on Compose (k8s/relabel-check, Prometheus's
#     own relabelling and PromQL parser: the generated config applied to pods labelled as the
#     operator labels them, Compose's to its targets, every selector with a literal target-label
#     matcher run on both: same roles, config servers included).
#  6. `down` then `up` on the real kube-apiserver (the CR stored, pause true, then false again,
#     owned by lab-pause alone, also after an older lab's `kubectl patch`).
# Each check is also shown a manifest it must reject, so a check that examines nothing fails.
# What is rendered: every engine of compose/engines.tsv the operator runs, plus a WiredTiger and an
# inMemory row of this test's own (so both engine paths are checked whatever the table holds),
# every profile, --mongos 1 and 3, both placements, and the loaders' Job.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOOLS=$REPO/.tools
K8S_TOOLS=$TOOLS/k8s
HINT="run 'bash test/install-tools.sh' (test/install.d/70-k8s.sh builds kubeconform, psmdb-check, kube-apiserver, kubectl)"
# shellcheck source=k8s/versions.env
source "$REPO/k8s/versions.env"

# shellcheck source=k8s/test/lib/apiserver.sh
source "$REPO/k8s/test/lib/apiserver.sh" # ok, not_ok, check, finish, start_apiserver

for t in "$TOOLS/bin/kubeconform" "$TOOLS/bin/psmdb-check" "$TOOLS/bin/kube-apiserver" "$TOOLS/bin/kubectl" etcd jq openssl; do
  command -v "$t" >/dev/null 2>&1 || { not_ok "missing tool $t: $HINT"; finish; }
done
[[ -d $K8S_TOOLS/schemas/crd && -f $K8S_TOOLS/psmdb-crd.yaml ]] || { not_ok "schemas missing: $HINT"; finish; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lab-k8s-validate.XXXXXX")
PIDS=()
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  stop_pids
  rm -rf "$WORK"
}
trap cleanup EXIT

# ---- render ------------------------------------------------------------------------------------
# A copy of the repository's run.sh and tables, with the test's own engine rows appended.
LAB=$WORK/lab
mkdir -p "$LAB" "$WORK/manifests"
cp -R "$REPO/run.sh" "$REPO/lib" "$REPO/compose" "$REPO/k8s" "$REPO/dashboards" "$REPO/experiments" "$LAB/"
# shellcheck source=test/lib/engines.sh
source "$REPO/test/lib/engines.sh" # engine_row_like: the rows by the header's column names
rows=$(engine_row_like "$LAB/compose/engines.tsv" percona-wt k8s-check-wt
  engine_row_like "$LAB/compose/engines.tsv" inmemory k8s-check-mem)
printf '%s\n' "$rows" >>"$LAB/compose/engines.tsv"
# an engine is a row plus its storage declaration (compose/engines/<engine>.yml; k8s_storage reads it)
cp "$LAB/compose/engines/percona-wt.yml" "$LAB/compose/engines/k8s-check-wt.yml"
cp "$LAB/compose/engines/inmemory.yml" "$LAB/compose/engines/k8s-check-mem.yml"

LAB_ROOT=$LAB
# shellcheck source=lib/common.sh
source "$LAB/lib/common.sh"
# shellcheck source=lib/tables.sh
source "$LAB/lib/tables.sh"
# shellcheck source=lib/k8s.sh
source "$LAB/lib/k8s.sh"
k8s_load

engines=()
while IFS= read -r e; do
  [[ -z $(k8s_engine_refusal "$e") ]] && engines+=("$e")
done < <(engine_names)
rendered=0
for e in "${engines[@]}"; do
  while IFS= read -r p; do
    for m in 1 3; do
      for placement in dedicated shared; do
        f=$WORK/manifests/cluster_${e}_${p}_${m}_${placement}.yaml
        if "$LAB/run.sh" k8s manifests --engine "$e" --profile "$p" --mongos "$m" --placement "$placement" --registry reg.example/lab >"$f" 2>"$WORK/err"; then
          rendered=$((rendered + 1))
        else
          not_ok "render $e $p mongos=$m $placement" "$(cat "$WORK/err")"
        fi
      done
    done
  done < <(profile_names)
done
# The loaders' Job, as ./run.sh NAME --on k8s --loaders 3 applies it.
(
  K8S_CLUSTER=lab
  k8s_loaders_manifest lab-k8s-check-wt lab-experiment2-check experiment2 3 reg.example/lab/lab-loader:test \
    "$(k8s_target_uri primary lab-k8s-check-wt)" dedicated experiment2 --engine k8s-check-wt --group g --clients 1,2
) >"$WORK/manifests/loaders.yaml"
check "$((rendered > 0 ? 0 : 1))" "rendered $rendered cluster manifests (engines: ${engines[*]}) and the loaders' Job" "nothing rendered"
MANIFESTS=("$WORK"/manifests/*.yaml)

# Manifests the checks must reject.
mkdir -p "$WORK/bad"
sed -E '0,/^( +)engine: /s//\1engin: /' "$WORK/manifests/cluster_k8s-check-wt_laptop_1_dedicated.yaml" >"$WORK/bad/unknown-field.yaml"
sed 's/^  completions: 3$/  completions: "three"/' "$WORK/manifests/loaders.yaml" >"$WORK/bad/wrong-type.yaml"
sed '/^  completions: 3$/d' "$WORK/manifests/loaders.yaml" >"$WORK/bad/indexed-no-completions.yaml"

# ---- 1. kubeconform ----------------------------------------------------------------------------
kubeconform() {
  "$TOOLS/bin/kubeconform" -strict -summary -output json -kubernetes-version "${KUBERNETES_VERSION#v}" \
    -schema-location "$K8S_TOOLS/schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    -schema-location "$K8S_TOOLS/schemas/crd/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json" "$@"
}
out=$(kubeconform "${MANIFESTS[@]}" 2>&1)
valid=$(jq -r '.summary.valid // 0' <<<"$out" 2>/dev/null || echo 0)
total=$(jq -r '.summary | (.valid + .invalid + .errors + .skipped)' <<<"$out" 2>/dev/null || echo -1)
if [[ $valid -gt 0 && $valid == "$total" ]]; then
  ok "kubeconform -strict (Kubernetes $KUBERNETES_VERSION schemas, operator $PSMDB_OPERATOR_VERSION CRD): $valid resources valid, none skipped"
else
  not_ok "kubeconform: $valid of $total resources valid" "$out"
fi
out=$(kubeconform "$WORK/bad/unknown-field.yaml" "$WORK/bad/wrong-type.yaml" 2>&1)
if [[ $(jq -r '.summary.invalid' <<<"$out" 2>/dev/null) == 2 ]]; then
  ok "kubeconform rejects an unknown CR field (engin) and a wrong type (completions: \"three\")"
else
  not_ok "kubeconform did not reject both bad manifests" "$out"
fi

# ---- 2. the operator's own code ----------------------------------------------------------------
out=$("$TOOLS/bin/psmdb-check" "$WORK"/manifests/cluster_*.yaml 2>"$WORK/err")
rc=$?
count=$(grep -c '"accepted":true' <<<"$out")
if ((rc == 0 && count == rendered)); then
  ok "operator $PSMDB_OPERATOR_VERSION CheckNSetDefaults accepts all $count PerconaServerMongoDB"
else
  not_ok "operator rejected some CRs ($count of $rendered accepted)" "$(jq -r 'select(.accepted|not) | "\(.file): \(.error)"' <<<"$out")$(cat "$WORK/err")"
fi
# What the operator would start, per CR: the lab's engine and cache sizes, no encryption at rest,
# no TLS, the exporter beside mongod, Guaranteed resources (requests = limits in every container).
problems=""
while IFS= read -r line; do
  file=$(jq -r .file <<<"$line")
  IFS=_ read -r _ e p _ _ <<<"$(basename "$file" .yaml)"
  word=$(engine_field "$e" server_engine)
  data_cache=$(awk -v c="$(profile_field "$p" data_cache_gb)" 'BEGIN { printf "%.2f", c }')
  cfg_cache=$(awk -v c="$(profile_field "$p" cfg_cache_gb)" 'BEGIN { printf "%.2f", (c < 0.25 ? 0.25 : c) }')
  cache_flag=$([[ $word == inMemory ]] && echo inMemorySizeGB || echo wiredTigerCacheSizeGB)
  problems+=$(jq -r --arg word "$word" --arg flag "--$cache_flag=$data_cache" --arg cfgflag "--wiredTigerCacheSizeGB=$cfg_cache" --arg f "$(basename "$file")" '
    .replsets[] as $rs | ($rs.containers[] | select(.name == "mongod") | .args) as $a |
    [ (if $rs.name == "rs0" then
         (if ($a | index("--storageEngine=" + $word)) then empty else "rs0 engine is not " + $word end),
         (if ($a | index($flag)) then empty else "rs0 lacks " + $flag end)
       else
         (if ($a | index("--storageEngine=wiredTiger")) then empty else "cfg is not wiredTiger" end),
         (if ($a | index($cfgflag)) then empty else "cfg lacks " + $cfgflag end)
       end),
      (if ($a | any(startswith("--enableEncryption"))) then $rs.name + " has encryption at rest" else empty end),
      (if ($a | index("--tlsMode=disabled")) then empty else $rs.name + " TLS not disabled" end),
      (if ([$rs.containers[].name] | index("lab-exporter")) then empty else $rs.name + " has no lab-exporter" end),
      (($rs.containers + $rs.init_containers)[] | select(.resources.requests != .resources.limits or .resources.limits == null) | $rs.name + "/" + .name + " requests != limits (not Guaranteed)")
    ] | .[] | $f + ": " + .' <<<"$line")
  problems+=$'\n'
done < <(grep '"accepted":true' <<<"$out")
problems=$(sed '/^$/d' <<<"$problems")
if [[ -z $problems && $count -gt 0 ]]; then
  ok "the operator's StatefulSets for $count CRs: engine, profile cache sizes, no encryption, TLS off, exporter, Guaranteed"
else
  not_ok "the operator would start something else than the lab asks" "$problems"
fi
# Sizing and isolation, on the operator's own StatefulSets: each member's pod asks for its
# profile's CPUs in all (mongod + exporter sidecar; init containers count as Kubernetes counts
# them, the larger of their largest and the containers' sum), so it fits a node of that many CPUs;
# with dedicated placement no member shares a node with any lab member of any engine (required
# anti-affinity on the host name across namespaces labelled lab.engine).
sizing=""
sized=0
while IFS= read -r line; do
  file=$(jq -r .file <<<"$line")
  IFS=_ read -r _ e p _ placement <<<"$(basename "$file" .yaml)"
  sizing+=$(jq -r --arg data "$(profile_field "$p" data_cpus)" --arg cfg "$(profile_field "$p" cfg_cpus)" \
    --arg placement "$placement" --arg f "$(basename "$file")" '
    def cpu: if . == null then 0 elif endswith("m") then (.[:-1] | tonumber) else (tonumber * 1000) end;
    .replsets[] as $rs |
    ([$rs.containers[].resources.requests.cpu | cpu] | add) as $sum |
    ([$rs.init_containers[].resources.requests.cpu | cpu] | max // 0) as $init |
    ((if $rs.name == "cfg" then $cfg else $data end | tonumber) * 1000) as $node |
    [ (if ([$sum, $init] | max) <= $node then empty else "\($rs.name) pod asks \([$sum, $init] | max)m CPU, the profile names \($node)m" end),
      (if $placement != "dedicated" then empty
       elif ($rs.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution // [] |
             any(.topologyKey == "kubernetes.io/hostname" and .labelSelector.matchLabels["app.kubernetes.io/name"] == "percona-server-mongodb"
                 and (.namespaceSelector.matchExpressions // [] | any(.key == "lab.engine" and .operator == "Exists"))))
       then empty else "\($rs.name): no anti-affinity across the lab namespaces" end)
    ] | .[] | $f + ": " + .' <<<"$line")
  sizing+=$'\n'
  sized=$((sized + 1))
done < <(grep '"accepted":true' <<<"$out")
sizing=$(sed '/^$/d' <<<"$sizing")
check "$([[ -z $sizing && $sized -gt 0 ]] && echo 0 || echo 1)" "sizing and isolation in the operator's StatefulSets of $sized CRs: each pod within its profile's CPUs (exporter included), dedicated members apart from every lab member of any engine" \
  "pods larger than their profile's node, or members that may share a node" "$sizing"
# What the operator must reject, each from a lab CR with one change.
base=$WORK/manifests/cluster_k8s-check-mem_laptop_1_dedicated.yaml
mk_bad() { sed "$2" "$base" >"$WORK/bad/op-$1.yaml"; }
mk_bad mmapv1 '0,/engine: inMemory/s//engine: mmapv1/'
mk_bad cfg-inmemory '/configsvrReplSet:/,/engine: wiredTiger/s/engine: wiredTiger/engine: inMemory/'
mk_bad tls-unsafe '/^  unsafeFlags:/,/^    tls: true/s/tls: true/tls: false/'
mk_bad inmemory-encryption '0,/enableEncryption: false/s//enableEncryption: true/'
mk_bad even-size '0,/^      size: 3$/s//      size: 2/'
expect=(mmapv1:"mmapv1 storage engine is not supported" cfg-inmemory:"not supported for config server replica set"
  tls-unsafe:"TLS must be enabled" inmemory-encryption:"inMemory storage engine doesn't support encryption"
  even-size:"replset size must be odd")
bad_ok=0
msgs=""
for x in "${expect[@]}"; do
  res=$("$TOOLS/bin/psmdb-check" "$WORK/bad/op-${x%%:*}.yaml" 2>/dev/null)
  if [[ $(jq -r .accepted <<<"$res") == false && $(jq -r .error <<<"$res") == *"${x#*:}"* ]]; then
    bad_ok=$((bad_ok + 1))
  else
    msgs+="${x%%:*}: $res"$'\n'
  fi
done
check "$((bad_ok == ${#expect[@]} ? 0 : 1))" "the operator's code rejects mmapv1, inMemory config servers, TLS off without the unsafe flag, inMemory + encryption, an even replica set" \
  "the operator's code accepted a CR it should reject" "$msgs"

# ---- 3. the dashboards' selectors on the Kubernetes targets, as on Compose ---------------------
# relabel-check (Prometheus's own relabel and PromQL parser code) turns discovered targets into
# series labels with each Prometheus config, then runs every dashboard selector that names a
# target label literally (job="mongod", job=~"mongod|mongos") against them. Compose: the static
# and DNS targets of compose/monitoring/prometheus.yml, one per member of compose/topology.tsv.
# Kubernetes: pods labelled as operator v1.23.0 labels them (pkg/naming/labels.go MongodLabels /
# MongosLabels: app.kubernetes.io/name percona-server-mongodb, instance <cluster>, replset,
# component mongod | mongos; pkg/controller/perconaservermongodb/statefulset.go sets component to
# api.ConfigReplSetName, "cfg", for the config servers), as Kubernetes pod discovery presents
# them (__meta_kubernetes_pod_label_*, container port name, phase), and a loader pod of the Job.
# Every selector must pick the same roles on both; a selector that picks nothing on Compose fails.
compose_targets() {
  topology_services | while read -r svc; do
    role=$(topology_field "$svc" role)
    job=mongod
    if [[ $role == router ]]; then
      job=$([[ $(topology_field "$svc" compose_profile) == - ]] && echo mongos || echo mongos-optional)
    fi
    jq -nc --arg role "$role" --arg job "$job" --arg svc "$svc" \
      '{role: $role, job_name: $job, labels: {__address__: "\($svc)-exporter:9216", __meta_dns_name: "\($svc)-exporter"}}'
  done
  jq -nc '{role: "loader", job_name: "loader", labels: {__address__: "loader:9464", __meta_dns_name: "loader"}}'
}
k8s_targets() {
  local i n comp rs role
  for role in config shard router; do
    case $role in
      config) comp=cfg rs=cfg n=$(topology_services config | wc -l) ;;
      shard) comp=mongod rs=rs0 n=$(topology_services shard | wc -l) ;;
      router) comp=mongos rs="" n=$(topology_services router | wc -l) ;;
    esac
    for ((i = 0; i < n; i++)); do
      jq -nc --arg role "$role" --arg comp "$comp" --arg rs "$rs" --arg pod "lab-${rs:-mongos}-$i" '
        {role: $role, job_name: "lab", labels: ({
          __address__: "10.0.0.\($pod | length):9216", __meta_kubernetes_pod_name: $pod, __meta_kubernetes_pod_phase: "Running",
          __meta_kubernetes_pod_node_name: "node-\($pod)", __meta_kubernetes_pod_container_port_name: "lab-metrics",
          __meta_kubernetes_pod_label_app_kubernetes_io_name: "percona-server-mongodb",
          __meta_kubernetes_pod_label_app_kubernetes_io_instance: "lab",
          __meta_kubernetes_pod_label_app_kubernetes_io_managed_by: "percona-server-mongodb-operator",
          __meta_kubernetes_pod_label_app_kubernetes_io_part_of: "percona-server-mongodb",
          __meta_kubernetes_pod_label_app_kubernetes_io_component: $comp}
          + (if $rs == "" then {} else {__meta_kubernetes_pod_label_app_kubernetes_io_replset: $rs} end))}'
      # the same pod's mongod port, which Prometheus must not scrape
      jq -nc --arg role "$role-mongod-port" --arg comp "$comp" --arg pod "lab-${rs:-mongos}-$i" '
        {role: $role, job_name: "lab", labels: {__address__: "10.0.0.1:27017", __meta_kubernetes_pod_name: $pod,
          __meta_kubernetes_pod_phase: "Running", __meta_kubernetes_pod_container_port_name: "mongodb",
          __meta_kubernetes_pod_label_app_kubernetes_io_component: $comp}}'
    done
  done
  jq -nc '{role: "loader", job_name: "lab", labels: {__address__: "10.0.1.1:9464", __meta_kubernetes_pod_name: "lab-e-0-x",
    __meta_kubernetes_pod_phase: "Running", __meta_kubernetes_pod_container_port_name: "lab-loader",
    __meta_kubernetes_pod_label_batch_kubernetes_io_job_name: "lab-e", __meta_kubernetes_pod_label_app_kubernetes_io_name: "lab-loader"}}'
}
# selector_roles CONFIG TARGETS: "where<TAB>selector<TAB>roles" per selector, sorted.
selector_roles() {
  "$TOOLS/bin/relabel-check" "$1" "$2" "$LAB"/dashboards/*.json | jq -r '.selectors[] | [.where, .selector, (.roles | join(","))] | @tsv' | sort
}
if [[ -x $TOOLS/bin/relabel-check ]]; then
  compose_targets | jq -s . >"$WORK/compose-targets.json"
  k8s_targets | jq -s . >"$WORK/k8s-targets.json"
  sed 's/@LAB_ENGINE@/k8s-check-wt/' "$LAB/compose/monitoring/prometheus.yml" >"$WORK/compose-prometheus.yml"
  k8s_prometheus_config k8s-check-wt lab-k8s-check-wt >"$WORK/k8s-prometheus.yml"
  compose_sel=$(selector_roles "$WORK/compose-prometheus.yml" "$WORK/compose-targets.json")
  k8s_sel=$(selector_roles "$WORK/k8s-prometheus.yml" "$WORK/k8s-targets.json")
  kept=$("$TOOLS/bin/relabel-check" "$WORK/k8s-prometheus.yml" "$WORK/k8s-targets.json" "$LAB"/dashboards/*.json |
    jq -r '[.targets[] | select(.labels != null) | .role] | unique | join(",")')
  nsel=$(grep -c . <<<"$compose_sel")
  empty=$(awk -F'\t' '$3 == ""' <<<"$compose_sel")
  if [[ -n $compose_sel && $compose_sel == "$k8s_sel" && -z $empty && $kept == "config,loader,router,shard" ]]; then
    ok "the dashboards' $nsel selectors on target labels pick the same members on Kubernetes as on Compose (config servers included; mongod ports dropped)"
  else
    not_ok "the dashboards' selectors pick other members on Kubernetes than on Compose" \
      "$(diff <(echo "$compose_sel") <(echo "$k8s_sel") | sed 's/^</compose:/; s/^>/k8s:    /')"$'\n'"kept on k8s: $kept"$'\n'"selecting nothing on Compose: $empty"
  fi
else
  not_ok "missing tool $TOOLS/bin/relabel-check: $HINT"
fi

# ---- 4. a real kube-apiserver ------------------------------------------------------------------
start=$SECONDS
A=$WORK/apiserver
start_apiserver "$A" lab-test
k() { KUBECONFIG=$A/kubeconfig "$TOOLS/bin/kubectl" --request-timeout=30s "$@"; }
ready=0
for _ in $(seq 1 120); do
  if k get --raw /readyz --request-timeout=2s >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.5
done
if ((ready)); then
  ok "kube-apiserver $KUBERNETES_VERSION + etcd $(etcd --version | awk '/etcd Version/ { print $3 }') ready in $((SECONDS - start)) s"
else
  not_ok "kube-apiserver did not become ready" "$(tail -20 "$A/apiserver.log")"
  finish
fi
crd_established() {
  local _
  for _ in $(seq 1 60); do
    [[ $(k get crd perconaservermongodbs.psmdb.percona.com -o 'jsonpath={.status.conditions[?(@.type=="Established")].status}' 2>/dev/null) == True ]] && return 0
    sleep 0.5
  done
  return 1
}
if k apply --server-side -f "$K8S_TOOLS/psmdb-crd.yaml" >"$WORK/crd.out" 2>&1 && crd_established; then
  ok "the operator's CRDs ($PSMDB_OPERATOR_VERSION deploy/crd.yaml) installed"
else
  not_ok "CRDs not installed" "$(cat "$WORK/crd.out")"
fi
# Namespaces are made for real (server dry-run of a namespaced object needs its namespace).
grep -h -A3 '^kind: Namespace' "${MANIFESTS[@]}" | awk '$1 == "name:" { print $2 }' | sort -u | while read -r ns; do k create namespace "$ns" >/dev/null; done
k create namespace lab-k8s-check-wt >/dev/null 2>&1
# One kubectl for all files (each object is dry-run on its own; nothing is stored).
objects=0
dry_fail=""
if res=$(k apply --server-side --dry-run=server --field-manager=lab-test -f "$WORK/manifests" 2>&1); then
  objects=$(grep -c 'serverside-applied (server dry run)' <<<"$res")
else
  dry_fail=$(grep -v 'serverside-applied (server dry run)' <<<"$res")
fi
if [[ -z $dry_fail && $objects -gt 0 ]]; then
  ok "kube-apiserver server-side dry-run accepts every manifest ($objects objects in ${#MANIFESTS[@]} files)"
else
  not_ok "kube-apiserver rejected manifests" "$dry_fail"
fi
bad_ok=0
res=$(k apply --server-side --dry-run=server -f "$WORK/bad/unknown-field.yaml" 2>&1) || [[ $res != *'.spec.replsets[0].storage.engin: field not declared in schema'* ]] || bad_ok=$((bad_ok + 1))
res2=$(k apply --server-side --dry-run=server -f "$WORK/bad/indexed-no-completions.yaml" 2>&1) || [[ $res2 != *"spec.completions: Required value: when completion mode is Indexed"* ]] || bad_ok=$((bad_ok + 1))
check "$((bad_ok == 2 ? 0 : 1))" "kube-apiserver rejects an unknown CR field and an Indexed Job without completions" \
  "kube-apiserver accepted a bad manifest" "$res"$'\n'"$res2"

# ---- 5. down then up on the real kube-apiserver: spec.pause has one field manager ---------------
# The CR stored for real (no operator runs here), then what `k8s down` and `k8s up` apply, through
# lib/k8s.sh's own functions with this apiserver's kubectl: up after down must read pause false.
pause_run() {
  (
    export KUBECONFIG=$A/kubeconfig PATH=$TOOLS/bin:$PATH
    ENGINE=k8s-check-wt PROFILE=laptop MONGOS_COUNT=1 MONITORING=0 DRY_RUN=0 K8S_CONTEXT=""
    K8S_NAMESPACE=lab-pause-check K8S_PLACEMENT=dedicated K8S_REGISTRY=reg.example/lab
    "$@"
  ) >>"$WORK/pause.out" 2>&1
}
pause_of() { k -n lab-pause-check get psmdb lab -o jsonpath='{.spec.pause}' 2>>"$WORK/pause.out"; }
pause_owners() {
  k -n lab-pause-check get psmdb lab -o json --show-managed-fields | jq -c '[.metadata.managedFields[] | select(.fieldsV1["f:spec"]["f:pause"] != null) | .manager]'
}
k create namespace lab-pause-check >/dev/null 2>&1
pause_steps=""
pause_run k8s_apply_cluster && pause_steps+="up:$(pause_of) "
pause_run k8s_set_pause true && pause_steps+="down:$(pause_of) "
pause_run k8s_apply_cluster && pause_steps+="up:$(pause_of) owners:$(pause_owners) "
# a cluster paused the way the lab used to (kubectl patch, manager kubectl-patch) comes back too
k -n lab-pause-check patch psmdb/lab --type=merge -p '{"spec":{"pause":true}}' >>"$WORK/pause.out" 2>&1 && pause_steps+="patched:$(pause_of) "
pause_run k8s_apply_cluster && pause_steps+="up:$(pause_of) owners:$(pause_owners)"
want='up:false down:true up:false owners:["lab-pause"] patched:true up:false owners:["lab-pause"]'
check "$([[ $pause_steps == "$want" ]] && echo 0 || echo 1)" "down then up on kube-apiserver: spec.pause true, then false again, owned by lab-pause alone ($pause_steps)" \
  "down then up did not bring the cluster back" "got:  $pause_steps"$'\n'"want: $want"$'\n'"$(tail -20 "$WORK/pause.out")"
# the premise: pause false applied by the CR's own manager conflicts with a kubectl patch's pause
k -n lab-pause-check patch psmdb/lab --type=merge -p '{"spec":{"pause":true}}' >/dev/null 2>&1
res=$( (K8S_CLUSTER=lab K8S_NAMESPACE=lab-pause-check; k8s_pause_manifest false) | k apply --server-side --field-manager=lab -f - 2>&1)
check "$([[ $res == *conflict* && $(pause_of) == true ]] && echo 0 || echo 1)" "kube-apiserver refuses pause false from the CR's manager over kubectl patch's pause (why pause has a manager of its own)" \
  "kube-apiserver took pause false from the CR's manager without a conflict" "$res"
echo "# apiserver part: $((SECONDS - start)) s"
finish
