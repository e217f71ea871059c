# shellcheck shell=bash
# Experiment verbs: ./run.sh experiment1|experiment2|experiment3 [flags] (seeds/004; the
# experiments themselves are data in experiments/*.yaml, the loader is loader/bin/lab-loader.js).
#   In a stack:  stands the engine's stack up if needed (verb_up), then
#                docker compose ... --profile loader run --rm --build --use-aliases loader EXP ...
#                on the stack network (--use-aliases: Prometheus finds it as loader:9464).
#   --uri URI:   no Docker at all; node loader/bin/lab-loader.js on this host against URI.
# Every flag is checked here before anything starts (exit 2); the loader checks them again.
# Exit codes: the loader's (0 complete, 1 runtime error or incomplete run, 130 interrupted).

# Where the stack's loader connects (--via), by service name, with the root password file that
# compose/loader.yml mounts from .secrets/<engine>/ (never on a command line).
#   primary (default): the shard's replica set, so the driver talks to its primary. seeds/004 did
#            this on purpose ("we did not want to exercise the mongos or the config servers"),
#            and the collection is not sharded, so mongos would only add a hop to every op.
#   mongos:  through the router, as an application of a sharded cluster would.
# The users exist on the shard too (compose/init/init.js), so both log in the same way.
declare -gA EXPERIMENT_STACK_URIS=(
  [primary]="mongodb://shard01-a:27017,shard01-b:27017,shard01-c:27017/?replicaSet=shard01"
  [mongos]="mongodb://mongos:27017/"
)
EXPERIMENT_SECRETS=/run/lab-secrets

experiment_flags_usage() {
  cat <<'USAGE'
  --docs N                experiment1: documents to insert (default 10000000)
  --preload-docs N        experiment2/3: documents loaded first, not measured (default 1000000)
  --clients LIST          client steps, e.g. 1,2,4,6 (default 1,2,3,4,5,6; experiment1: 1)
  --duration DUR          experiment2/3: length of each client step, e.g. 30s, 2m (default 2m)
  --rate N                pace at N ops/s in total; adds latency from the intended start
  --seed N                random generator seed (default 4, from the experiment file)
  --workers N             loader worker threads (default: min(clients, CPU cores))
  --server-selection-timeout DUR   give up on an unreachable server (default 10s)
  --stall-timeout DUR     stop when no operation completes for DUR (default 15s)
  --via primary|mongos    in the stack: straight to the shard's primary, as seeds/004 did
                          (default), or through mongos
  --uri URI               run the loader on this host against URI (any cluster); no Docker
  --password-file FILE    with --uri: password of --username (default user root)
  --username NAME         with --uri: user for --password-file
  Results: results/<experiment>/<engine>/<UTC time>/ (summary.json, timeline.ndjson); latest -> newest.
USAGE
}

# experiment_check FLAG VALUE KIND: exit 2 unless VALUE is a KIND (count|seed|list|duration|uri|path|text).
experiment_check() {
  local flag=$1 value=$2 kind=$3
  case $kind in
    count) [[ $value =~ ^[0-9]+$ && $value =~ [1-9] ]] || die_usage "$flag needs a whole number > 0 (got '$value')" ;;
    seed) [[ $value =~ ^[0-9]+$ ]] || die_usage "$flag needs a whole number (got '$value')" ;;
    list) [[ $value =~ ^[0-9]+(,[0-9]+)*$ && ! $value =~ (^|,)0+(,|$) ]] ||
      die_usage "$flag needs a list of client counts like 1,2,4,6 (got '$value')" ;;
    duration) [[ $value =~ ^[0-9]+(\.[0-9]+)?(ms|s|m|h)$ ]] || die_usage "$flag needs a duration like 30s or 2m (got '$value')" ;;
    uri) [[ $value =~ ^mongodb(\+srv)?:// ]] || die_usage "$flag needs a mongodb:// URI (got '$value')" ;;
    path) [[ -r $value ]] || die_usage "$flag: cannot read '$value'" ;;
    text) [[ -n $value ]] || die_usage "$flag needs a value" ;;
    via) [[ -n ${EXPERIMENT_STACK_URIS[$value]:-} ]] || die_usage "$flag needs primary or mongos (got '$value')" ;;
  esac
}

# experiment_results_path NAME: the run directory `latest` points at, relative to the repo.
experiment_results_path() {
  local link="results/$1/${ENGINE:?}/latest" target
  target=$(readlink "$LAB_ROOT/$link" 2>/dev/null) || return 1
  echo "results/$1/$ENGINE/$target"
}

verb_experiment() {
  local name=$1 uri="" via="" password_file="" flag value kind rc=0
  shift
  local loader_args=()
  local FLAG VALUE SHIFT_BY
  while (($#)); do
    split_flag "$@" || die_usage "$name does not take '$1'"
    flag=$FLAG value=$VALUE
    shift "$SHIFT_BY"
    case $flag in
      --docs | --preload-docs | --rate | --workers) kind=count ;;
      --seed) kind=seed ;;
      --clients) kind=list ;;
      --duration | --server-selection-timeout | --stall-timeout) kind=duration ;;
      --uri) kind=uri ;;
      --via) kind=via ;;
      --password-file) kind=path ;;
      --username) kind=text ;;
      *) die_usage "$name does not take '$flag' (experiment flags: see ./run.sh help)" ;;
    esac
    [[ -n $value ]] || die_usage "$flag needs a value"
    experiment_check "$flag" "$value" "$kind"
    case $flag in
      --uri) uri=$value ;;
      --via) via=$value ;;
      --password-file) password_file=$value ;;
      *) loader_args+=("$flag" "$value") ;;
    esac
  done
  case $name in
    experiment1) [[ " ${loader_args[*]} " != *" --duration "* && " ${loader_args[*]} " != *" --preload-docs "* ]] ||
      die_usage "experiment1 inserts --docs documents; --duration and --preload-docs are for experiment2/3" ;;
    *) [[ " ${loader_args[*]} " != *" --docs "* ]] || die_usage "$name takes --preload-docs, not --docs" ;;
  esac
  if [[ -z $uri && ( -n $password_file || " ${loader_args[*]} " == *" --username "* ) ]]; then
    die_usage "--password-file and --username go with --uri (the stack's loader uses the stack's own secret)"
  fi

  [[ -z $uri || -z $via ]] || die_usage "--via chooses where the stack's loader connects; with --uri the URI says it"
  if [[ -n $uri ]]; then
    experiment_on_host "$name" "$uri" "$password_file" "${loader_args[@]}" || rc=$?
  else
    experiment_in_stack "$name" "${via:-primary}" "${loader_args[@]}" || rc=$?
  fi
  if [[ $DRY_RUN != 1 ]]; then
    local where
    if where=$(experiment_results_path "$name"); then echo "results: $where"; fi
  fi
  return "$rc"
}

# experiment_on_host NAME URI PASSWORD_FILE LOADER_ARGS...: the loader as a host process.
experiment_on_host() {
  local name=$1 uri=$2 password_file=$3
  shift 3
  local args=("$name" --uri "$uri" --engine "$ENGINE" --results-dir "$LAB_ROOT/results" "$@")
  [[ -n $password_file ]] && args+=(--password-file "$password_file")
  if [[ $DRY_RUN != 1 ]]; then
    command -v node >/dev/null 2>&1 ||
      die_env "node is not installed: --uri runs the loader on this host and needs Node.js >= 20.19 (or drop --uri to run it in the stack)"
    [[ -d $LAB_ROOT/loader/node_modules/mongodb ]] ||
      die_env "the loader's dependencies are missing: run 'cd loader && npm ci --omit=dev' first"
  fi
  run node "$LAB_ROOT/loader/bin/lab-loader.js" "${args[@]}"
}

# experiment_image_ref IMAGE: IMAGE with the digest Docker pulled it by (mongo:8.0@sha256:...), or
# IMAGE alone when Docker has none for it (a local build) or under --dry-run.
experiment_image_ref() {
  local digest=""
  [[ $DRY_RUN == 1 ]] ||
    digest=$(docker image inspect --format '{{if .RepoDigests}}{{index .RepoDigests 0}}{{end}}' "$1" 2>/dev/null || true)
  if [[ $digest == *@sha256:* ]]; then echo "$1@${digest#*@}"; else echo "$1"; fi
}

# experiment_in_stack NAME VIA LOADER_ARGS...: up (no-op when up), then the loader container.
experiment_in_stack() {
  local name=$1 via=$2
  shift 2
  # --metrics-host 0.0.0.0: Prometheus scrapes loader:9464 over the stack network; no host port.
  local args=("$name" --uri "${EXPERIMENT_STACK_URIS[$via]}" --password-file "$EXPERIMENT_SECRETS/root-password"
    --metrics-host 0.0.0.0 --engine "$ENGINE" "$@")
  if [[ $MONITORING == 1 ]]; then
    args+=(--grafana-url http://grafana:3000 --grafana-password-file "$EXPERIMENT_SECRETS/grafana-admin-password")
  fi
  verb_up
  # After up, so the image is pulled; the digest pins what "mongo:8.0" meant on the day of the run.
  args+=(--image "mongodb=$(experiment_image_ref "$(engine_field "$ENGINE" image)")")
  # Docker would create a missing bind-mount source as root; the loader runs as the user.
  run mkdir -p "$LAB_ROOT/results"
  compose --profile loader run --rm --build --use-aliases loader "${args[@]}"
}

# smoke_experiments ENGINE (lib/smoke.sh hook): each experiment at a tiny scale through the stack,
# then its summary.json says complete and names the storage engine the engines table expects, as
# the shard reports it. Returns 1 if any check failed.
smoke_experiments() {
  local engine=$1 exp summary want before=$SMOKE_FAILED
  want=$(engine_field "$engine" server_engine 2>/dev/null || true)
  local -A flags=(
    [experiment1]="--docs 5000 --via mongos" # both connection paths: mongos here, the primary below
    [experiment2]="--preload-docs 20000 --clients 1,2 --duration 10s"
    [experiment3]="--preload-docs 20000 --clients 1,2 --duration 10s"
  )
  SMOKE_FAILED=0
  for exp in experiment1 experiment2 experiment3; do
    # shellcheck disable=SC2086  # the flags are words on purpose
    smoke_check "$engine: $exp runs to completion in the stack" smoke_lab "$exp" ${flags[$exp]}
    [[ $DRY_RUN == 1 ]] && continue
    summary="$LAB_ROOT/results/$exp/$engine/latest/summary.json"
    smoke_check "$engine: $exp summary.json is complete" grep -q '"complete": true' "$summary"
    if [[ -n $want ]]; then
      smoke_check "$engine: $exp summary.json records storage engine $want as the server reports it" \
        grep -q "\"name\": \"$want\"" "$summary"
    fi
  done
  local failed=$SMOKE_FAILED
  ((before == 0)) || SMOKE_FAILED=1
  ((failed == 0))
}
