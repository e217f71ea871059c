# shellcheck shell=bash
# ./run.sh NAME --on k8s [--loaders N]: the experiment's loader as an Indexed Job of N pods, each
# running its share of the clients; how they start together, hand their results over, fail and
# are collected as one run: k8s/README.md "Loaders as pods". Sourced by lib/k8s.sh.

K8S_LOADERS=1
K8S_LOADER_METRICS_PORT=9464 # the loader's --metrics-port, scraped as job "loader"
K8S_BARRIER_PORT=7070
K8S_VIA=primary
K8S_POLL_S=${LAB_K8S_POLL_S:-5}           # how often ./run.sh looks at the loader pods
K8S_STOP_WAIT_S=${LAB_K8S_STOP_WAIT_S:-40} # after a failure: how long the others get to hand over
K8S_SCRATCH=/tmp/lab                      # the loader pod's scratch folder (loader-pod.js LAB_SCRATCH)

# k8s_loader_image: the loader image (images/loader) as pushed to --registry, tagged by commit.
k8s_loader_image() {
  local tag
  tag=$(git -C "$LAB_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo dev)
  echo "${K8S_REGISTRY:+$K8S_REGISTRY/}lab-loader:$tag"
}

# k8s_target_uri VIA NAMESPACE: the shard's replica set (as --via primary does on Compose: the
# loader talks to the shard's primary, as seeds/004 did) or the mongos Service.
k8s_target_uri() {
  local via=$1 ns=$2 hosts="" pod
  if [[ $via == mongos ]]; then
    echo "mongodb://$K8S_CLUSTER-mongos.$ns.svc.cluster.local:$K8S_MONGOD_PORT/"
    return
  fi
  for pod in $(k8s_shard_pods); do hosts+="${hosts:+,}$pod.$K8S_CLUSTER-$K8S_SHARD_RS.$ns.svc.cluster.local:$K8S_MONGOD_PORT"; done
  echo "mongodb://$hosts/?replicaSet=$K8S_SHARD_RS"
}

# k8s_yaml_args INDENT ARGS...: a YAML list of strings (JSON-quoted, which YAML reads as is).
k8s_yaml_args() {
  jq -nr --arg pad "$1" '$ARGS.positional[] | $pad + "- " + tojson' --args -- "${@:2}"
}

# k8s_loaders_manifest NAMESPACE JOB EXPERIMENT N IMAGE URI PLACEMENT LOADER_ARGS...
k8s_loaders_manifest() {
  local ns=$1 job=$2 exp=$3 n=$4 image=$5 uri=$6 placement=$7 selector=""
  shift 7
  # dedicated: client nodes only, and none shared with another lab loader pod of any engine's
  # namespace (a second engine's run on the same cluster would otherwise share its cores)
  [[ $placement == dedicated ]] && selector=$'      nodeSelector:\n        lab.role: client\n      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchLabels: {app.kubernetes.io/name: lab-loader}\n              namespaceSelector:\n                matchExpressions:\n                  - {key: lab.engine, operator: Exists}'
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
  # A failed pod is not retried (its share would start late, outside the barrier), and it fails
  # only its own index: the other pods run on (backoffLimit: 0 would terminate them, their
  # results with them). ./run.sh names the failure and stops the others itself.
  backoffLimitPerIndex: 0
  # kept a day, so a failed pod's log (the one place its partial results are) can be read
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
            - {name: LAB_SCRATCH, value: $K8S_SCRATCH}
          # ready = results waiting to be collected (loader-pod.js writes the bundle whole)
          readinessProbe:
            exec: {command: [test, -e, $K8S_SCRATCH/out/results.ndjson]}
            periodSeconds: 2
          ports:
            - {name: barrier, containerPort: $K8S_BARRIER_PORT}
            - {name: lab-loader, containerPort: $K8S_LOADER_METRICS_PORT}
          volumeMounts:
            - {name: pod, mountPath: /lab-k8s, readOnly: true}
            - {name: password, mountPath: /run/lab-secrets, readOnly: true}
            - {name: scratch, mountPath: $K8S_SCRATCH}
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

# k8s_run_experiment NAME ARGS...: ./run.sh NAME --on k8s [--loaders N] [k8s flags] [loader flags].
k8s_run_experiment() {
  local name=$1 on="" sla="" group stamp job run_dir rc=0
  shift
  local args=()
  k8s_parse_flags "$@"
  set -- "${K8S_REST[@]}"
  while (($#)); do
    case $1 in
      --on | --on=* | --loaders | --loaders=* | --via | --via=* | --uri | --uri=* | \
        --results-dir | --results-dir=* | --group | --group=*)
        flag_value "$name" "$@"
        case $FLAG in
          --on) on=$VALUE ;;
          --loaders) K8S_LOADERS=$VALUE ;;
          --via) K8S_VIA=$VALUE ;;
          --uri) die_usage "--uri drives a cluster from this host; with --on k8s the loader pods connect to the cluster in $K8S_NAMESPACE" ;;
          --results-dir | --group) die_usage "$FLAG is set by ./run.sh for --on k8s runs (one group per Job, results under results/)" ;;
        esac
        shift "$SHIFT_BY"
        ;;
      --sla | --sla=*) sla=1; args+=("$1"); shift ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [[ $on == k8s ]] || die_usage "--on takes k8s (got '$on')"
  [[ $K8S_LOADERS =~ ^[1-9][0-9]?$ ]] || die_usage "--loaders must be 1 to 99 (got '$K8S_LOADERS')"
  [[ $K8S_VIA =~ ^(primary|mongos)$ ]] || die_usage "--via needs primary or mongos (got '$K8S_VIA')"
  # A capacity search steers one loader's rate by the latency it sees; N pods would each search on
  # their own, and no one rate would be the cluster's answer.
  ((K8S_LOADERS == 1)) || [[ -z $sla ]] ||
    die_usage "--sla searches one loader's rate: run it with --loaders 1 (--loaders $K8S_LOADERS would run $K8S_LOADERS searches, each on its own)"
  k8s_check_engine
  [[ -n $K8S_REGISTRY ]] || die_usage "--on k8s needs --registry REG: the loader pods pull the lab's loader image (images/loader) from there"
  # Each pod runs 1/N of every step's clients: the loader splits them (and refuses steps that do
  # not divide), from --clients as given or the experiment file's.
  ((K8S_LOADERS == 1)) || args+=(--share-of "$K8S_LOADERS")
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
  run_dir="$LAB_ROOT/results/$name/$ENGINE/$stamp-k8s"
  if [[ $DRY_RUN == 1 ]]; then
    printf '+ %s\n' "(every ${K8S_POLL_S} s) $(quote_cmd kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" get pods -l "batch.kubernetes.io/job-name=$job" -o json)"
    printf '+ %s\n' "(each ready pod) $(quote_cmd kubectl ${K8S_CONTEXT:+--context "$K8S_CONTEXT"} -n "$K8S_NAMESPACE" exec POD -c loader -- cat "$K8S_SCRATCH/out/results.ndjson") > BUNDLE"
    printf '+ %s\n' "$(quote_cmd node k8s/pod/collect.js --into "${run_dir#"$LAB_ROOT"/}" --pods "$K8S_LOADERS" --meta META BUNDLE...)"
    printf '+ %s\n' "$(quote_cmd node report/bin/lab-report.js "${run_dir#"$LAB_ROOT"/}")"
    return 0
  fi
  k8s_watch_loaders "$job" "$K8S_LOADERS" "$run_dir" || rc=$?
  info "results: ${run_dir#"$LAB_ROOT"/} (pod-0 .. pod-$((K8S_LOADERS - 1)): one run, group $group)"
  node "$LAB_ROOT/report/bin/lab-report.js" "$run_dir" || rc=1
  return "$rc"
}

# k8s_loader_pods JOB: one line per pod of the Job: index, name, phase, ready (true|false), the
# loader container's exit code (or -).
k8s_loader_pods() {
  kube_probe -n "$K8S_NAMESPACE" get pods -l "batch.kubernetes.io/job-name=$1" -o json | jq -r '.items[] |
    (first(.status.containerStatuses[]? | select(.name == "loader")) // {}) as $c |
    [(.metadata.annotations["batch.kubernetes.io/job-completion-index"] // "-"), .metadata.name, (.status.phase // "Pending"),
     ($c.ready // false | tostring), ($c.state.terminated.exitCode // "-" | tostring)] | @tsv'
}

# k8s_last_log_lines POD: the pod's last log lines (its own messages, not its results), joined.
k8s_last_log_lines() {
  kube_probe -n "$K8S_NAMESPACE" logs "$1" -c loader --tail=200 2>/dev/null | grep -v '^LAB-RESULT' | tail -n 3 | tr '\n' '|' | sed 's/|$//; s/|/ | /g'
}

# k8s_server_meta: what the run measured on, for every summary.json ("k8s"): namespace, the pinned
# server image, and the image and image ID (the digest the node pulled) of every mongod and mongos.
k8s_server_meta() {
  local job=$1
  kube_probe -n "$K8S_NAMESPACE" get pods -l "app.kubernetes.io/instance=$K8S_CLUSTER" -o json 2>/dev/null |
    jq -s --arg ns "$K8S_NAMESPACE" --arg job "$job" --arg pinned "$(k8s_server_image "$ENGINE")" '
      ([(.[0].items // [])[] | . as $p | (.status.containerStatuses // [])[] | select(.name == "mongod" or .name == "mongos") |
        {key: $p.metadata.name, value: {image, image_id: .imageID, node: $p.spec.nodeName}}] | from_entries) as $m |
      {namespace: $ns, job: $job, server_image: $pinned, members: $m,
       one_build: (if ($m | length) == 0 then null else (([$m[].image_id] | unique | length) == 1) end)}'
}

# k8s_watch_loaders JOB N RUN_DIR: wait for the loader pods, naming a failed one and stopping the
# others (k8s/README.md "Loaders as pods", 4.); when every pod has failed or has its results
# waiting (ready), or K8S_STOP_WAIT_S after a failure, collect the bundles and the failed pods'
# logs into RUN_DIR and release the pods. Returns 1 when the run is not whole.
k8s_watch_loaders() {
  local job=$1 n=$2 run_dir=$3 rc=0 failed_at="" idx name phase ready code waiting failed tmp
  local -A reported=() stopped=()
  tmp=$(mktemp -d)
  while :; do
    waiting=0 failed=0
    while IFS=$'\t' read -r idx name phase ready code; do
      [[ -n $name ]] || continue
      if [[ $phase == Failed ]]; then
        failed=$((failed + 1))
        if [[ -z ${reported[$name]:-} ]]; then
          reported[$name]=1
          printf 'error: loader pod %s (index %s) failed with exit %s; last log lines: %s\n' "$name" "$idx" "$code" "$(k8s_last_log_lines "$name")" >&2
          [[ -n $failed_at ]] || failed_at=$SECONDS
        fi
      elif [[ $phase == Running && $ready == true ]]; then
        waiting=$((waiting + 1))
      elif [[ $phase == Running && -n $failed_at && -z ${stopped[$name]:-} ]]; then
        stopped[$name]=1
        kube -n "$K8S_NAMESPACE" exec "$name" -c loader -- touch "$K8S_SCRATCH/stop" >/dev/null 2>&1 ||
          warn "could not stop loader pod $name"
      fi
    done < <(k8s_loader_pods "$job")
    ((waiting + failed >= n)) && break
    if [[ -n $failed_at ]] && ((SECONDS - failed_at >= K8S_STOP_WAIT_S)); then
      warn "after ${K8S_STOP_WAIT_S} s, $waiting of $((n - failed)) other loader pod(s) had handed over their results; collecting those"
      break
    fi
    sleep "$K8S_POLL_S"
  done
  [[ -z $failed_at ]] || rc=1
  local files=() failed_args=()
  while IFS=$'\t' read -r idx name phase ready code; do
    [[ -n $name ]] || continue
    [[ $phase != Failed || ! $idx =~ ^[0-9]+$ || ! $code =~ ^-?[0-9]+$ ]] || failed_args+=(--failed "$idx:$code")
    if [[ $phase == Running && $ready == true ]]; then
      kube_probe -n "$K8S_NAMESPACE" exec "$name" -c loader -- cat "$K8S_SCRATCH/out/results.ndjson" >"$tmp/$name.ndjson" || rc=1
    else
      kube_probe -n "$K8S_NAMESPACE" logs "$name" -c loader --tail=-1 >"$tmp/$name.log" 2>/dev/null || true
    fi
  done < <(k8s_loader_pods "$job")
  k8s_server_meta "$job" >"$tmp/meta.json"
  if jq -e '.one_build == false' "$tmp/meta.json" >/dev/null 2>&1; then
    warn "the members ran different server builds: $(jq -r '[.members[] | .image_id] | unique | join(", ")' "$tmp/meta.json")"
  fi
  mkdir -p "$run_dir"
  shopt -s nullglob
  files=("$tmp"/*.ndjson "$tmp"/*.log)
  shopt -u nullglob
  node "$LAB_ROOT/k8s/pod/collect.js" --into "$run_dir" --pods "$n" --meta "$tmp/meta.json" "${failed_args[@]}" "${files[@]}" >/dev/null || rc=1
  # release the pods that waited for collection
  while IFS=$'\t' read -r idx name phase ready code; do
    [[ $phase == Running && $ready == true ]] || continue
    kube -n "$K8S_NAMESPACE" exec "$name" -c loader -- touch "$K8S_SCRATCH/out/collected" >/dev/null 2>&1 || true
  done < <(k8s_loader_pods "$job")
  rm -rf "$tmp"
  ((rc == 0)) || warn "the run is incomplete: ${run_dir#"$LAB_ROOT"/}/k8s-run.json says which loader pod ended how"
  return "$rc"
}
