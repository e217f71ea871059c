# shellcheck shell=bash
# The lab's topology on Kubernetes as manifests, from the same tables as Compose: one
# PerconaServerMongoDB per engine in its own namespace, the lab's exporter beside every mongod and
# mongos. Pure functions: they print YAML and run nothing, so --dry-run, the tests (kubeconform,
# kube-apiserver, the operator's own checks) and `up` all see the same text. Field names and
# defaults: k8s/README.md (sources: operator v1.23.0).
# Needs lib/common.sh and lib/tables.sh; sourced by lib/k8s.sh.

# shellcheck source=k8s/versions.env
source "$LAB_ROOT/k8s/versions.env"

K8S_CLUSTER=lab              # the PerconaServerMongoDB's name: Services lab-rs0, lab-cfg, lab-mongos
K8S_SHARD_RS=rs0             # the operator names the config set "cfg"; the shard set is ours to name
K8S_USERS_SECRET=lab-secrets # system users, made by ./run.sh from .secrets/ (never the operator's random ones)
K8S_MONGOD_PORT=27017
K8S_EXPORTER_PORT=9216
# The exporter sidecar's budget, requests = limits, carved out of the member's CPUs (k8s/README.md
# "Resources"); why 250m: k8s/README.md "Exporter CPU".
K8S_EXPORTER_CPU_M=250
K8S_EXPORTER_MEM=128Mi

# k8s_member_pod INDEX: the pod of shard member INDEX (<cluster>-<rs>-<i>, the operator's names);
# k8s_shard_pods: every shard member's, one a line.
k8s_member_pod() { echo "$K8S_CLUSTER-$K8S_SHARD_RS-$1"; }
k8s_shard_pods() {
  local i n
  n=$(topology_services shard | wc -l) # once: a loop condition would read the table every turn
  for ((i = 0; i < n; i++)); do k8s_member_pod "$i"; done
}

# k8s_engine_refusal ENGINE: empty when the operator can run the engine, else one line saying why
# (what it runs, and where that was read: k8s/README.md "Engines" and the pins).
k8s_engine_refusal() {
  local engine=$1 image line server_engine
  image=$(engine_field "$engine" image)
  line=$(engine_field "$engine" server_line)
  server_engine=$(engine_field "$engine" server_engine)
  if [[ $image != percona/percona-server-mongodb:* ]]; then
    echo "engine '$engine' runs $image; the Percona Operator runs only Percona Server for MongoDB images (percona/percona-server-mongodb)"
  elif [[ ! $line =~ ^(6\.0|7\.0|8\.0)$ ]]; then
    echo "engine '$engine' is MongoDB $line; the Percona Operator $PSMDB_OPERATOR_VERSION runs only 6.0, 7.0 and 8.0"
  elif [[ ! $server_engine =~ ^(wiredTiger|inMemory)$ ]]; then
    echo "engine '$engine' uses the $server_engine storage engine; the Percona Operator runs only wiredTiger and inMemory"
  else
    k8s_storage_refusal "$engine" # its storage declaration, flag by flag (k8s_storage_parse)
  fi
}

# k8s_server_image ENGINE: the server image the CR runs: a line's floating tag becomes the pinned
# exact build (k8s/README.md, the pins); a row naming an exact tag or digest keeps it.
k8s_server_image() {
  local image line pin dig digest
  image=$(engine_field "$1" image)
  line=$(engine_field "$1" server_line)
  [[ $image == "percona/percona-server-mongodb:$line" ]] || { echo "$image"; return; }
  pin=PSMDB_IMAGE_${line//./} dig=PSMDB_DIGEST_${line//./}
  image=${!pin:-} digest=${!dig:-}
  [[ -n $image ]] || { echo "percona/percona-server-mongodb:$line"; return; }
  echo "$image${digest:+@$digest}"
}

# k8s_memory COMPOSE_MEM: a Compose memory size (1536m, 2g) as a Kubernetes quantity (MiB/GiB:
# Docker's m and g are binary units).
k8s_memory() {
  case $1 in
    *[mM]) echo "${1%?}Mi" ;;
    *[gG]) echo "${1%?}Gi" ;;
    *) echo "$1" ;;
  esac
}

# k8s_cache_ratio ENGINE_WORD CACHE_GB MEM: the ratio that makes the operator pass exactly
# CACHE_GB (its formulas and floor: k8s/README.md "Cache sizes").
k8s_cache_ratio() {
  local word=$1 cache=$2 mib=$(($(mem_bytes "$3") >> 20))
  awk -v w="$word" -v c="$cache" -v m="$mib" 'BEGIN {
    base = (w == "wiredTiger") ? (m - 1024) / 1024 : m / 1024
    if (base <= 0) { print "0.5"; exit }   # below 1 GiB the operator uses its 0.25 GB floor
    r = c / base; if (r > 1) r = 1
    # rounded up in the 6th decimal so the operator floor()s to the profile value, not under it
    printf "%.6f\n", int(r * 1000000 + 0.999999) / 1000000 }'
}

# k8s_exporter_sidecar INDENT IMAGE: a member's sidecars and their volumes: the lab's exporter
# (images/mongodb-exporter: the 1 s deadline fix) in the pod of every mongod and mongos, talking to
# its own member only, with the flags of compose/monitoring.yml. Its password is a file from the
# users Secret, as on Compose.
k8s_exporter_sidecar() {
  sed "s/^/$1/" <<YAML
sidecars:
  - name: lab-exporter
    image: $2
    args:
      - --password-file=/run/lab-secrets/exporter-password
      - --
      - --mongodb.uri=mongodb://127.0.0.1:$K8S_MONGOD_PORT/admin
      - --mongodb.user=clusterMonitor
      - --mongodb.global-conn-pool
      - --mongodb.direct-connect
      - --collector.diagnosticdata
      - --collector.replicasetstatus
      - --compatible-mode
      - --log.level=warn
    ports:
      - name: lab-metrics
        containerPort: $K8S_EXPORTER_PORT
    resources:
      requests: {cpu: ${K8S_EXPORTER_CPU_M}m, memory: $K8S_EXPORTER_MEM}
      limits: {cpu: ${K8S_EXPORTER_CPU_M}m, memory: $K8S_EXPORTER_MEM}
    volumeMounts:
      - name: lab-exporter-password
        mountPath: /run/lab-secrets
        readOnly: true
sidecarVolumes:
  - name: lab-exporter-password
    secret:
      secretName: $K8S_USERS_SECRET
      defaultMode: 0440
      items:
        - key: MONGODB_CLUSTER_MONITOR_PASSWORD
          path: exporter-password
YAML
}

# k8s_placement INDENT ROLE PLACEMENT: one member per node (PLACEMENT=dedicated: nodes labelled
# lab.role=ROLE), and no node shared with another member of any engine's lab cluster (why
# affinity.advanced: k8s/README.md "Isolation"). PLACEMENT=shared: too few nodes, anti-affinity off.
k8s_placement() {
  if [[ $3 == dedicated ]]; then
    cat <<YAML
nodeSelector:
  lab.role: $2
affinity:
  advanced:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: percona-server-mongodb
          namespaceSelector:
            matchExpressions:
              - {key: lab.engine, operator: Exists}
YAML
  else
    printf 'affinity:\n  antiAffinityTopologyKey: none\n'
  fi | sed "s/^/$1/"
}

# k8s_member_cpu CPUS: the mongod/mongos container's CPUs when the exporter sidecar's budget comes
# out of the profile's (millicores): the pod asks for CPUS in all.
k8s_member_cpu() {
  awk -v c="$1" -v e="$K8S_EXPORTER_CPU_M" 'BEGIN { m = int(c * 1000 + 0.5) - e; if (m < 100) m = 100; printf "%dm\n", m }'
}

# k8s_resources INDENT CPUS MEM: requests = limits, so the pod is Guaranteed (QoS) and the cache
# size, computed from the limit, is what the profile says.
k8s_resources() {
  local mem
  mem=$(k8s_memory "$3")
  sed "s/^/$1/" <<YAML
resources:
  requests: {cpu: "$2", memory: $mem}
  limits: {cpu: "$2", memory: $mem}
YAML
}

# k8s_storage_args ENGINE ROLE: the storage flags of one role (data: the shard members, cfg: the
# config servers) as compose/engines/<engine>.yml declares them (x-storage-data / x-storage-cfg),
# the one declaration Compose runs as is and the custom resource is rendered from; a ${VAR...}
# reference is kept as $VAR (the profile's cache: the CACHE_GB k8s_storage is given).
k8s_storage_args() {
  local f=$LAB_ROOT/compose/engines/$1.yml
  [[ -f $f ]] || { echo "engine '$1' has no compose/engines/$1.yml (its storage declaration)" >&2; return 1; }
  awk -v key="x-storage-$2:" '$1 == key { getline; sub(/^ *LAB_STORAGE_ARGS: */, ""); print; exit }' "$f" |
    sed 's/\${\([A-Za-z_][A-Za-z_0-9]*\)[^}]*}/$\1/g'
}

# k8s_storage_parse ENGINE ROLE: the role's flags as the operator's storage fields, or
# K8S_STORAGE_WHY naming the first flag it cannot express. The fields of operator v1.23.0
# (pkg/apis/psmdb/v1/psmdb_types.go MongodSpecStorage: engine, directoryPerDB, syncPeriodSecs,
# wiredTiger.{engineConfig.{cacheSizeRatio,directoryForIndexes,journalCompressor},
# collectionConfig.blockCompressor, indexConfig.prefixCompression}, inMemory.engineConfig.
# inMemorySizeRatio; mmapv1 is rejected) and the mongod flags it turns them into
# (pkg/psmdb/container.go: --storageEngine, --wiredTigerCacheSizeGB, --inMemorySizeGB,
# --wiredTigerCollectionBlockCompressor, --wiredTigerJournalCompressor,
# --wiredTigerDirectoryForIndexes, --wiredTigerIndexPrefixCompression=true, --directoryperdb,
# --syncdelay). A storage flag in `configuration` (mongod.conf) would be overridden by those the
# operator passes or duplicate them, so any other flag is refused, never dropped.
k8s_storage_parse() {
  local args flag val i
  K8S_STORAGE_WORD="" K8S_STORAGE_WHY="" K8S_STORAGE_WT_ENGINE="" K8S_STORAGE_WT_COLL="" K8S_STORAGE_WT_INDEX="" K8S_STORAGE_TOP=""
  args=$(k8s_storage_args "$1" "$2") || { K8S_STORAGE_WHY="engine '$1' has no compose/engines/$1.yml (its storage declaration)"; return 1; }
  local -a a=()
  read -r -a a <<<"$args"
  for ((i = 0; i < ${#a[@]}; i++)); do
    flag=${a[i]} val=""
    # the value: after = or the next word (the two switches take none)
    if [[ $flag == --*=* ]]; then
      val=${flag#*=} flag=${flag%%=*}
    elif [[ ! $flag =~ ^--(wiredTigerDirectoryForIndexes|directoryperdb)$ ]]; then
      val=${a[i + 1]:-} i=$((i + 1))
    fi
    case $flag in
      --storageEngine) K8S_STORAGE_WORD=$val ;;
      --wiredTigerCacheSizeGB | --inMemorySizeGB) ;; # the profile's cache: cacheSizeRatio / inMemorySizeRatio
      --wiredTigerCollectionBlockCompressor) K8S_STORAGE_WT_COLL+="blockCompressor: $val"$'\n' ;;
      --wiredTigerJournalCompressor) K8S_STORAGE_WT_ENGINE+="journalCompressor: $val"$'\n' ;;
      --wiredTigerDirectoryForIndexes) K8S_STORAGE_WT_ENGINE+="directoryForIndexes: true"$'\n' ;;
      --directoryperdb) K8S_STORAGE_TOP+="directoryPerDB: true"$'\n' ;;
      --syncdelay) K8S_STORAGE_TOP+="syncPeriodSecs: $val"$'\n' ;;
      --wiredTigerIndexPrefixCompression) [[ $val == true ]] && K8S_STORAGE_WT_INDEX+="prefixCompression: true"$'\n' ||
        K8S_STORAGE_WHY="engine '$1': storage flag $flag $val cannot be expressed by the Percona Operator (its indexConfig.prefixCompression can only turn it on)" ;;
      *) K8S_STORAGE_WHY="engine '$1': storage flag $flag (compose/engines/$1.yml) cannot be expressed by the Percona Operator $PSMDB_OPERATOR_VERSION: it is none of the CR's storage fields, and in configuration it would not reach mongod as declared" ;;
    esac
    [[ -z $K8S_STORAGE_WHY ]] || return 1
  done
  [[ $K8S_STORAGE_WORD =~ ^(wiredTiger|inMemory)$ ]] ||
    { K8S_STORAGE_WHY="engine '$1' uses the ${K8S_STORAGE_WORD:-(no --storageEngine)} storage engine on its $2 members; the Percona Operator runs only wiredTiger and inMemory"; return 1; }
  if [[ $K8S_STORAGE_WORD == inMemory && -n $K8S_STORAGE_WT_ENGINE$K8S_STORAGE_WT_COLL$K8S_STORAGE_WT_INDEX ]]; then
    K8S_STORAGE_WHY="engine '$1': WiredTiger flags on an inMemory member"
    return 1
  fi
}

# k8s_storage_refusal ENGINE: empty when every role's storage flags are expressible, else one line.
k8s_storage_refusal() {
  local role
  for role in data cfg; do
    k8s_storage_parse "$1" "$role" || { echo "$K8S_STORAGE_WHY"; return 0; }
  done
}

# k8s_storage INDENT ENGINE ROLE CACHE_GB MEM: the role's storage block of the custom resource,
# from the engine's storage declaration (k8s_storage_parse), the cache as the ratio that makes the
# operator pass exactly CACHE_GB (k8s_cache_ratio). A flag it cannot express stops it (stderr,
# status 1, nothing printed); k8s_engine_refusal refuses such an engine before anything renders.
k8s_storage() {
  local pad=$1 ratio section
  k8s_storage_parse "$2" "$3" || { echo "error: $K8S_STORAGE_WHY" >&2; return 1; }
  ratio=$(k8s_cache_ratio "$K8S_STORAGE_WORD" "$4" "$5")
  {
    printf 'storage:\n  engine: %s\n' "$K8S_STORAGE_WORD"
    printf '%s' "$K8S_STORAGE_TOP" | sed 's/^/  /'
    if [[ $K8S_STORAGE_WORD == inMemory ]]; then
      printf '  inMemory:\n    engineConfig:\n      inMemorySizeRatio: %s\n' "$ratio"
    else
      printf '  wiredTiger:\n    engineConfig:\n      cacheSizeRatio: %s\n' "$ratio"
      printf '%s' "$K8S_STORAGE_WT_ENGINE" | sed 's/^/      /'
      for section in collectionConfig:"$K8S_STORAGE_WT_COLL" indexConfig:"$K8S_STORAGE_WT_INDEX"; do
        [[ -n ${section#*:} ]] || continue
        echo "    ${section%%:*}:"
        printf '%s' "${section#*:}" | sed 's/^/      /'
      done
    fi
  } | sed "s/^/$pad/"
}

# k8s_volume INDENT KEEPS_DATA SIZE STORAGE_CLASS: a PVC per member, or emptyDir for an engine
# that keeps no data on disk (inMemory: the operator still wants a volumeSpec).
k8s_volume() {
  if [[ $2 != yes ]]; then
    printf 'volumeSpec:\n  emptyDir: {}\n'
  else
    cat <<YAML
volumeSpec:
  persistentVolumeClaim:
${4:+    storageClassName: $4
}    accessModes: [ReadWriteOnce]
    resources:
      requests:
        storage: $3
YAML
  fi | sed "s/^/$1/"
}

# k8s_replset_spec ROLE NODE_ROLE KEEPS_DATA: a replica set's members (ROLE data: the shard's,
# cfg: the config servers'; their profile columns data_* or cfg_*) below its name and size. Called
# by k8s_cluster_manifest only: engine, profile, placement, size, class and exporter_image are its.
# Both sets' mongod configuration: encryption at rest off. The operator turns it on for wiredTiger
# unless told (container.go: --enableEncryption), which the Compose lab's engines do not do, so WT
# numbers would not compare. inMemory rejects enableEncryption: true but takes false.
k8s_replset_spec() {
  local mem cpus cache
  mem=$(profile_field "$profile" "$1_mem") cpus=$(profile_field "$profile" "$1_cpus")
  cache=$(profile_field "$profile" "$1_cache_gb")
  cat <<YAML
      configuration: |
        security:
          enableEncryption: false
$(k8s_storage '      ' "$engine" "$1" "$cache" "$mem")
$(k8s_resources '      ' "$(k8s_member_cpu "$cpus")" "$mem")
$(k8s_placement '      ' "$2" "$placement")
$(k8s_volume '      ' "$3" "$size" "$class")
$(k8s_exporter_sidecar '      ' "$exporter_image")
YAML
}

# k8s_cluster_manifest ENGINE PROFILE MONGOS NAMESPACE PLACEMENT EXPORTER_IMAGE STORAGE_SIZE STORAGE_CLASS
k8s_cluster_manifest() {
  local engine=$1 profile=$2 mongos=$3 ns=$4 placement=$5 exporter_image=$6 size=$7 class=$8
  local image cfg_mem cfg_cpus shard_size cfg_size
  image=$(k8s_server_image "$engine")
  cfg_mem=$(profile_field "$profile" cfg_mem) cfg_cpus=$(profile_field "$profile" cfg_cpus)
  shard_size=$(topology_services shard | wc -l | tr -d ' ')
  cfg_size=$(topology_services config | wc -l | tr -d ' ')
  cat <<YAML
---
apiVersion: psmdb.percona.com/v1
kind: PerconaServerMongoDB
metadata:
  name: $K8S_CLUSTER
  namespace: $ns
  labels:
    lab.engine: $engine
    lab.profile: $profile
spec:
  crVersion: $PSMDB_CR_VERSION
  # the exact build the operator release was tested with (k8s_server_image), one for every node
  image: $image
  imagePullPolicy: IfNotPresent
  # A lab, not production: no TLS (the Compose lab has none; TLS off needs the unsafe flag),
  # no version-service upgrades mid-comparison, no backup agent, no log-collector sidecar,
  # no PMM (the lab's own exporter and Prometheus instead).
  unsafeFlags:
    tls: true
  tls:
    mode: disabled
  upgradeOptions:
    apply: disabled
  secrets:
    users: $K8S_USERS_SECRET
  pmm:
    enabled: false
    image: $PSMDB_PMM_IMAGE
  logcollector:
    enabled: false
  backup:
    enabled: false
    image: $PSMDB_BACKUP_IMAGE
  replsets:
    - name: $K8S_SHARD_RS
      size: $shard_size
$(k8s_replset_spec data shard "$(engine_field "$engine" keeps_data)")
  sharding:
    enabled: true
    balancer:
      enabled: true
    configsvrReplSet:
      size: $cfg_size
$(k8s_replset_spec cfg cfg yes)
    mongos:
      size: $mongos
$(k8s_resources '      ' "$(k8s_member_cpu "$cfg_cpus")" "$cfg_mem")
$(k8s_placement '      ' mongos "$placement")
$(k8s_exporter_sidecar '      ' "$exporter_image")
YAML
}

# k8s_namespace_manifest NAMESPACE ENGINE
k8s_namespace_manifest() {
  cat <<YAML
---
apiVersion: v1
kind: Namespace
metadata:
  name: $1
  labels:
    lab.engine: $2
YAML
}
