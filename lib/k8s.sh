# shellcheck shell=bash
# ./run.sh k8s up|status|down|destroy|manifests, NAME --on k8s, fault --on k8s: verbs, flags and
# kubectl command lines (the other files: k8s/README.md); every change goes through `run`.

# k8s_load: the manifest generators, read only when a Kubernetes verb runs (run.sh sources this
# file for every verb; the Compose verbs need nothing from k8s/).
k8s_load() {
  # shellcheck source=k8s/manifests.sh
  source "$LAB_ROOT/k8s/manifests.sh"
  # shellcheck source=k8s/monitoring.sh
  source "$LAB_ROOT/k8s/monitoring.sh"
  # shellcheck source=k8s/loaders.sh
  source "$LAB_ROOT/k8s/loaders.sh"
  # shellcheck source=k8s/faults.sh
  source "$LAB_ROOT/k8s/faults.sh"
}

K8S_CONTEXT=""
K8S_NAMESPACE=""
K8S_REGISTRY=""
K8S_PLACEMENT=auto
K8S_STORAGE_SIZE=20Gi
K8S_STORAGE_CLASS=""
K8S_OPERATOR_URL_BASE=https://raw.githubusercontent.com/percona/percona-server-mongodb-operator
K8S_EXPORTER_TAG=0.43.1 # the exporter release images/mongodb-exporter/Dockerfile builds on
K8S_REST=()

k8s_flags_usage() {
  cat <<'USAGE'
  --context CTX           kubectl context (default: kubectl's current context)
  --namespace NS          namespace of the engine's cluster (default: lab-<engine>)
  --registry REG          registry the cluster pulls the lab's images from; up/experiment build
                          and push images/mongodb-exporter and images/loader there with docker
  --placement MODE        dedicated (one member per node, nodes labelled lab.role=cfg|shard|
                          mongos|client|monitor), shared (any node) or auto (default: dedicated
                          when enough labelled nodes exist)
  --storage-size SIZE     PVC size per member, 1Gi to 64Ti (default: 20Gi); --storage-class NAME
                          (default: the cluster's default class)
USAGE
}

# k8s_parse_flags ARGS...: the k8s flags; the rest lands in K8S_REST.
k8s_parse_flags() {
  local name
  K8S_REST=()
  while (($#)); do
    case $1 in
      --context | --context=* | --namespace | --namespace=* | --registry | --registry=* | --placement | --placement=* | \
        --storage-size | --storage-size=* | --storage-class | --storage-class=*)
        flag_value k8s "$@"
        # --storage-size sets K8S_STORAGE_SIZE, and so on: each flag names its variable
        name=${FLAG#--} && name=${name//-/_}
        printf -v "K8S_${name^^}" '%s' "$VALUE"
        shift "$SHIFT_BY"
        ;;
      *) K8S_REST+=("$1"); shift ;;
    esac
  done
  [[ $K8S_PLACEMENT =~ ^(auto|dedicated|shared)$ ]] || die_usage "--placement must be auto, dedicated or shared (got '$K8S_PLACEMENT')"
  # RFC 1123 label: what Kubernetes accepts as a namespace name
  K8S_NAMESPACE=${K8S_NAMESPACE:-lab-$ENGINE}
  [[ $K8S_NAMESPACE =~ ^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$ ]] || die_usage "--namespace '$K8S_NAMESPACE' is not a Kubernetes namespace name (lower-case letters, digits, '-')"
  k8s_check_storage_size "$K8S_STORAGE_SIZE"
  k8s_check_storage_class "$K8S_STORAGE_CLASS"
  [[ -z $K8S_REGISTRY || $K8S_REGISTRY =~ ^[A-Za-z0-9._:/-]+$ ]] || die_usage "--registry '$K8S_REGISTRY' is not a registry path"
}

# k8s_check_storage_size SIZE: a member's PVC size, refused in one line before it reaches a manifest
# unless it is a Kubernetes quantity of bytes (kubernetes/apimachinery pkg/api/resource/quantity.go,
# type Quantity: <number><suffix>, binary Ki..Ei or decimal k..E; the lab takes the unsigned
# numbers of those, without the exponent and milli forms) between 1Gi and 64Ti: below, a member's
# own files alone (100 MB journal files, up to 200 MB of diagnostic data) fill it; above, the
# largest single cloud volume (64 TiB) and surely a typo (99999999999Ti reached the manifests).
k8s_check_storage_size() {
  local size=$1 gib
  [[ $size =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$ ]] ||
    die_usage "--storage-size must be a size like 20Gi (a Kubernetes quantity: Mi, Gi, Ti or M, G, T; got '$size')"
  # the size in GiB (awk: no integer overflow for any length of digits)
  gib=$(awk -v n="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[3]}" 'BEGIN {
    split("Ki Mi Gi Ti Pi Ei", b, " "); split("k M G T P E", d, " ")
    f = 1; for (i = 1; i <= 6; i++) { if (u == b[i]) f = 1024 ^ i; if (u == d[i]) f = 1000 ^ i }
    printf "%.6f", n * f / 1024 ^ 3 }')
  awk -v g="$gib" 'BEGIN { exit !(g > 0) }' ||
    die_usage "--storage-size must be more than zero (got '$size'): each member's volume holds its data"
  awk -v g="$gib" 'BEGIN { exit !(g >= 1 && g <= 64 * 1024) }' ||
    die_usage "--storage-size must be between 1Gi and 64Ti (got '$size'): each member's volume holds its data"
}

# k8s_check_storage_class NAME: empty (the cluster's default class) or a StorageClass name, which
# Kubernetes requires to be a DNS subdomain (RFC 1123; kubernetes/apimachinery
# pkg/util/validation/validation.go IsDNS1123Subdomain: lower-case alphanumerics, '-' and '.',
# each dot-separated part starting and ending alphanumeric, at most 253 characters).
k8s_check_storage_class() {
  local label='[a-z0-9]([-a-z0-9]*[a-z0-9])?' shown=$1
  ((${#shown} <= 40)) || shown="${shown:0:37}..."
  [[ -z $1 ]] || { ((${#1} <= 253)) && [[ $1 =~ ^$label(\.$label)*$ ]]; } ||
    die_usage "--storage-class '$shown' is not a StorageClass name (a-z, 0-9, '-', '.'; kubectl get storageclass)"
}

# kube ARGS: kubectl on the chosen context; changes go through `run` (printed under --dry-run).
kube() { run kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} "$@"; }
# kube_probe ARGS: read-only kubectl, always run.
kube_probe() { kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} "$@"; }

# kube_apply_stdin [MANAGER FLAG...]: apply the manifests on stdin as field manager MANAGER (default
# lab), server-side: the dashboards ConfigMap is larger than client-side apply's 256 KiB
# last-applied annotation allows. Under --dry-run the manifests are printed after the command.
kube_apply_stdin() {
  local cmd=(kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} apply --server-side "--field-manager=${1:-lab}" "${@:2}" -f -)
  if [[ $DRY_RUN == 1 ]]; then
    quote_words "${cmd[@]}"
    print_cmd "${QUOTED[@]}" '<<EOF'
    cat
    printf 'EOF\n'
    return 0
  fi
  "${cmd[@]}"
}

k8s_require_kubectl() {
  [[ $DRY_RUN == 1 ]] && return 0
  command -v kubectl >/dev/null 2>&1 || die_env "kubectl is not installed: install it and point it at the cluster (--context CTX)"
  # shellcheck disable=SC2016  # the quotes are part of the message, not shell
  kube_probe version --request-timeout=10s >/dev/null 2>&1 ||
    die_env "kubectl cannot reach the cluster${K8S_CONTEXT:+ of context '$K8S_CONTEXT'}: check 'kubectl ${K8S_CONTEXT:+--context $K8S_CONTEXT }cluster-info'"
}

# k8s_check_engine: refuse an engine the operator cannot run, in one line, before anything.
k8s_check_engine() {
  local why
  why=$(k8s_engine_refusal "$ENGINE")
  [[ -z $why ]] || die_usage "$why"
}

# k8s_resolve_placement: auto -> dedicated when each role has as many labelled nodes as members.
k8s_resolve_placement() {
  [[ $K8S_PLACEMENT == auto ]] || return 0
  if [[ $DRY_RUN == 1 ]]; then K8S_PLACEMENT=dedicated; return 0; fi
  local role need have short=""
  for role in cfg:config shard:shard mongos:router; do
    need=$(topology_services "${role#*:}" | wc -l | tr -d ' ')
    [[ ${role%%:*} == mongos ]] && need=$MONGOS_COUNT
    have=$(kube_probe get nodes -l "lab.role=${role%%:*}" -o name 2>/dev/null | wc -l | tr -d ' ')
    ((have >= need)) || short+=" ${role%%:*}: $have of $need"
  done
  if [[ -z $short ]]; then
    K8S_PLACEMENT=dedicated
  else
    K8S_PLACEMENT=shared
    warn "too few nodes labelled lab.role (${short# }): members share nodes, so the numbers carry the contention the lab exists to avoid (label nodes: kubectl label node NODE lab.role=cfg|shard|mongos|client|monitor)"
  fi
}

# k8s_check_node_fit: with dedicated placement, every node labelled for a role must allocate what
# one member's pod of the profile asks (k8s/README.md "Resources"), else up refuses in one line: a
# pod that fits no node stays Pending and up would wait its 20 minutes.
k8s_check_node_fit() {
  [[ $DRY_RUN == 1 || $K8S_PLACEMENT != dedicated ]] && return 0
  local role cpus mem need_cpu need_mem short nodes
  # ROLE:COLUMNS: the shard's members are sized by the profile's data_* columns, the others by cfg_*
  for role in shard:data cfg:cfg mongos:cfg; do
    cpus=$(profile_field "$PROFILE" "${role#*:}_cpus") mem=$(profile_field "$PROFILE" "${role#*:}_mem")
    role=${role%%:*}
    need_cpu=$(awk -v c="$cpus" 'BEGIN { printf "%d", c * 1000 + 0.5 }')
    need_mem=$((($(mem_bytes "$mem") >> 20) + ${K8S_EXPORTER_MEM%Mi}))
    nodes=$(kube_probe get nodes -l "lab.role=$role" -o json 2>/dev/null) || nodes=""
    if ! jq -e '.items' >/dev/null 2>&1 <<<"$nodes"; then
      warn "could not read the allocatable CPU and memory of the nodes labelled lab.role=$role (listing nodes needs a cluster-wide read): not checked that one member fits one node"
      continue
    fi
    short=$(jq -r --argjson cpu "$need_cpu" --argjson mem "$need_mem" '
      def cpu: if endswith("m") then (.[:-1] | tonumber) else (tonumber * 1000) end;
      def mib: capture("^(?<n>[0-9.]+)(?<u>[A-Za-z]*)$") |
        (.n | tonumber) * ({"": (1 / 1048576), Ki: (1 / 1024), Mi: 1, Gi: 1024, Ti: 1048576, k: (1000 / 1048576),
          M: (1000000 / 1048576), G: (1000000000 / 1048576), T: (1000000000000 / 1048576)}[.u] // 0);
      [.items[] | {name: .metadata.name, cpu: (.status.allocatable.cpu | cpu), mem: (.status.allocatable.memory | mib | floor)} |
        select(.cpu < $cpu or .mem < $mem) | "\(.name) allocates \(.cpu)m CPU / \(.mem)Mi"] | join(", ")' <<<"$nodes")
    [[ -z $short ]] || die_env "nodes labelled lab.role=$role are too small for profile $PROFILE: $short; each $role member's pod asks ${need_cpu}m CPU / ${need_mem}Mi (the profile's $cpus CPUs, the exporter's ${K8S_EXPORTER_CPU_M}m among them, and $mem + the exporter's $K8S_EXPORTER_MEM): use nodes that allocate that much (kubectl describe node: Allocatable), or another --profile"
  done
}

k8s_exporter_image() { echo "${K8S_REGISTRY:+$K8S_REGISTRY/}lab-mongodb-exporter:$K8S_EXPORTER_TAG"; }

# k8s_push_image CONTEXT_DIR DOCKERFILE REF: build a lab image and push it where the cluster pulls.
# BuildKit, which builds only the stages the image needs: the loader's Dockerfile takes its
# dependencies from one of two stages (LOADER_DEPS, lib/common.sh loader_deps_source), and the
# legacy builder of Engines before 23 would build both, running npm ci even for an offline build.
k8s_push_image() {
  run env DOCKER_BUILDKIT=1 docker build --build-arg "LOADER_DEPS=$(loader_deps_source)" -t "$3" -f "$2" "$1"
  run docker push "$3"
}

# k8s_ensure_operator: the pinned operator in the namespace: installed from its release bundle when
# absent; a different version found is refused (its CRD and defaults are what the tests checked).
k8s_ensure_operator() {
  local found=""
  if [[ $DRY_RUN == 1 ]]; then
    info "(dry run: the cluster is not asked whether the operator is there; if it is absent, up runs:)"
  else
    found=$(kube_probe -n "$K8S_NAMESPACE" get deployment percona-server-mongodb-operator \
      -o 'jsonpath={.spec.template.spec.containers[0].image}' 2>/dev/null || true)
  fi
  if [[ -z $found ]]; then
    info "installing the Percona Operator $PSMDB_OPERATOR_VERSION in namespace $K8S_NAMESPACE"
    kube apply --server-side --force-conflicts -n "$K8S_NAMESPACE" -f "$K8S_OPERATOR_URL_BASE/$PSMDB_OPERATOR_VERSION/deploy/bundle.yaml"
    kube -n "$K8S_NAMESPACE" rollout status deployment/percona-server-mongodb-operator --timeout=5m
  elif [[ $found != *":${PSMDB_OPERATOR_VERSION#v}" ]]; then
    die_env "namespace $K8S_NAMESPACE runs operator image $found; the lab pins ${PSMDB_OPERATOR_VERSION#v} (use another --namespace, or ./run.sh k8s destroy)"
  fi
}

# k8s_secrets_dir: .secrets/k8s-<engine>/ (git-ignored, 0700): the system users' passwords and
# Grafana's, generated once, given to the cluster as Secrets from files (never on a command line).
k8s_secrets_dir() { echo "$LAB_ROOT/.secrets/k8s-$ENGINE"; }

k8s_ensure_secret_files() {
  local dir role
  dir=$(k8s_secrets_dir)
  [[ $DRY_RUN == 1 ]] && return 0
  (umask 077 && mkdir -p "$dir")
  if [[ ! -s $dir/users.env ]]; then
    # The operator's system users (deploy/secrets.yaml keys); names as in its example.
    (
      umask 077
      for role in BACKUP:backup DATABASE_ADMIN:databaseAdmin CLUSTER_ADMIN:clusterAdmin CLUSTER_MONITOR:clusterMonitor USER_ADMIN:userAdmin; do
        printf 'MONGODB_%s_USER=%s\nMONGODB_%s_PASSWORD=%s\n' "${role%%:*}" "${role#*:}" "${role%%:*}" "$(secret_password)"
      done >"$dir/users.env"
    )
  fi
  [[ -s $dir/grafana-admin-password ]] ||
    (umask 077 && secret_password | tr -d '\n' >"$dir/grafana-admin-password")
}

# k8s_apply_secret NAME ARGS...: create-or-update a Secret from files (kubectl create --dry-run=client
# renders it, apply stores it: the values never reach a command line).
k8s_apply_secret() {
  local name=$1
  shift
  if [[ $DRY_RUN == 1 ]]; then
    local -a create
    quote_words kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" create secret generic "$name" "$@" --dry-run=client -o yaml
    create=("${QUOTED[@]}")
    quote_words kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} apply --server-side --field-manager=lab -f -
    print_cmd "${create[@]}" '|' "${QUOTED[@]}"
    return 0
  fi
  kube_probe -n "$K8S_NAMESPACE" create secret generic "$name" "$@" --dry-run=client -o yaml |
    kube_probe apply --server-side --field-manager=lab -f - >/dev/null
}

# k8s_render: every manifest of the engine's cluster and monitoring, as up applies them.
k8s_render() {
  k8s_namespace_manifest "$K8S_NAMESPACE" "$ENGINE"
  k8s_cluster_manifest "$ENGINE" "$PROFILE" "$MONGOS_COUNT" "$K8S_NAMESPACE" "$K8S_PLACEMENT" \
    "$(k8s_exporter_image)" "$K8S_STORAGE_SIZE" "$K8S_STORAGE_CLASS"
  ((MONITORING)) && k8s_monitoring_manifest "$ENGINE" "$K8S_NAMESPACE" "$K8S_PLACEMENT"
  return 0
}

# k8s_pause_manifest true|false: the PerconaServerMongoDB's spec.pause alone, applied by its own
# field manager, lab-pause (why: k8s/README.md, the spec.pause bullet).
k8s_pause_manifest() {
  cat <<YAML
apiVersion: psmdb.percona.com/v1
kind: PerconaServerMongoDB
metadata:
  name: $K8S_CLUSTER
  namespace: $K8S_NAMESPACE
spec:
  pause: $1
YAML
}

# k8s_set_pause true|false: spec.pause through its one manager (--force-conflicts: the same bullet).
k8s_set_pause() { k8s_pause_manifest "$1" | kube_apply_stdin lab-pause --force-conflicts; }

# k8s_apply_cluster: every manifest of the engine's cluster (manager lab), then spec.pause false
# (manager lab-pause): up brings back a cluster that down paused.
k8s_apply_cluster() {
  k8s_render | kube_apply_stdin
  k8s_set_pause false
}

k8s_up() {
  k8s_check_engine
  [[ -n $K8S_REGISTRY ]] || die_usage "k8s up needs --registry REG: the cluster pulls the lab's exporter image (images/mongodb-exporter, the 1 s deadline fix) from there"
  k8s_require_kubectl
  k8s_resolve_placement
  k8s_check_node_fit
  k8s_push_image "$LAB_ROOT/images/mongodb-exporter" "$LAB_ROOT/images/mongodb-exporter/Dockerfile" "$(k8s_exporter_image)"
  k8s_namespace_manifest "$K8S_NAMESPACE" "$ENGINE" | kube_apply_stdin
  k8s_ensure_operator
  k8s_ensure_secret_files
  local dir
  dir=$(k8s_secrets_dir)
  k8s_apply_secret "$K8S_USERS_SECRET" --from-env-file="$dir/users.env"
  ((MONITORING)) && k8s_apply_secret lab-grafana --from-file=grafana-admin-password="$dir/grafana-admin-password"
  k8s_apply_cluster
  info "waiting for the cluster (PerconaServerMongoDB $K8S_CLUSTER) to be ready"
  kube -n "$K8S_NAMESPACE" wait "psmdb/$K8S_CLUSTER" --for=jsonpath='{.status.state}'=ready --timeout=20m
  info "up: engine $ENGINE in namespace $K8S_NAMESPACE (placement $K8S_PLACEMENT)"
  info "  mongos:     $K8S_CLUSTER-mongos.$K8S_NAMESPACE.svc.cluster.local:$K8S_MONGOD_PORT (user databaseAdmin, password in $dir/users.env)"
  if ((MONITORING)); then
    info "  Grafana:    kubectl${K8S_CONTEXT:+ --context $K8S_CONTEXT} -n $K8S_NAMESPACE port-forward svc/grafana 3000:3000, then http://127.0.0.1:3000 (admin, password in $dir/grafana-admin-password)"
    info "  Prometheus: kubectl${K8S_CONTEXT:+ --context $K8S_CONTEXT} -n $K8S_NAMESPACE port-forward svc/prometheus 9090:9090"
  fi
}

k8s_status() {
  k8s_require_kubectl
  # through run: under --dry-run printed, never sent (it ran kubectl for real)
  kube -n "$K8S_NAMESPACE" get psmdb,statefulsets,deployments,pods -o wide
}

# down: spec.pause true (k8s_set_pause: every mongod and mongos stopped, volumes kept), monitoring
# scaled to 0; an engine that keeps no data is removed instead, as on Compose (keeps_data).
k8s_down() {
  k8s_require_kubectl
  if engine_is "$ENGINE" keeps_data; then
    k8s_set_pause true
  else
    kube -n "$K8S_NAMESPACE" delete "psmdb/$K8S_CLUSTER" --ignore-not-found --wait=true
    kube -n "$K8S_NAMESPACE" delete pvc -l "app.kubernetes.io/instance=$K8S_CLUSTER" --ignore-not-found
  fi
  kube -n "$K8S_NAMESPACE" scale deployment/prometheus deployment/grafana --replicas=0
}

k8s_destroy() {
  if [[ $ASSUME_YES != 1 && $DRY_RUN != 1 ]]; then
    [[ -t 0 ]] || die_usage "k8s destroy deletes namespace $K8S_NAMESPACE and its volumes: add --yes to confirm"
    local answer
    read -r -p "Delete namespace $K8S_NAMESPACE (the cluster, its volumes, monitoring)? [y/N] " answer
    [[ $answer == [yY]* ]] || { info "nothing deleted"; return 0; }
  fi
  k8s_require_kubectl
  # The CR first, so the operator (in the same namespace) removes what it made while it runs.
  kube -n "$K8S_NAMESPACE" delete "psmdb/$K8S_CLUSTER" --ignore-not-found --wait=true
  kube delete namespace "$K8S_NAMESPACE" --ignore-not-found --wait=true
}

# verb_k8s ACTION [flags]: ./run.sh k8s up|status|down|destroy|manifests.
verb_k8s() {
  local action=${1:-}
  k8s_load
  [[ -n $action ]] || die_usage "k8s needs an action: up, status, down, destroy or manifests"
  shift
  k8s_parse_flags "$@"
  ((${#K8S_REST[@]} == 0)) || die_usage "k8s $action does not take '${K8S_REST[0]}'"
  case $action in
    up | status | down | destroy) "k8s_$action" ;;
    manifests) k8s_check_engine; [[ $K8S_PLACEMENT != auto ]] || K8S_PLACEMENT=dedicated; k8s_render ;;
    *) die_usage "unknown k8s action '$action' (use up, status, down, destroy or manifests)" ;;
  esac
}
