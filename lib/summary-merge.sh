# shellcheck shell=bash
# summary.json has one writer, the loader. What ./run.sh measures around a run on Compose (block
# writes, the shard members' data directories, OOM kills) is collected here as data, one JSON
# field each, and handed to `lab-loader merge-summary` once the measuring is done: the loader
# merges it into each folder the run made and checks the result against
# common/summary.schema.json (loader/src/results/merge-summary.js says which fields it takes and where
# each goes). bash never edits a summary itself.

declare -ga SUMMARY_MEASURED=()

# summary_measured KEY JSON [KEY JSON...]: each KEY (a field loader/src/results/merge-summary.js takes)
# measured as JSON, kept until summary_merge_measured.
summary_measured() {
  while (($# >= 2)); do
    SUMMARY_MEASURED+=("\"$1\": $2")
    shift 2
  done
}

# summary_json_string TEXT: TEXT as a JSON string (backslashes and double quotes escaped).
summary_json_string() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}

# summary_join ITEM...: the items joined by ", " (a JSON object's members, an array's elements).
summary_join() {
  local out
  printf -v out '%s, ' "$@"
  printf '%s' "${out%, }"
}

# summary_merge_measured: the fields collected since the last merge, into the summary.json of
# each folder this run created (EXPERIMENT_RESULTS, relative to LAB_ROOT), in one loader call: on
# this host when it has the loader, else in the loader's image (the results folder is its
# /lab/results). Nothing collected or no folder with a summary: nothing runs. A refusal is said
# in one line and returns 1; the summaries stay as the loader wrote them.
summary_merge_measured() {
  local measured dir
  local -a dirs=()
  ((${#SUMMARY_MEASURED[@]})) || return 0
  measured="{$(summary_join "${SUMMARY_MEASURED[@]}")}"
  SUMMARY_MEASURED=()
  while IFS= read -r dir; do
    # a folder the loader left without a summary (it stopped before writing one) is left as it is
    [[ -z $dir || ! -f $LAB_ROOT/$dir/summary.json ]] || dirs+=("$dir")
  done <<<"$EXPERIMENT_RESULTS"
  ((${#dirs[@]})) || return 0
  summary_merge_into "$measured" "${dirs[@]}"
}

# summary_mark_incomplete REASON EXIT_CODE DIR: DIR's summary.json (DIR relative to LAB_ROOT, or
# absolute) marked incomplete by the loader: complete false, REASON first, exit_code EXIT_CODE
# (loader/src/results/merge-summary.js marked_incomplete). For what ends or voids a run outside the
# loader: a loader killed outright, another loader overlapping a comparison's run.
summary_mark_incomplete() {
  local dir=$3
  [[ $dir == /* ]] || dir=$LAB_ROOT/$dir
  [[ -f $dir/summary.json ]] || return 1
  summary_merge_into "{\"marked_incomplete\": {\"reason\": $(summary_json_string "$1"), \"exit_code\": $2}}" "${dir#"$LAB_ROOT"/}"
}

# summary_merge_into MEASURED DIR...: MEASURED (one JSON object) merged into each DIR's
# summary.json (relative to LAB_ROOT unless absolute) in one loader call (summary_loader). A
# refusal is said in one line and returns 1; the summaries stay as the loader wrote them.
summary_merge_into() {
  local measured=$1 out rc=0
  shift
  out=$(summary_loader merge-summary "$@" <<<"$measured" 2>&1) || rc=$?
  ((rc == 0)) && return 0
  warn "what ./run.sh measured was not merged into summary.json (exit $rc): $(grep -m1 '^error: ' <<<"$out" | cut -c8-)"
  return 1
}

# summary_facts DIR...: for each DIR (relative to LAB_ROOT, or absolute), in order, the line the
# loader prints of its summary.json: "documents_written=N concurrent_runs=N" ("-" where the
# summary or the field is absent; lab-loader summary-facts, loader/src/results/summary-facts.js).
# bash reads no summary itself.
summary_facts() { summary_loader summary-facts "$@"; }

# summary_loader COMMAND DIR...: `lab-loader COMMAND DIR...` (stdin passed on), each DIR relative
# to LAB_ROOT unless absolute: on this host when it has the loader, else in the loader's image
# (the results folder is its /lab/results).
summary_loader() {
  local cmd=$1 d
  shift
  local -a host_dirs=() image_dirs=()
  for d in "$@"; do
    if [[ $d == /* ]]; then host_dirs+=("$d"); image_dirs+=("$d"); else host_dirs+=("$LAB_ROOT/$d"); image_dirs+=("/lab/$d"); fi
  done
  if loader_on_host; then
    node "$LAB_ROOT/loader/bin/lab-loader.js" "$cmd" "${host_dirs[@]}"
  else
    compose --profile loader run --rm --no-deps -T --entrypoint node loader \
      /lab/loader/bin/lab-loader.js "$cmd" "${image_dirs[@]}"
  fi
}

# summary_fact LINE KEY: KEY's value in one summary_facts LINE ("-" when absent).
summary_fact() {
  local word
  for word in $1; do [[ $word != "$2="* ]] || { printf '%s\n' "${word#*=}"; return 0; }; done
  echo -
}
