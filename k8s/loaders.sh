# shellcheck shell=bash
# ./run.sh NAME --on k8s [--loaders N]: the experiment's loader as an Indexed Job of N pods on the
# client nodes (one per node: topologySpreadConstraints on the host name), each running its share
# of the clients; k8s/pod/loader-pod.js holds them at a start barrier (served by pod 0, reached
# through the Job's headless Service) until all have reached the cluster, and prints its results
# into its log; ./run.sh collects the logs into results/<NAME>/<engine>/<UTC>-k8s/pod-<i>/ and the
# report reads that folder as one run (same --group: percentiles from the merged histograms).
# Sourced by lib/k8s.sh.

K8S_LOADERS=1
K8S_LOADER_METRICS_PORT=9464 # the loader's --metrics-port, scraped as job "loader"
K8S_BARRIER_PORT=7070
K8S_VIA=primary

# k8s_loader_image: the loader image (images/loader) as pushed to --registry, tagged by commit.
k8s_loader_image() {
  local tag
  tag=$(git -C "$LAB_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo dev)
  echo "${K8S_REGISTRY:+$K8S_REGISTRY/}lab-loader:$tag"
}

# k8s_target_uri VIA NAMESPACE: the shard's replica set (as --via primary does on Compose: the
# loader talks to the shard's primary, as seeds/004 did) or the mongos Service.
k8s_target_uri() {
  local via=$1 ns=$2 hosts="" i n
  if [[ $via == mongos ]]; then
    echo "mongodb://$K8S_CLUSTER-mongos.$ns.svc.cluster.local:$K8S_MONGOD_PORT/"
    return
  fi
  n=$(topology_services shard | wc -l | tr -d ' ')
  for ((i = 0; i < n; i++)); do hosts+="${hosts:+,}$K8S_CLUSTER-$K8S_SHARD_RS-$i.$K8S_CLUSTER-$K8S_SHARD_RS.$ns.svc.cluster.local:$K8S_MONGOD_PORT"; done
  echo "mongodb://$hosts/?replicaSet=$K8S_SHARD_RS"
}

# k8s_yaml_args INDENT ARGS...: a YAML list of strings (JSON-quoted, which YAML reads as is).
k8s_yaml_args() {
  local pad=$1 a
  shift
  for a in "$@"; do
    printf '%s- %s\n' "$pad" "$(printf '%s' "$a" | jq -Rs .)"
  done
}

# k8s_loaders_manifest NAMESPACE JOB EXPERIMENT N IMAGE URI PLACEMENT LOADER_ARGS...
k8s_loaders_manifest() {
  local ns=$1 job=$2 exp=$3 n=$4 image=$5 uri=$6 placement=$7 selector=""
  shift 7
  [[ $placement == dedicated ]] && selector=$'      nodeSelector:\n        lab.role: client'
  k8s_file_configmap "$job" "$ns" "$LAB_ROOT/k8s/pod/barrier.js" "$LAB_ROOT/k8s/pod/loader-pod.js" "$LAB_ROOT/experiments/$exp.yaml"
  cat <<YAML
---
# Stable DNS names <job>-<index>.<job> for the pods (the barrier is served by <job>-0); the
# addresses are published before the pods are ready, as the barrier is what makes them ready.
apiVersion: v1
kind: Service
metadata:
  name: $job
  namespace: $ns
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector:
    batch.kubernetes.io/job-name: $job
  ports:
    - {name: barrier, port: $K8S_BARRIER_PORT}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: $job
  namespace: $ns
  labels:
    lab.experiment: $exp
spec:
  completionMode: Indexed
  completions: $n
  parallelism: $n
  # a failed pod is not retried: its share of the run would start late, outside the barrier
  backoffLimit: 0
  # kept a day, so ./run.sh can read every pod's log (the results travel in it)
  ttlSecondsAfterFinished: 86400
  template:
    metadata:
      labels:
        lab.experiment: $exp
        app.kubernetes.io/name: lab-loader
    spec:
      subdomain: $job
      restartPolicy: Never
$selector
      # one loader per client node: two pods on one node would share its cores and NIC
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: $([[ $placement == dedicated ]] && echo DoNotSchedule || echo ScheduleAnyway)
          labelSelector:
            matchLabels:
              batch.kubernetes.io/job-name: $job
      containers:
        - name: loader
          image: $image
          command: [node, /lab-k8s/loader-pod.js, --]
          args:
$(k8s_yaml_args '            ' "$@")
          env:
            - name: LAB_INDEX
              valueFrom:
                fieldRef: {fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}
            - {name: LAB_LOADERS, value: "$n"}
            - {name: LAB_BARRIER_HOST, value: "$job-0.$job"}
            - {name: LAB_BARRIER_PORT, value: "$K8S_BARRIER_PORT"}
            - {name: LAB_EXPERIMENT_FILE, value: "/lab-k8s/$exp.yaml"}
            - {name: LAB_URI, value: "$uri"}
            - {name: LAB_USERNAME, value: databaseAdmin}
            - {name: LAB_PASSWORD_FILE, value: /run/lab-secrets/password}
            - {name: LAB_SCRATCH, value: /tmp/lab}
          ports:
            - {name: barrier, containerPort: $K8S_BARRIER_PORT}
            - {name: lab-loader, containerPort: $K8S_LOADER_METRICS_PORT}
          volumeMounts:
            - {name: pod, mountPath: /lab-k8s, readOnly: true}
            - {name: password, mountPath: /run/lab-secrets, readOnly: true}
            - {name: scratch, mountPath: /tmp/lab}
      volumes:
        - name: pod
          configMap: {name: $job}
        - name: password
          secret:
            secretName: $K8S_USERS_SECRET
            defaultMode: 0440
            items:
              - {key: MONGODB_DATABASE_ADMIN_PASSWORD, path: password}
        - name: scratch
          emptyDir: {}
YAML
}

# k8s_split_clients TOTAL_LIST N: each pod's share of every step (the totals must divide by N,
# so all pods run the same parameters and the report merges them).
k8s_split_clients() {
  local list=$1 n=$2 out="" c
  local -a steps
  [[ $list =~ ^[0-9]+(,[0-9]+)*$ ]] || die_usage "--clients must be a list of client counts like 2,4,6 (got '$list')"
  IFS=, read -r -a steps <<<"$list"
  for c in "${steps[@]}"; do
    ((c % n == 0 && c > 0)) || die_usage "--clients $list with --loaders $n: every step must be a multiple of $n (each pod runs an equal share)"
    out+="${out:+,}$((c / n))"
  done
  echo "$out"
}

# k8s_run_experiment NAME ARGS...: ./run.sh NAME --on k8s [--loaders N] [k8s flags] [loader flags].
k8s_run_experiment() {
  local name=$1 on="" clients="" group stamp job run_dir logs rc=0
  shift
  local args=()
  k8s_parse_flags "$@"
  set -- "${K8S_REST[@]}"
  while (($#)); do
    case $1 in
      --on | --on=* | --loaders | --loaders=* | --clients | --clients=* | --via | --via=* | --uri | --uri=* | \
        --results-dir | --results-dir=* | --group | --group=*)
        split_flag "$@"
        [[ -n $VALUE ]] || die_usage "$FLAG needs a value"
        case $FLAG in
          --on) on=$VALUE ;;
          --loaders) K8S_LOADERS=$VALUE ;;
          --clients) clients=$VALUE ;;
          --via) K8S_VIA=$VALUE ;;
          --uri) die_usage "--uri drives a cluster from this host; with --on k8s the loader pods connect to the cluster in $K8S_NAMESPACE" ;;
          --results-dir | --group) die_usage "$FLAG is set by ./run.sh for --on k8s runs (one group per Job, results under results/)" ;;
        esac
        shift "$SHIFT_BY"
        ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [[ $on == k8s ]] || die_usage "--on takes k8s (got '$on')"
  [[ $K8S_LOADERS =~ ^[1-9][0-9]?$ ]] || die_usage "--loaders must be 1 to 99 (got '$K8S_LOADERS')"
  [[ $K8S_VIA =~ ^(primary|mongos)$ ]] || die_usage "--via needs primary or mongos (got '$K8S_VIA')"
  ((K8S_LOADERS == 1)) || [[ -n $clients ]] || die_usage "--loaders $K8S_LOADERS needs --clients (the total per step, e.g. --clients $((K8S_LOADERS * 2)),$((K8S_LOADERS * 4))): each pod runs its share"
  k8s_check_engine
  [[ -n $K8S_REGISTRY ]] || die_usage "--on k8s needs --registry REG: the loader pods pull the lab's loader image (images/loader) from there"
  [[ -z $clients ]] || args+=(--clients "$(k8s_split_clients "$clients" "$K8S_LOADERS")")
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  group="k8s-$name-$ENGINE-$stamp"
  args=("$name" --engine "$ENGINE" --group "$group" --profile "$PROFILE" --metrics-host 0.0.0.0 --metrics-port "$K8S_LOADER_METRICS_PORT" "${args[@]}")
  # The loader's own flag check, here, before anything starts (as for Compose runs).
  if command -v node >/dev/null 2>&1 && [[ -d $LAB_ROOT/loader/node_modules ]]; then
    node "$LAB_ROOT/loader/bin/lab-loader.js" check "${args[@]}" --uri "$(k8s_target_uri "$K8S_VIA" "$K8S_NAMESPACE")" >/dev/null || exit $?
  fi
  k8s_require_kubectl
  if [[ $K8S_PLACEMENT == auto ]]; then
    K8S_PLACEMENT=dedicated
    if [[ $DRY_RUN != 1 ]] && (($(kube_probe get nodes -l lab.role=client -o name 2>/dev/null | wc -l) < K8S_LOADERS)); then
      K8S_PLACEMENT=shared
      warn "fewer than $K8S_LOADERS nodes labelled lab.role=client: loader pods may share nodes (kubectl label node NODE lab.role=client)"
    fi
  fi
  job="lab-$(tr '[:upper:]' '[:lower:]' <<<"$name-$stamp" | tr -c 'a-z0-9\n-' '-')"
  job=${job:0:52}
  k8s_push_image "$LAB_ROOT" "$LAB_ROOT/images/loader/Dockerfile" "$(k8s_loader_image)"
  k8s_loaders_manifest "$K8S_NAMESPACE" "$job" "$name" "$K8S_LOADERS" "$(k8s_loader_image)" \
    "$(k8s_target_uri "$K8S_VIA" "$K8S_NAMESPACE")" "$K8S_PLACEMENT" "${args[@]}" | kube_apply_stdin
  info "$K8S_LOADERS loader pod(s) started as Job $job in $K8S_NAMESPACE (group $group)"
  # Complete or Failed, whichever comes first; the logs are read either way (a failed pod's log
  # says why).
  kube -n "$K8S_NAMESPACE" wait "job/$job" --for=condition=complete --timeout=24h || rc=$?
  run_dir="$LAB_ROOT/results/$name/$ENGINE/$stamp-k8s"
  if [[ $DRY_RUN == 1 ]]; then
    printf '+ %s > LOGS\n' "$(quote_cmd kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" logs -l "batch.kubernetes.io/job-name=$job" --prefix --tail=-1 --max-log-requests="$K8S_LOADERS")"
    printf '+ %s\n' "$(quote_cmd node k8s/pod/collect.js --into "${run_dir#"$LAB_ROOT"/}" --pods "$K8S_LOADERS" LOGS)"
    printf '+ %s\n' "$(quote_cmd node report/bin/lab-report.js "${run_dir#"$LAB_ROOT"/}")"
    return 0
  fi
  logs=$(mktemp)
  kube_probe -n "$K8S_NAMESPACE" logs -l "batch.kubernetes.io/job-name=$job" --prefix --tail=-1 --max-log-requests="$K8S_LOADERS" >"$logs" || rc=1
  mkdir -p "$run_dir"
  node "$LAB_ROOT/k8s/pod/collect.js" --into "$run_dir" --pods "$K8S_LOADERS" "$logs" >/dev/null || rc=1
  rm -f "$logs"
  info "results: ${run_dir#"$LAB_ROOT"/} (pod-0 .. pod-$((K8S_LOADERS - 1)): one run, group $group)"
  node "$LAB_ROOT/report/bin/lab-report.js" "$run_dir" || rc=1
  return "$rc"
}
