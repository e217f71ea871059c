# shellcheck shell=bash
# Reads compose/engines.tsv and compose/profiles.tsv: the single place engines and profiles are
# declared. Validation, usage text and tests all go through these functions.

# table_rows FILE: data rows of a TSV table (comments and the header skipped).
table_rows() { grep -v '^#' "$1" | tail -n +2; }

engine_names() { table_rows "$LAB_ROOT/compose/engines.tsv" | cut -f1; }
profile_names() { table_rows "$LAB_ROOT/compose/profiles.tsv" | cut -f1; }

# table_field FILE KEY COLUMN_NAME: one cell, by row key (first column) and column header.
table_field() {
  local file=$1 key=$2 col=$3
  awk -F'\t' -v key="$key" -v col="$col" '
    /^#/ { next }
    !hdr { for (i = 1; i <= NF; i++) idx[$i] = i; hdr = 1; next }
    $1 == key { if (!(col in idx)) exit 3; print $(idx[col]); found = 1; exit }
    END { if (!found) exit 1 }' "$file"
}

engine_field() { table_field "$LAB_ROOT/compose/engines.tsv" "$1" "$2"; }
profile_field() { table_field "$LAB_ROOT/compose/profiles.tsv" "$1" "$2"; }

# validate_engine NAME / validate_profile NAME: usage error naming the valid choices.
validate_engine() {
  engine_names | grep -qxF -- "$1" ||
    die_usage "unknown engine '$1' (choose one of: $(engine_names | paste -sd' ' -))"
}
validate_profile() {
  profile_names | grep -qxF -- "$1" ||
    die_usage "unknown profile '$1' (choose one of: $(profile_names | paste -sd' ' -))"
}

# engines_usage / profiles_usage: the tables as usage text.
engines_usage() {
  table_rows "$LAB_ROOT/compose/engines.tsv" |
    awk -F'\t' '{ printf "  %-12s %-38s %s\n", $1, $2, $4 }'
}
profiles_usage() {
  table_rows "$LAB_ROOT/compose/profiles.tsv" | awk -F'\t' '{ printf "  %-12s %s\n", $1, $8 }'
}
