# shellcheck shell=bash
# Reads compose/engines.tsv, compose/profiles.tsv and compose/topology.tsv: the single place
# engines, profiles and the cluster's members are declared. Validation, usage text, the cluster
# verbs and tests all go through these functions, so no engine or member name is written in logic.
# common/tables.js is the Node reader of the same files (checked against this one).

# table_rows FILE: data rows of a TSV table (comments and the header skipped), from the copy read
# once (table_read below) when there is one.
table_rows() {
  if [[ -n ${TABLE_READ[$1]:-} ]]; then
    local row
    # a reader that stops early (| head, grep -q) ends the loop, silently as grep and tail did
    while IFS= read -r row; do
      [[ -z $row ]] || printf '%s\n' "${row%$'\t'}" 2>/dev/null || return 0
    done <<<"${TABLE_ROWS[$1]}"
  else
    grep -v '^#' "$1" | tail -n +2
  fi
}

engine_names() { table_rows "$LAB_ROOT/compose/engines.tsv" | cut -f1; }
profile_names() { table_rows "$LAB_ROOT/compose/profiles.tsv" | cut -f1; }

# table_field FILE KEY COLUMN_NAME: one cell, by row key (first column) and column header; exit 1
# for no such row or column. From TABLE_CELL, the file read once per process: a
# dry run of a comparison looked up the same cells hundreds of times, an awk each (about 470
# processes for one `compare --dry-run`). The three tables are read when this file is sourced,
# so that a lookup inside $(...) finds them read (a subshell's own reads are lost with it).
declare -gA TABLE_CELL=() TABLE_READ=() TABLE_ROWS=()
table_field() {
  local cell
  table_field_to cell "$@" || return 1
  printf '%s\n' "$cell"
}

# table_read FILE: every cell of FILE into TABLE_CELL[FILE<TAB>KEY<TAB>COLUMN] (the first row of a
# key wins; a short row's missing cells are empty), and TABLE_CELL[FILE<TAB>KEY] for the row.
# Cells are split on every tab by hand: `read -a` with IFS=tab folds empty cells away (a tab is
# IFS white space).
table_read() {
  local file=$1 line hdr=() cells i row
  [[ -r $file ]] || return 1
  TABLE_READ[$file]=1
  while IFS= read -r line || [[ -n $line ]]; do
    [[ $line == '#'* ]] && continue
    cells=()
    while [[ $line == *$'\t'* ]]; do
      cells+=("${line%%$'\t'*}")
      line=${line#*$'\t'}
    done
    cells+=("$line")
    if ((${#hdr[@]} == 0)); then
      hdr=("${cells[@]}")
      continue
    fi
    # printf -v, not $(...): a fork per row, about 17 for each ./run.sh as it starts
    printf -v row '%s\t' "${cells[@]}"
    TABLE_ROWS[$file]+=$row$'\n'
    [[ -z ${TABLE_CELL["$file"$'\t'"${cells[0]}"]+x} ]] || continue
    TABLE_CELL["$file"$'\t'"${cells[0]}"]=1
    for i in "${!hdr[@]}"; do TABLE_CELL["$file"$'\t'"${cells[0]}"$'\t'"${hdr[i]}"]=${cells[i]:-}; done
  done <"$file"
}

engine_field() { table_field "$LAB_ROOT/compose/engines.tsv" "$1" "$2"; }
profile_field() { table_field "$LAB_ROOT/compose/profiles.tsv" "$1" "$2"; }

# table_field_to VAR FILE KEY COLUMN_NAME: table_field's cell into VAR ("" and exit 1 for none),
# for a caller in the main shell that looks up many cells: $(table_field ...) forks once a cell.
# (No locals: VAR may be any name of the caller's.)
table_field_to() {
  printf -v "$1" '%s' ""
  [[ -n ${TABLE_READ[$2]:-} ]] || table_read "$2" || return 1
  [[ -n ${TABLE_CELL["$2"$'\t'"$3"$'\t'"$4"]+x} ]] || return 1
  printf -v "$1" '%s' "${TABLE_CELL["$2"$'\t'"$3"$'\t'"$4"]}"
}
engine_field_to() { table_field_to "$1" "$LAB_ROOT/compose/engines.tsv" "$2" "$3"; }
profile_field_to() { table_field_to "$1" "$LAB_ROOT/compose/profiles.tsv" "$2" "$3"; }

# engine_is ENGINE COLUMN: the engine's yes/no capability column says yes (keeps_data, journal).
engine_is() { [[ $(engine_field "$1" "$2") == yes ]]; }

# engine_has_fault_method ENGINE METHOD: METHOD is in the engine's fault_methods list.
engine_has_fault_method() { grep -qxF -- "$2" <<<"$(engine_field "$1" fault_methods | tr ',' '\n')"; }

# The topology (compose/topology.tsv): one row per mongod/mongos service.
TOPOLOGY_TSV=compose/topology.tsv
topology_field() { table_field "$LAB_ROOT/$TOPOLOGY_TSV" "$1" "$2"; }

if [[ -n ${LAB_ROOT:-} ]]; then
  for _table in engines.tsv profiles.tsv topology.tsv; do table_read "$LAB_ROOT/compose/$_table" || true; done
  unset _table
fi

# topology_each: the topology's rows as "service set role port host_port profile" for a
# `while read` (tab separated; the table writes "-" for an empty cell, so no cell folds away).
topology_each() {
  local f=$LAB_ROOT/$TOPOLOGY_TSV
  [[ -n ${TABLE_READ[$f]:-} ]] || table_read "$f" || return 1
  printf '%s' "${TABLE_ROWS[$f]}"
}

# topology_pick COLUMN VALUE: service names in table order whose COLUMN (set or role) is VALUE, or
# every one for an empty VALUE.
topology_pick() {
  local svc set role _
  while IFS=$'\t' read -r svc set role _; do
    [[ -n $svc && ( -z $2 || ${!1} == "$2" ) ]] && printf '%s\n' "$svc"
  done <<<"$(topology_each)"
  return 0
}

# topology_services [ROLE]: service names in table order, of one role (config|shard|router) or all.
topology_services() { topology_pick role "${1:-}"; }

# topology_sets ROLE: the replica sets of a role, each once, in table order.
topology_sets() {
  local svc set role _ seen=" "
  while IFS=$'\t' read -r svc set role _; do
    [[ -n $svc && $role == "$1" && $seen != *" $set "* ]] || continue
    seen+="$set "
    printf '%s\n' "$set"
  done <<<"$(topology_each)"
  return 0
}

# topology_set_members SET: the members of one replica set.
topology_set_members() { topology_pick set "$1"; }

# topology_routers N: the first N routers (./run.sh --mongos N), "service<TAB>host_port<TAB>profile"
# ("-" for a router that needs no Compose profile).
topology_routers() {
  local svc set role host_port profile _ k=0
  while IFS=$'\t' read -r svc set role _ host_port profile _; do
    [[ -n $svc && $role == router ]] || continue
    ((k++ < $1)) || break
    printf '%s\t%s\t%s\n' "$svc" "$host_port" "$profile"
  done <<<"$(topology_each)"
  return 0
}

# table_has_key FILE KEY: FILE has a row keyed KEY, without a fork (every ./run.sh validates its
# engine and profile; $(engine_names) piped through cut was three processes each). A KEY holding a
# tab would name a cell, not a row.
table_has_key() {
  [[ $2 != *$'\t'* ]] || return 1
  [[ -n ${TABLE_READ[$1]:-} ]] || table_read "$1" || return 1
  [[ -n ${TABLE_CELL["$1"$'\t'"$2"]+x} ]]
}

# validate_engine NAME / validate_profile NAME: usage error naming the valid choices.
validate_engine() {
  table_has_key "$LAB_ROOT/compose/engines.tsv" "$1" && return 0
  local hint="" near names
  mapfile -t names < <(engine_names)
  # An engine README's Engines table lists as "not added" (perconaft): say so, not just "unknown".
  if grep -qF "| \`$1\` | not added |" "$LAB_ROOT/README.md" 2>/dev/null; then
    hint="; $1 is listed in README \"Engines\" as not added, with why and what to check"
  elif near=$(nearest_word "$1" "${names[@]}"); then
    hint="; did you mean '$near'?"
  fi
  die_usage "unknown engine '$1' (choose one of: $(engine_names | paste -sd' ' -))$hint"
}
validate_profile() {
  table_has_key "$LAB_ROOT/compose/profiles.tsv" "$1" ||
    die_usage "unknown profile '$1' (choose one of: $(profile_names | paste -sd' ' -))"
}

# engines_usage / profiles_usage: the tables as usage text.
engines_usage() {
  awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "  %-12s %-38s %s\n", $1, $c["image"], $c["description"] }' "$LAB_ROOT/compose/engines.tsv" | wrap_lines 54
}
profiles_usage() {
  table_rows "$LAB_ROOT/compose/profiles.tsv" | awk -F'\t' '{ printf "  %-12s %s\n", $1, $8 }'
}
