#!/usr/bin/env bash
# shellcheck disable=SC2317  # the predicates are called through wait_for
# e2e-offline.sh: the Kubernetes path after the apply, offline, by hand or nightly (NOT in the
# 15-minute suite: it needs k8s/test/e2e-build.sh's binaries, long to build cold, cached after).
# Real components of the pinned versions (k8s/versions.env): etcd + kube-apiserver,
# kube-controller-manager (every controller but node lifecycle, which would mark kubelet-less
# nodes NotReady) and kube-scheduler, on 11 fake Ready nodes (Node objects, no kubelet: pods are
# scheduled but never run), and the Percona operator's own binary (cmd/manager) reconciling the
# lab's CRs. TAP on stdout. What it asserts:
#   1. the operator's StatefulSets for the lab's CR: cfg 3 and rs0 3 members with the engine's
#      storage flags, mongos; the scheduler puts one member per node, each on its role's nodes;
#   2. a second engine's cluster never shares a node with the first (its shard members stay
#      unschedulable when every shard node holds a member of the first);
#   3. k8s down then up (lib/k8s.sh k8s_set_pause / k8s_apply_cluster): the operator scales the
#      StatefulSets to 0 and back;
#   4. the loaders' Job with the real Job controller: a pod whose container fails (its status set
#      as a kubelet would) fails its index only, the others are not terminated, and ./run.sh's
#      watch (k8s_watch_loaders) names it in one line within seconds.
# Usage: bash k8s/test/e2e-offline.sh     (exit 0 all ok, 1 a check failed)
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOOLS=$REPO/.tools
E2E=$TOOLS/k8s/e2e
# shellcheck source=k8s/versions.env
source "$REPO/k8s/versions.env"
# shellcheck source=k8s/test/lib/apiserver.sh
source "$REPO/k8s/test/lib/apiserver.sh" # ok, not_ok, check, finish, start_apiserver

bash "$REPO/k8s/test/e2e-build.sh" >&2 || { not_ok "e2e-build.sh failed"; finish; }
for t in "$TOOLS/bin/kube-apiserver" "$TOOLS/bin/kubectl" "$E2E/bin/kube-controller-manager" "$E2E/bin/kube-scheduler" \
  "$E2E/bin/psmdb-operator" etcd jq openssl unshare; do
  command -v "$t" >/dev/null 2>&1 || { not_ok "missing $t (bash test/install-tools.sh, then k8s/test/e2e-build.sh)"; finish; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lab-k8s-e2e.XXXXXX")
PIDS=()
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  stop_pids
  [[ -n ${KEEP:-} ]] && { echo "# kept $WORK" >&2; return; }
  rm -rf "$WORK"
}
trap cleanup EXIT
A=$WORK/cluster
start_apiserver "$A" lab-e2e
export KUBECONFIG=$A/kubeconfig
k() { "$TOOLS/bin/kubectl" --request-timeout=30s "$@"; }
# wait_for SECONDS COMMAND...: until the command succeeds
wait_for() {
  local until=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < until)) || return 1
    sleep 1
  done
}
wait_for 120 k get --raw /readyz || { not_ok "kube-apiserver not ready" "$(tail -20 "$A/apiserver.log")"; finish; }
"$E2E/bin/kube-controller-manager" --kubeconfig="$A/kubeconfig" --controllers='*,-node-lifecycle-controller' \
  --leader-elect=false --secure-port=0 --service-account-private-key-file="$A/sa.key" \
  --root-ca-file="$A/certs/apiserver.crt" >"$A/kcm.log" 2>&1 &
PIDS+=($!)
"$E2E/bin/kube-scheduler" --kubeconfig="$A/kubeconfig" --leader-elect=false --secure-port=0 >"$A/scheduler.log" 2>&1 &
PIDS+=($!)
ok "kube-apiserver, kube-controller-manager and kube-scheduler $KUBERNETES_VERSION started"

# ---- 11 fake Ready nodes: 3 cfg, 3 shard, 1 mongos, 3 client, 1 monitor; 4 CPUs, 8 GiB each ----
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
nodes=(cfg:1 cfg:2 cfg:3 shard:1 shard:2 shard:3 mongos:1 client:1 client:2 client:3 monitor:1)
for nd in "${nodes[@]}"; do
  name="${nd%%:*}-${nd#*:}"
  k create -f - >/dev/null <<NODE
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "$name", "labels": {"lab.role": "${nd%%:*}", "kubernetes.io/hostname": "$name"}}}
NODE
  # the TaintNodesByCondition admission plugin taints a new node not-ready until the node lifecycle
  # controller sees it Ready; that controller is off (no kubelet heartbeats), so the taint goes here
  k taint node "$name" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1
  k patch node "$name" --subresource=status --type=merge -p "{\"status\":{\"capacity\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"},\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"KubeletReady\",\"message\":\"fake node (no kubelet)\",\"lastHeartbeatTime\":\"$now\",\"lastTransitionTime\":\"$now\"}]}}" >/dev/null
done
check "$([[ $(k get nodes -o name | wc -l) == "${#nodes[@]}" ]] && echo 0 || echo 1)" "${#nodes[@]} fake Ready nodes labelled by role" "nodes not made" "$(k get nodes 2>&1)"

# ---- a stand-in for the kubelets' status reports ------------------------------------------------
# No kubelet runs, yet the StatefulSet controller creates member N+1 only once member N is Running
# and Ready (OrderedReady), and a deleted pod is gone only once its kubelet confirms. So every 2 s:
# each bound member pod (not the loader pods, whose status the test sets itself) is reported
# Running and Ready, with an image ID as a kubelet reports it; a pod being deleted is removed.
fake_kubelet() {
  local pods
  while :; do
    pods=$(k get pods -A -l '!batch.kubernetes.io/job-name' -o json 2>/dev/null) || { sleep 2; continue; }
    jq -r '.items[] | select(.metadata.deletionTimestamp != null) | "\(.metadata.namespace) \(.metadata.name)"' <<<"$pods" |
      while read -r ns pod; do k -n "$ns" delete pod "$pod" --force --grace-period=0 >/dev/null 2>&1; done
    jq -c '.items[] | select(.spec.nodeName != null and .metadata.deletionTimestamp == null and .status.phase == "Pending") |
      {ns: .metadata.namespace, name: .metadata.name, patch: {status: {phase: "Running", podIP: "10.244.0.2",
        conditions: ([ "PodScheduled", "Initialized", "ContainersReady", "Ready"] | map({type: ., status: "True"})),
        containerStatuses: [.spec.containers[] | {name, image, ready: true, restartCount: 0, started: true,
          imageID: "docker.io/\(.image | sub(":.*"; ""))@sha256:0000000000000000000000000000000000000000000000000000000000000001",
          state: {running: {startedAt: "2026-01-01T00:00:00Z"}}}]}}}' <<<"$pods" |
      while IFS= read -r p; do
        k -n "$(jq -r .ns <<<"$p")" patch pod "$(jq -r .name <<<"$p")" --subresource=status --type=merge -p "$(jq -c .patch <<<"$p")" >/dev/null 2>&1
      done
    sleep 2
  done
}
fake_kubelet &
PIDS+=($!)

# ---- the lab's CR through lib/k8s.sh, the operator's binary reconciling it ---------------------
k apply --server-side -f "$TOOLS/k8s/psmdb-crd.yaml" >/dev/null
wait_for 60 k wait --for=condition=Established crd/perconaservermongodbs.psmdb.percona.com
LAB_ROOT=$REPO
# shellcheck source=lib/common.sh
source "$REPO/lib/common.sh"
# shellcheck source=lib/tables.sh
source "$REPO/lib/tables.sh"
# shellcheck source=lib/k8s.sh
source "$REPO/lib/k8s.sh"
k8s_load
PATH=$TOOLS/bin:$PATH
DRY_RUN=0 K8S_CONTEXT="" MONITORING=0 MONGOS_COUNT=1 K8S_PLACEMENT=dedicated K8S_REGISTRY=reg.example/lab PROFILE=laptop
# Volumes: the members' PVCs (--storage-class lab-e2e) bind, when their pod is scheduled
# (WaitForFirstConsumer), to hostPath PVs made here: no provisioner runs without a cloud, and an
# unbound PVC would keep every pod that has one from being scheduled at all.
K8S_STORAGE_CLASS=lab-e2e
k apply -f - >/dev/null <<SC
{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "lab-e2e"},
 "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"}
SC
for i in $(seq 1 16); do
  k create -f - >/dev/null <<PV
{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-$i"}, "spec": {"storageClassName": "lab-e2e",
 "capacity": {"storage": "$K8S_STORAGE_SIZE"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/nonexistent/lab-e2e/$i"}}}
PV
done
# lab_up ENGINE: namespace, users Secret, CR (as k8s up applies them, less the image build and
# the operator install)
lab_up() {
  ENGINE=$1 K8S_NAMESPACE=lab-$1
  k8s_namespace_manifest "$K8S_NAMESPACE" "$ENGINE" | kube_apply_stdin >/dev/null
  local role env=""
  for role in BACKUP DATABASE_ADMIN CLUSTER_ADMIN CLUSTER_MONITOR USER_ADMIN; do
    env+="MONGODB_${role}_USER=$(tr '[:upper:]_' '[:lower:]-' <<<"$role")"$'\n'"MONGODB_${role}_PASSWORD=pw$RANDOM$RANDOM"$'\n'
  done
  printf '%s' "$env" >"$WORK/users-$1.env"
  k -n "$K8S_NAMESPACE" create secret generic "$K8S_USERS_SECRET" --from-env-file="$WORK/users-$1.env" >/dev/null
  k8s_apply_cluster >>"$WORK/apply.log" 2>&1
}
engines=()
while IFS= read -r e; do [[ -z $(k8s_engine_refusal "$e") ]] && engines+=("$e"); done < <(engine_names)
((${#engines[@]} >= 2)) || { not_ok "fewer than 2 engines the operator runs in compose/engines.tsv: ${engines[*]}"; finish; }
e1=${engines[0]} e2=${engines[1]}
lab_up "$e1"
# the operator runs as in its Deployment: its namespace from the service account file, its own
# pod (for the init image) by HOSTNAME; a mount and UTS namespace of its own give it both
k -n "lab-$e1" create -f - >/dev/null <<POD
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "psmdb-operator"}, "spec": {"nodeName": "monitor-1",
 "containers": [{"name": "operator", "image": "percona/percona-server-mongodb-operator:${PSMDB_OPERATOR_VERSION#v}"}]}}
POD
# shellcheck disable=SC2016  # expanded by the inner bash
unshare --mount --uts --propagation private bash -c '
  mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount &&
  echo "$1" >/run/secrets/kubernetes.io/serviceaccount/namespace && hostname psmdb-operator &&
  exec env HOSTNAME=psmdb-operator WATCH_NAMESPACE="$1,$2" DISABLE_TELEMETRY=true "$3" --leader-elect=false --metrics-bind-address=0 --health-probe-bind-address=0' \
  _ "lab-$e1" "lab-$e2" "$E2E/bin/psmdb-operator" >"$A/operator.log" 2>&1 &
PIDS+=($!)
sts_ready() { [[ $(k -n "lab-$1" get sts -o name 2>/dev/null | wc -l) -ge 2 ]] && k -n "lab-$1" get sts lab-cfg lab-rs0 >/dev/null 2>&1; }
if wait_for 300 sts_ready "$e1"; then
  sts=$(k -n "lab-$e1" get sts -o json)
  word=$(engine_field "$e1" server_engine)
  facts=$(jq -r --arg word "$word" '[.items[] | "\(.metadata.name):\(.spec.replicas):\(.spec.template.spec.containers[] | select(.name == "mongod" or .name == "mongos") | .args | map(select(startswith("--storageEngine"))) | join(""))"] | sort | join(" ")' <<<"$sts")
  # mongos: the operator makes its StatefulSet only once the replica sets are up
  # (psmdb_controller.go reconcileMongos after reconcileReplsets), which needs a running mongod
  want="lab-cfg:3:--storageEngine=wiredTiger lab-rs0:3:--storageEngine=$word"
  check "$([[ $facts == "$want" ]] && echo 0 || echo 1)" "the operator's StatefulSets for $e1: $facts" "the operator made other StatefulSets" "got:  $facts"$'\n'"want: $want"
else
  not_ok "the operator made no StatefulSets for $e1 in 300 s" "$(k -n "lab-$e1" get all 2>&1; tail -30 "$A/operator.log")"
  finish
fi
# placement: every member bound, one per node, on its role's nodes
placed() { [[ $(k -n "lab-$1" get pods -l app.kubernetes.io/instance=lab -o json | jq '[.items[] | select(.spec.nodeName != null)] | length') -ge 6 ]]; }
wait_for 120 placed "$e1"
placement=$(k -n "lab-$e1" get pods -l app.kubernetes.io/instance=lab -o json |
  jq -r '[.items[] | "\(.metadata.labels["app.kubernetes.io/component"])@\(.spec.nodeName // "-")"] | sort | join(" ")')
bad=$(tr ' ' '\n' <<<"$placement" | awk -F@ '{ split($2, r, "-"); want = ($1 == "mongod") ? "shard" : $1; if (r[1] != want) print; n[$2]++ } END { for (x in n) if (n[x] > 1) print "shared " x }')
check "$([[ -n $placement && -z $bad && $(wc -w <<<"$placement") -eq 6 ]] && echo 0 || echo 1)" "kube-scheduler placed the 6 replica set members one per node on their role's nodes ($placement)" \
  "placement" "$placement"$'\n'"$bad"$'\n'"$(k -n "lab-$e1" get events --field-selector reason=FailedScheduling -o json | jq -r '.items[].message')"

# ---- a second engine on the same cluster shares no node ----------------------------------------
lab_up "$e2"
wait_for 300 sts_ready "$e2"
wait_for 60 placed "$e2" # times out: that is the point (shard members cannot be placed)
sleep 10
p2=$(k -n "lab-$e2" get pods -l app.kubernetes.io/instance=lab -o json | jq -r '[.items[] | select(.spec.nodeName != null) | .spec.nodeName] | join(" ")')
p1=$(k -n "lab-$e1" get pods -l app.kubernetes.io/instance=lab -o json | jq -r '[.items[] | .spec.nodeName] | join(" ")')
shared=$(comm -12 <(tr ' ' '\n' <<<"$p1" | sort) <(tr ' ' '\n' <<<"$p2" | sort) | grep -v '^$' | tr '\n' ' ')
unsched=$(k -n "lab-$e2" get events --field-selector reason=FailedScheduling -o json | jq '[.items[] | select(.message | test("anti-affinity"))] | length')
why=$(k -n "lab-$e2" get events --field-selector reason=FailedScheduling -o json | jq -r '[.items[].message | select(test("anti-affinity"))][0] // ""')
check "$([[ -z $shared && $(wc -w <<<"$p1") -eq 6 && $unsched -gt 0 ]] && echo 0 || echo 1)" "a second engine ($e2) shares no node with $e1: its members wait unscheduled ($why)" \
  "two engines' members share nodes, or nothing was placed" "shared: $shared"$'\n'"$e1 on: $p1"$'\n'"$e2 on: $p2"$'\n'"$why"

# ---- down then up: the operator scales to 0 and back -------------------------------------------
# On the second engine, whose members are not Ready: with Ready members the operator's pause first
# asks each mongod whether it is primary (finalizers.go deleteReplsetPods, isPodPrimary), which
# needs a running mongod; a cluster with none is scaled down at once.
ENGINE=$e2 K8S_NAMESPACE=lab-$e2
replicas() { k -n "lab-$e2" get sts lab-rs0 -o jsonpath='{.spec.replicas}'; }
k8s_set_pause true >>"$WORK/apply.log" 2>&1
zero() { [[ $(replicas) == 0 ]]; }
three() { [[ $(replicas) == 3 ]]; }
d=fail u=fail
wait_for 180 zero && d=0
k8s_apply_cluster >>"$WORK/apply.log" 2>&1
wait_for 180 three && u=3
check "$([[ $d == 0 && $u == 3 ]] && echo 0 || echo 1)" "down then up ($e2): the operator scaled rs0 to $d and back to $u (spec.pause $(k -n "lab-$e2" get psmdb lab -o jsonpath='{.spec.pause}'))" \
  "down then up did not scale rs0 to 0 and back" "down: $d, up: $u"$'\n'"$(grep -i pause "$A/operator.log" | tail -5 | cut -c1-300)"

# ---- the loaders' Job: a failed index does not terminate the others ---------------------------
ENGINE=$e1 K8S_NAMESPACE=lab-$e1
job=lab-e2e-loaders
k8s_loaders_manifest "lab-$e1" "$job" experiment2 3 reg.example/lab/lab-loader:e2e "$(k8s_target_uri primary "lab-$e1")" dedicated \
  experiment2 --engine "$e1" --group g --clients 1 | kube_apply_stdin >/dev/null
lpods() { k -n "lab-$e1" get pods -l "batch.kubernetes.io/job-name=$job" -o json; }
three_bound() { [[ $(lpods | jq '[.items[] | select(.spec.nodeName != null)] | length') == 3 ]]; }
wait_for 120 three_bound || not_ok "the loader pods were not placed" "$(lpods | jq -c '.items[] | {n: .metadata.name, node: .spec.nodeName}')"
on=$(lpods | jq -r '[.items[].spec.nodeName] | sort | join(" ")')
# what a kubelet would report: pods 0 and 2 running, pod 1's container exited 3
kubelet_status() { # POD PHASE [EXIT]
  local st
  if [[ $2 == Failed ]]; then
    st="{\"name\":\"loader\",\"ready\":false,\"restartCount\":0,\"image\":\"x\",\"imageID\":\"\",\"state\":{\"terminated\":{\"exitCode\":$3,\"reason\":\"Error\",\"startedAt\":\"$now\",\"finishedAt\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}}}"
  else
    st="{\"name\":\"loader\",\"ready\":false,\"restartCount\":0,\"image\":\"x\",\"imageID\":\"\",\"state\":{\"running\":{\"startedAt\":\"$now\"}}}"
  fi
  k -n "lab-$e1" patch pod "$1" --subresource=status --type=merge -p "{\"status\":{\"phase\":\"$2\",\"containerStatuses\":[$st]}}" >/dev/null
}
pod_of() { lpods | jq -r --arg i "$1" '.items[] | select(.metadata.annotations["batch.kubernetes.io/job-completion-index"] == $i) | .metadata.name'; }
for i in 0 2; do kubelet_status "$(pod_of "$i")" Running; done
failed_pod=$(pod_of 1)
kubelet_status "$failed_pod" Failed 3
failed_at=$SECONDS
idx_failed() { [[ $(k -n "lab-$e1" get job "$job" -o jsonpath='{.status.failedIndexes}') == 1 ]]; }
wait_for 60 idx_failed
sleep 5
survivors=$(lpods | jq -r '[.items[] | select(.metadata.annotations["batch.kubernetes.io/job-completion-index"] != "1") | select(.metadata.deletionTimestamp == null) | .status.phase] | join(",")')
jstate=$(k -n "lab-$e1" get job "$job" -o json | jq -c '{failedIndexes: .status.failedIndexes, conditions: [.status.conditions[]?.type]}')
check "$([[ $survivors == Running,Running ]] && idx_failed && echo 0 || echo 1)" "the Job controller failed index 1 only; pods 0 and 2 run on ($jstate; loaders on $on)" \
  "the Job controller terminated the other loader pods" "survivors: $survivors"$'\n'"$jstate"
# ./run.sh's watch on the real apiserver: the one line, within seconds (exec into kubelet-less
# pods fails, so the stop and the collection report what they could not do)
K8S_POLL_S=1 K8S_STOP_WAIT_S=3
out=$(k8s_watch_loaders "$job" 3 "$WORK/run" 2>&1)
took=$((SECONDS - failed_at))
line=$(grep "^error: loader pod" <<<"$out")
check "$([[ $line == "error: loader pod $failed_pod (index 1) failed with exit 3; last log lines: "* && $(grep -c "^error: loader pod" <<<"$out") == 1 ]] && echo 0 || echo 1)" \
  "./run.sh names the failed loader pod in one line (${took} s after its failure, the Job's own detection included): $line" "no one-line failure from ./run.sh" "$out"
finish
