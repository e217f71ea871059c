# shellcheck shell=bash
# Shared helpers for run.sh and lib/*.sh: messages, exit codes, dry-run aware command runner.
# Exit-code contract of every verb: 0 ok, 1 environment/runtime error, 2 usage error,
# 130 interrupted.

LAB_ROOT=${LAB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
DRY_RUN=${DRY_RUN:-0}
# LAB_WRAP: the columns a message line or a --dry-run command line is wrapped at (output
# fits 120 columns). Not a user switch: smoke sets it 4 narrower for the children whose lines it
# prints after "#   ", and the bats tests that match whole command lines on one line set 0 (no
# wrapping); test/messages.bats measures the default.
LAB_WRAP=${LAB_WRAP:-120}
[[ $LAB_WRAP =~ ^[0-9]+$ ]] || LAB_WRAP=120

# redact_secrets TEXT: TEXT with the password of every URI-ish word (USER:PASSWORD@, with a scheme
# such as mongodb:// or without one: `--uri prod=root:pw@host/` is a mistake worth a usage error,
# not worth a leaked password) as *** (the user stays) and the URI options that carry secrets
# (*password*, *secret*, *token*, authMechanismProperties) as ***, as loader/src/text/redact-uri.js
# does: a message or a dry-run line may quote the --uri typed. A word starts at the text's start, a
# space, a quote or an = (NAME=URI) and ends at a space or a quote; the password runs from the
# user's first : to the word's last @, whatever it holds (an unescaped ? # / @ % or :, or a
# character quote_cmd escaped with a backslash: a typed password is not a well-formed URI's), so a
# query holding an @ is masked with it: more hidden, never less. An image digest
# (mongo:8.0@sha256:...) is no user information, nor is a scheme's // (mongodb+srv://user@h).
# A password holding a quote (the driver takes one unescaped: u:pa'ss@h) ends the word's masking
# below, so such a word is first masked from the user's : to its last @ whatever the password
# holds (a quote printed as \' or inside '...'\''...' as well).
# Text without @ or :// is returned as is.
redact_secrets() {
  if [[ $1 != *://* && $1 != *@* ]]; then printf '%s\n' "$1"; return; fi
  printf '%s\n' "$1" | sed -E \
    -e 's,@(sha256:),\x01\1,g' \
    -e 's,(^|[[:space:]'\''"=])(([A-Za-z][A-Za-z0-9+.-]*://)?[^:@/?[:space:]'\''"=]*):([^[:space:]]*['\''"][^[:space:]]*)@,\1\2:***@,g' \
    -e 's,(^|[[:space:]'\''"=])(([A-Za-z][A-Za-z0-9+.-]*://)?[^:@/?[:space:]'\''"=]*):(([^/[:space:]'\''"]|/[^/[:space:]'\''"])[^[:space:]'\''"]*)?@,\1\2:***@,g' \
    -e 's,([?&][^=&[:space:]]*([pP][aA][sS][sS][wW][oO][rR][dD]|[sS][eE][cC][rR][eE][tT]|[tT][oO][kK][eE][nN])[^=&[:space:]]*=)[^&#[:space:]]*,\1***,g' \
    -e 's,([?&]authMechanismProperties=)[^&#[:space:]]*,\1***,g' \
    -e 's,\x01,@,g'
}

# say TEXT: TEXT redacted (redact_secrets), each line longer than LAB_WRAP columns wrapped at a
# space, the rest on lines indented by two spaces (as the loader wraps its notes). Forks only for a
# URI or a long line.
# A write that fails (the terminal gone after a hang-up) is no reason to stop what is being done
# (under set -e a failed printf would end run.sh in the middle of its bookkeeping): it returns 0.
say() {
  local text=$1
  # $(redact_secrets) only for text it could change (as quote_cmd does), not a fork for every
  # line said; $(...) dropped trailing newlines, so they go here too
  if [[ $text == *://* || $text == *@* ]]; then text=$(redact_secrets "$text"); fi
  while [[ $text == *$'\n' ]]; do text=${text%$'\n'}; done
  if ((LAB_WRAP > 0 && ${#text} > LAB_WRAP)); then
    printf '%s\n' "$text" | wrap_lines 2 "$LAB_WRAP" 2>/dev/null || true
  else
    printf '%s\n' "$text" 2>/dev/null || true
  fi
}

info() { say "$*" >&2; }
warn() { say "warning: $*" >&2; }

# one_line TEXT: TEXT with its control characters (a newline in a flag's value) written as \n,
# \t, ...: an error is one line, and a value's newline cut it before its reason.
one_line() {
  local t=$1
  t=${t//$'\n'/\\n} t=${t//$'\r'/\\r} t=${t//$'\t'/\\t}
  printf '%s' "$t"
}

# die_usage MESSAGE: a usage error (bad verb, flag or value). One line naming the fix, exit 2.
die_usage() {
  say "error: $(one_line "$1")" >&2
  printf "Run './run.sh help' for usage.\n" >&2
  exit 2
}

# die_env MESSAGE: the environment is not right (Docker missing, daemon down, port taken). Exit 1.
die_env() {
  say "error: $1" >&2
  exit 1
}

# wrap_lines INDENT [WIDTH]: stdin with every line longer than WIDTH (default 120) columns wrapped
# at a space, the rest on lines indented by INDENT spaces (help text: a table row's description
# column).
wrap_lines() {
  awk -v ind="$1" -v w="${2:-120}" '{
    line = $0
    while (length(line) > w) {
      cut = w
      while (cut > ind + 1 && substr(line, cut + 1, 1) != " ") cut--
      if (cut <= ind + 1) cut = w
      head = substr(line, 1, cut); sub(/ +$/, "", head); print head
      rest = substr(line, cut + 1); sub(/^ +/, "", rest)
      line = sprintf("%" ind "s%s", "", rest)
    }
    print line
  }'
}

# quote_words ARGS...: QUOTED, each argument as a shell would need it typed, secrets masked, one
# array element each (for print_cmd, which wraps them; quote_cmd joins them).
quote_words() {
  local a q
  QUOTED=()
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then q=$a; else q=$(printf '%q' "$a"); fi
    [[ $q == *://* || $q == *@* ]] && q=$(redact_secrets "$q")
    QUOTED+=("$q")
  done
}

# quote_cmd ARGS...: the command line as a shell would need it typed, on one line (--dry-run).
quote_cmd() {
  local IFS=' '
  quote_words "$@"
  printf '%s\n' "${QUOTED[*]}"
}

# print_cmd WORD...: a --dry-run command line, "+ " and the words (already quoted: quote_words;
# a literal such as '|' or '<<EOF' passes as is), wrapped at LAB_WRAP columns between words with a
# trailing " \" and a continuation indented by 4, so the printed text stays one shell command to
# copy. A word longer than a line is split inside with a backslash-newline (removed by the shell),
# its rest from column 0 (an indent there would become part of the word); never a $'...' word, nor
# right after an escaping backslash.
print_cmd() {
  local width=$LAB_WRAP line="+" w cut head n IFS=' '
  if ((width <= 0)); then printf '+ %s\n' "$*"; return 0; fi
  for w in "$@"; do
    if [[ $line == "+" ]] || ((${#line} + 1 + ${#w} + 2 <= width)); then
      line+=" $w"
    else
      printf '%s \\\n' "$line"
      line="    $w"
    fi
    [[ $w == \$\'* ]] && continue
    while ((${#line} > width - 2)); do
      cut=$((width - 1))
      head=${line:0:cut}
      n=${head##*[!\\]}
      ((${#n} % 2 == 0)) || { cut=$((cut - 1)); head=${line:0:cut}; }
      printf '%s\\\n' "$head"
      line=${line:cut}
    done
  done
  printf '%s\n' "$line"
}

# run ARGS...: run a command that changes something, or print it under --dry-run.
# Read-only probes (is the daemon up? is a port free?) call the command directly instead.
run() {
  if [[ $DRY_RUN == 1 ]]; then
    quote_words "$@"
    print_cmd "${QUOTED[@]}"
    return 0
  fi
  "$@"
}

# require_value FLAG VALUE: a flag that needs a value got one.
require_value() {
  [[ -n ${2:-} && ${2:0:2} != -- ]] || die_usage "$1 needs a value"
}

# split_flag ARGS...: the flag word at $1 as FLAG and VALUE (--name=value or --name value), and
# SHIFT_BY, how many words it used. VALUE is empty when the value is missing (nothing follows, or
# another flag does), so callers reject an unknown flag first and a missing value second.
# Returns 1 when $1 is not a --flag at all. VALUE_EMPTY is 1 when the value was typed and is empty
# (--duration '' or --duration=, e.g. from an unset shell variable): that is said as such, not as
# a missing value or a stray '' word.
# shellcheck disable=SC2034  # FLAG, VALUE, SHIFT_BY and VALUE_EMPTY are this function's results
split_flag() {
  FLAG=$1 VALUE="" SHIFT_BY=1 VALUE_EMPTY=0
  case $FLAG in
    --*=*) VALUE=${FLAG#*=}; FLAG=${FLAG%%=*}; [[ -n $VALUE ]] || VALUE_EMPTY=1 ;;
    --*)
      if [[ -n ${2:-} && ${2:0:2} != -- ]]; then VALUE=$2; SHIFT_BY=2
      elif (($# >= 2)) && [[ -z $2 ]]; then SHIFT_BY=2 VALUE_EMPTY=1; fi
      ;;
    *) return 1 ;;
  esac
}

# empty_value_error FLAG: the one line for a value typed empty.
empty_value_error() { die_usage "$1: the value is empty (got ''): give it a value (./run.sh help lists each flag's)"; }

# flag_value WHO ARGS...: split_flag on ARGS for a flag that takes a value: a usage error for a
# word that is no flag ("WHO does not take ...") or a flag without its value.
flag_value() {
  split_flag "${@:2}" || die_usage "$1 does not take '$2'"
  ((!VALUE_EMPTY)) || empty_value_error "$FLAG"
  [[ -n $VALUE ]] || die_usage "$FLAG needs a value"
}

# edit_distance A B: the Levenshtein distance between two words (insert, delete, substitute).
edit_distance() {
  local a=$1 b=$2 i j cost del ins sub
  local -a prev cur
  for ((j = 0; j <= ${#b}; j++)); do prev[j]=$j; done
  for ((i = 1; i <= ${#a}; i++)); do
    cur=("$i")
    for ((j = 1; j <= ${#b}; j++)); do
      cost=1; [[ ${a:i-1:1} == "${b:j-1:1}" ]] && cost=0
      del=$((prev[j] + 1)) ins=$((cur[j - 1] + 1)) sub=$((prev[j - 1] + cost))
      cur[j]=$((del < ins ? (del < sub ? del : sub) : (ins < sub ? ins : sub)))
    done
    prev=("${cur[@]}")
  done
  echo "${prev[${#b}]}"
}

# nearest_word WORD CANDIDATE...: the candidate nearest WORD (at most 2 edits, and fewer than half
# of WORD's letters), printed; returns 1 when none is that near.
nearest_word() {
  local word=$1 best="" best_d=3 c d
  shift
  for c in "$@"; do
    d=$(edit_distance "$word" "$c")
    if ((d < best_d)); then best=$c best_d=$d; fi
  done
  [[ -n $best ]] && ((best_d * 2 < ${#word})) || return 1
  printf '%s\n' "$best"
}

# first_line: the first line of stdin, which is read to its end: `| head -n1` may exit before
# its writer is done, and the writer's SIGPIPE then fails the pipeline under pipefail (exit 141,
# seen on a busy host in smoke's sample-spacing check, whose topology has two routers).
first_line() { sed -n 1p; }

# process_group VAR PID: VAR set to the process group of PID, a pipeline started under set -m (its
# first process's PID); empty once it has ended. The same signal that run.sh's group gets, and the
# caller traps, ends a ps running then: it is asked again (five times at most: a loop on a missing
# ps would never end). Each ps in a $(...) of its own, asked from here: a subshell that looped would
# die with the signal.
process_group() {
  local tries=0 pgid=""
  while ((tries++ < 5)); do
    pgid=$(ps -o pgid= -p "$2" 2>/dev/null | tr -d ' ') || pgid=""
    if [[ -n $pgid ]] || ! kill -0 "$2" 2>/dev/null; then break; fi
  done
  printf -v "$1" '%s' "$pgid"
}

# wait_ended PID: wait until the background job PID has ended, however often a trapped signal ends
# a wait early (above 128), then return its exit status, which bash keeps (128 + N where signal N
# ended it).
wait_ended() {
  while kill -0 "$1" 2>/dev/null; do wait "$1" || true; done
  wait "$1"
}

# loader_on_host: Node.js and the loader's modules are on this host (else the loader's image has them).
loader_on_host() { command -v node >/dev/null 2>&1 && [[ -d $LAB_ROOT/loader/node_modules/mongodb ]]; }

# loader_deps_source: where the loader image takes its dependencies (images/loader/Dockerfile,
# LOADER_DEPS): "host" when this checkout's loader/node_modules is a complete `npm ci` of the
# current lock file (npm writes node_modules/.package-lock.json at the end of an install; an older
# one than package-lock.json is a stale install) with no compiled addon (*.node: built for this
# host's OS, which may not be the image's); else "registry" (npm ci inside the build). With "host"
# the image builds with no registry reachable. Decided once per run (a find over node_modules) and
# kept in LOADER_DEPS: run.sh main asks first, in the main shell, so that the answer outlives the
# subshells that build each compose line.
LOADER_DEPS=
loader_deps_source() {
  local nm=$LAB_ROOT/loader/node_modules
  if [[ -z $LOADER_DEPS ]]; then
    LOADER_DEPS=registry
    if [[ -f $nm/.package-lock.json && -d $nm/mongodb && ! $LAB_ROOT/loader/package-lock.json -nt $nm/.package-lock.json ]] &&
      [[ -z $(find "$nm" -name '*.node' -type f -print -quit 2>/dev/null) ]]; then
      LOADER_DEPS=host
    fi
  fi
  echo "$LOADER_DEPS"
}

# caller_path PATH: PATH as the user meant it: a relative one is taken from the directory the user
# ran ./run.sh in (LAB_CALLER_DIR, set by run.sh before it changes to the checkout), not from the
# checkout. A leading ~ or ~/ is the user's home: the shell leaves it as typed in --flag=~/x (no
# tilde expansion after a flag's =), and it made a folder named ~. Not resolved further (the
# folder may not exist yet).
caller_path() {
  local p=$1
  # shellcheck disable=SC2088  # the ~ typed, matched as text on purpose
  case $p in "~") p=$HOME ;; "~/"*) p=$HOME/${p#"~/"} ;; esac
  if [[ $p == /* ]]; then printf '%s\n' "$p"; else printf '%s/%s\n' "${LAB_CALLER_DIR:-$PWD}" "${p#./}"; fi
}

# is_name TEXT: TEXT is a name in the lab's one name grammar (an experiment, a run's engine label, a
# comparison's sides; it names a results folder): letters, digits, . _ -, starting with a letter
# or digit. common/names.js is the same grammar for Node; both run over test/vectors/names.tsv.
is_name() { [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]]; }

# is_uint VALUE: a whole number >= 0.
is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# mem_bytes SIZE: a Compose memory size (512m, 2g, 1536m, 1024k or bytes) in bytes; 0 when SIZE is
# not one. common/mem-size.js is the same rule for Node; both run over test/vectors/mem-sizes.tsv.
mem_bytes() {
  local n=${1%[bBkKmMgG]} unit=${1: -1}
  is_uint "$n" || { echo 0; return; }
  case $unit in
    k | K) echo $((n << 10)) ;;
    m | M) echo $((n << 20)) ;;
    g | G) echo $((n << 30)) ;;
    *) echo "${1%[bB]}" ;;
  esac
}

# parse_count FLAG TEXT MIN MAX: the lab's one whole-number grammar (as loader/src/text/numbers.js,
# same messages; both are run over test/vectors/counts.tsv): digits only, MIN <= n <= MAX, a value
# out of range named as typed with the bounds. Sets COUNT and returns 0, or sets COUNT_ERROR (one
# line) and returns 1. Compared as digit strings: no overflow whatever is typed.
# shellcheck disable=SC2034  # COUNT and COUNT_ERROR are this function's results
parse_count() {
  local flag=$1 text=$2 min=$3 max=$4 digits
  COUNT="" COUNT_ERROR=""
  if [[ ! $text =~ ^-?[0-9]+$ ]]; then
    COUNT_ERROR="$flag: '$text' is not a whole number"
    return 1
  fi
  digits=${text#-}
  while [[ $digits == 0?* ]]; do digits=${digits#0}; done
  # A <= B for digit strings without leading zeros: shorter, or as long and not sorting after.
  local above_min=0 below_max=0
  if ((${#min} < ${#digits})) || { ((${#min} == ${#digits})) && [[ ! $min > $digits ]]; }; then above_min=1; fi
  if ((${#digits} < ${#max})) || { ((${#digits} == ${#max})) && [[ ! $digits > $max ]]; }; then below_max=1; fi
  if [[ $text == -* ]] || ((!above_min || !below_max)); then
    COUNT_ERROR="$flag: $text is out of range $min..$max"
    return 1
  fi
  COUNT=$digits
}

# parse_duration FLAG TEXT: the lab's one duration grammar (as loader/src/text/duration.js, same
# messages; both are run over test/vectors/durations.tsv). <whole>[.<fraction>]<unit>, unit
# ms|s|m|h, at most 10 whole and 9 fraction digits, a whole number of ms > 0 and <= 596h.
# Sets DURATION_MS and returns 0, or sets DURATION_ERROR (one line) and returns 1.
# shellcheck disable=SC2034  # DURATION_MS and DURATION_ERROR are this function's results
parse_duration() {
  local flag=$1 text=$2 whole frac unit scale=1 whole_ms frac_scaled
  DURATION_MS="" DURATION_ERROR=""
  if [[ ! $text =~ ^([0-9]{1,10})(\.([0-9]{1,9}))?(ms|s|m|h)$ ]]; then
    DURATION_ERROR="$flag '$text' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)"
    return 1
  fi
  whole=${BASH_REMATCH[1]} frac=${BASH_REMATCH[3]} unit=${BASH_REMATCH[4]}
  case $unit in ms) unit=1 ;; s) unit=1000 ;; m) unit=60000 ;; h) unit=3600000 ;; esac
  while ((${#scale} <= ${#frac})); do scale+=0; done
  # whole and fraction apart: (whole * scale + fraction) * unit could pass 2^63
  whole_ms=$((10#$whole * unit)) frac_scaled=$((10#${frac:-0} * unit))
  if ((whole_ms == 0 && frac_scaled == 0)); then
    DURATION_ERROR="$flag must be more than zero (got '$text')"
  elif ((frac_scaled % scale)); then
    DURATION_ERROR="$flag '$text' is finer than 1 ms"
  elif ((whole_ms + frac_scaled / scale > 596 * 3600000)); then
    DURATION_ERROR="$flag '$text' is longer than 596h"
  else
    DURATION_MS=$((whole_ms + frac_scaled / scale))
    return 0
  fi
  return 1
}
