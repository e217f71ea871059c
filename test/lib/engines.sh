# shellcheck shell=bash
# The engines table (compose/engines.tsv) for shell tests, by the header's column names, never by
# position: tests that append engines of their own or read columns do not know the column order.

# engine_columns FILE COLUMN...: per row, the named columns, tab-separated.
engine_columns() {
  local file=$1; shift
  awk -F'\t' -v OFS='\t' -v cols="$*" '
    /^#/ { next }
    !hdr { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(cols, c, " "); hdr = 1; next }
    { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? OFS : "") $(idx[c[k]]); print line }' "$file"
}

# engine_row_like FILE BASE NAME [COLUMN=VALUE...]: a row for FILE: BASE's row, named NAME, with
# the given columns changed. Fails on an unknown BASE or column.
engine_row_like() {
  local file=$1 base=$2 name=$3; shift 3
  awk -F'\t' -v OFS='\t' -v base="$base" -v name="$name" -v sets="$(printf '%s\n' "$@")" '
    /^#/ { next }
    !hdr { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(sets, s, "\n"); hdr = 1; next }
    $1 == base {
      $1 = name
      for (k = 1; k <= n; k++) {
        if (s[k] == "") continue
        eq = index(s[k], "="); col = substr(s[k], 1, eq - 1)
        if (!(col in idx)) { print "engine_row_like: no column " col > "/dev/stderr"; exit 2 }
        $(idx[col]) = substr(s[k], eq + 1)
      }
      print; found = 1; exit
    }
    END { if (!found) exit 1 }' "$file"
}
