# shellcheck shell=bash
# ./run.sh fault SCENARIO --on k8s: faults through the Kubernetes API (kubectl exec / delete) on
# the engine's PerconaServerMongoDB. What works here:
#   failover      the shard's primary pod is deleted (the StatefulSet brings it back); prints the
#                 primary before, the new primary and the seconds without one. No writers and no
#                 Jepsen check on Kubernetes yet (Compose's fault runner does that).
#   replica-lag   fsyncLock on a secondary for --duration, its lag every second, then fsyncUnlock.
#   heal          fsyncUnlock on every shard member.
# Anything else is refused in one line naming why. Credentials reach mongosh on stdin, never on a
# command line. Sourced by lib/k8s.sh (k8s_load).

K8S_FAULT_POLL_S=1

# k8s_mongosh POD [auth]: run the JavaScript on stdin with mongosh in POD's mongod container;
# "auth" logs in as clusterAdmin first (password read from .secrets/, sent on stdin).
k8s_mongosh() {
  local pod=$1 auth=${2:-} script pw="" shown
  script=$(cat)
  if [[ $auth == auth ]]; then
    pw=$(grep "^MONGODB_CLUSTER_ADMIN_PASSWORD=" "$(k8s_secrets_dir)/users.env" 2>/dev/null | cut -d= -f2- || true)
    [[ -n $pw || $DRY_RUN != 1 ]] || pw="<clusterAdmin password>"
    [[ -n $pw ]] || die_env "no clusterAdmin password in $(k8s_secrets_dir)/users.env: was the cluster started with ./run.sh k8s up?"
    script="db.getSiblingDB('admin').auth('clusterAdmin', $(printf '%s' "$pw" | jq -Rs .));"$'\n'"$script"
  fi
  if [[ $DRY_RUN == 1 ]]; then
    shown=${script//"$pw"/<clusterAdmin password>} # no password (no auth): the script as it is
    quote_words kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" exec -i "$pod" -c mongod -- mongosh --quiet --norc '<<<' "$shown"
    QUOTED[${#QUOTED[@]} - 2]='<<<'
    print_cmd "${QUOTED[@]}"
    return 0
  fi
  kube_probe -n "$K8S_NAMESPACE" exec -i "$pod" -c mongod -- mongosh --quiet --norc <<<"$script"
}

# k8s_quiet: mongosh's answer is not shown; under --dry-run the printed command is.
k8s_quiet() { if [[ $DRY_RUN == 1 ]]; then cat; else cat >/dev/null; fi; }

# k8s_primary: the shard's primary as "pod-name" (hello needs no login).
k8s_primary() {
  local pod host
  for pod in $(k8s_shard_pods); do
    host=$(k8s_mongosh "$pod" <<<'print(db.hello().primary || "")' 2>/dev/null | tail -1) || continue
    [[ -n $host ]] && { echo "${host%%.*}"; return 0; }
  done
  return 1
}

k8s_fault_failover() {
  local before after t0
  if [[ $DRY_RUN == 1 ]]; then
    k8s_mongosh "$(k8s_member_pod 0)" <<<'print(db.hello().primary || "")'
    printf '+ %s\n' "$(quote_cmd kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" delete pod PRIMARY --wait=false)"
    return 0
  fi
  before=$(k8s_primary) || die_env "the shard $K8S_SHARD_RS in $K8S_NAMESPACE has no primary now: see ./run.sh k8s status"
  info "primary: $before; deleting its pod"
  t0=$(date +%s)
  kube -n "$K8S_NAMESPACE" delete pod "$before" --wait=false
  while sleep "$K8S_FAULT_POLL_S"; do
    after=$(k8s_primary) || after=""
    if [[ -n $after && $after != "$before" ]]; then
      info "new primary: $after after $(($(date +%s) - t0)) s"
      return 0
    fi
    (($(date +%s) - t0 < 300)) || die_env "no new primary within 300 s of deleting $before"
  done
}

k8s_fault_replica_lag() {
  local member=$1 duration_ms=$2 pod end primary
  pod=$(k8s_member_pod "$member")
  if [[ $DRY_RUN != 1 ]]; then
    primary=$(k8s_primary) || die_env "the shard $K8S_SHARD_RS has no primary now"
    [[ $primary != "$pod" ]] || die_usage "$pod is the primary now: replica-lag needs a secondary (--member 0..2)"
  fi
  info "fsyncLock on $pod for $((duration_ms / 1000)) s"
  k8s_mongosh "$pod" auth <<<'printjson(db.fsyncLock())' | k8s_quiet
  end=$(($(date +%s) + duration_ms / 1000))
  if [[ $DRY_RUN != 1 ]]; then
    while (($(date +%s) < end)); do
      # shellcheck disable=SC2016  # JavaScript template literal, not shell
      k8s_mongosh "$pod" auth <<<'const s = rs.status(); const p = s.members.find((m) => m.stateStr === "PRIMARY"), me = s.members.find((m) => m.self); print(`lag ${p && me ? (p.optimeDate - me.optimeDate) / 1000 : "?"} s`)' | tail -1 || true
      sleep "$K8S_FAULT_POLL_S"
    done
  fi
  k8s_mongosh "$pod" auth <<<'printjson(db.fsyncUnlock())' | k8s_quiet
  info "fsyncUnlock on $pod: healed"
}

k8s_fault_heal() {
  local pod
  for pod in $(k8s_shard_pods); do
    k8s_mongosh "$pod" auth <<<'while (db.currentOp().fsyncLock) { db.fsyncUnlock(); } print("unlocked")' || true
  done
}

# k8s_run_fault SCENARIO ARGS...: ./run.sh fault SCENARIO --on k8s [--member I] [--duration D] [--how kill].
k8s_run_fault() {
  local scenario=${1:-} member=1 duration=30s how=kill on=""
  shift || true
  k8s_parse_flags "$@"
  set -- "${K8S_REST[@]}"
  while (($#)); do
    flag_value "fault $scenario --on k8s" "$@"
    case $FLAG in
      --on) on=$VALUE ;;
      --member) member=$VALUE ;;
      --duration) duration=$VALUE ;;
      --how) how=$VALUE ;;
      --method) [[ $VALUE == fsync ]] || die_usage "--method $VALUE is not available on Kubernetes: only fsync (fsyncLock through kubectl exec); failpoint needs a mongod restart with enableTestCommands and netem a privileged sidecar" ;;
      *) die_usage "fault $scenario --on k8s does not take '$FLAG'" ;;
    esac
    shift "$SHIFT_BY"
  done
  [[ $on == k8s ]] || die_usage "--on takes k8s (got '$on')"
  local members
  members=$(topology_services shard | wc -l)
  [[ $member =~ ^[0-9]$ && $member -lt $members ]] ||
    die_usage "--member on Kubernetes is the shard member's index 0..$((members - 1)) (got '$member')"
  parse_duration --duration "$duration" || die_usage "$DURATION_ERROR"
  k8s_check_engine
  case $scenario in
    failover)
      [[ $how == kill ]] || die_usage "--how $how is not available on Kubernetes: partitioning the primary needs a NetworkPolicy-enforcing CNI and is not built; use --how kill (the primary pod is deleted)"
      k8s_require_kubectl
      k8s_fault_failover
      ;;
    replica-lag)
      engine_has_fault_method "$ENGINE" fsync || die_usage "engine '$ENGINE' does not list fsync among its fault methods (compose/engines.tsv)"
      k8s_require_kubectl
      # shellcheck disable=SC2153  # DURATION_MS is parse_duration's result (lib/common.sh)
      k8s_fault_replica_lag "$member" "$DURATION_MS"
      ;;
    heal) k8s_require_kubectl; k8s_fault_heal ;;
    stale-secondary) die_usage "fault stale-secondary is not available on Kubernetes: it needs a small oplog set at creation and a member stopped while its pod would be restarted by the StatefulSet (not built)" ;;
    "") die_usage "fault needs a scenario: failover, replica-lag or heal on Kubernetes" ;;
    *) die_usage "unknown fault scenario '$scenario' on Kubernetes (failover, replica-lag, heal)" ;;
  esac
}
