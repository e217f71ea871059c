# shellcheck shell=bash
# ./run.sh ycsb-a --tool ycsb [flags]: YCSB 0.17.0 itself (images/ycsb/, compose/ycsb.yml) against
# the stack, with the parameters the lab's loader would use, written as the same summary.json, so
# the report shows the lab's loader and YCSB side by side on one engine. Sourced by
# verb_experiment (lib/experiment.sh) only for --tool ycsb.
#   1. lab-ycsb prepare (loader image): the flags checked as a loader run checks them, the results
#      folder, ycsb/workload.properties (recordcount, fieldcount, fieldlength, operationcount or
#      maxexecutiontime, zipfian, readallfields, target ...) and the plan; no credentials.
#   2. YCSB's own load phase (-load, measured: summary.json preload), with the largest thread
#      count of the sweep, then one `run` per thread count of the sweep.
#   3. lab-ycsb summarize: YCSB's output -> summary.json (tool: ycsb 0.17.0) and the 1 s
#      timeline.ndjson (YCSB's status lines); with monitoring, one Grafana annotation per step.
# In the stack only: YCSB runs on the stack network (--via primary|mongos as the loader).

# ycsb_node SUBCOMMAND ARGS...: lab-ycsb.js in the loader's image (Node is not needed on
# this host), with results/ and experiments/ mounted as for an experiment.
ycsb_node() {
  compose --profile loader run --rm --no-deps --build --entrypoint node loader /lab/loader/bin/lab-ycsb.js "$@"
}

# ycsb_experiment NAME VIA LOADER_ARGS...: the three stages above; sets EXPERIMENT_RESULTS. The
# experiment's database and thread steps are the loader's (its check: EXPERIMENT_FACTS).
ycsb_experiment() {
  local name=$1 via=$2
  shift 2
  local uri out dir cdir threads t most=0 rc=0
  local a prev=""
  for a in "$@"; do
    [[ $prev == --repeat && $a != 1 ]] && die_usage "--repeat does not apply to --tool ycsb (run it again for another repetition)"
    prev=$a
  done
  uri=$(experiment_stack_uri "$via")
  verb_up # starts a stopped stack; says "already up" otherwise
  run mkdir -p "$LAB_ROOT/results"
  local prep=(prepare "$name" --uri "$uri" --engine "$ENGINE" --profile "$PROFILE"
    --image "mongodb=$(experiment_image_ref "$(engine_field "$ENGINE" image)")" --image "ycsb=lab-ycsb:0.17.0"
    --results-dir /lab/results --experiments-dir /lab/experiments "$@")
  if [[ $DRY_RUN == 1 ]]; then
    ycsb_node "${prep[@]}"
    cdir="/lab/results/$name/$ENGINE/<UTC time>"
    threads=${EXPERIMENT_FACTS[clients]:-} # the loader's check said them (none: no loader here to ask)
  else
    out=$(ycsb_node "${prep[@]}") || return $?
    cdir=$(sed -n 's/^dir: //p' <<<"$out" | tr -d '\r')
    threads=$(sed -n 's/^threads: //p' <<<"$out" | tr -d '\r')
    [[ -n $cdir && -n $threads ]] || die_env "lab-ycsb prepare said nothing about the results folder: $out"
  fi
  dir=results/${cdir#/lab/results/}
  for t in $threads; do ((t > most)) && most=$t; done
  local ycsb=(--profile ycsb run --rm --no-deps --build -e "YCSB_URI=$uri" -e "YCSB_DATABASE=${EXPERIMENT_FACTS[database]:-}" ycsb)
  info "ycsb: load phase ($most threads), then runs with ${threads// /, } threads; output in $dir/ycsb/"
  compose "${ycsb[@]}" load "$cdir" "$most" || rc=$?
  if ((rc == 0)); then
    for t in $threads; do
      compose "${ycsb[@]}" run "$cdir" "$t" || { rc=$?; break; }
    done
  fi
  # Whatever ran is summarised (an incomplete run says which phase has no output).
  local annotate=()
  [[ $MONITORING == 1 ]] && annotate=(--grafana-url http://grafana:3000 --grafana-password-file "$EXPERIMENT_SECRETS/grafana-admin-password")
  ycsb_node summarize "$cdir" "${annotate[@]}" || { ((rc != 0)) || rc=1; }
  # shellcheck disable=SC2034  # read by verb_experiment (lib/experiment.sh)
  EXPERIMENT_RESULTS=$dir
  return "$rc"
}
