# shellcheck shell=bash
# Block writes: each shard member's bytes written to block devices over the loader's invocation,
# read from the member's own cgroup inside it (compose exec, as experiment_data_dirs reads its
# data directory), the same way on every engine: the kernel's count of what reached the disk.
# Read before the loader starts and after it ends, so the span holds everything the invocation
# wrote (setup, preload, warm-ups, every repetition) and the divisor is every document its runs
# wrote (summary.json documents_written). Into each run's summary.json block_writes, merged by
# the loader (lib/summary-merge.sh, common/summary.schema.json); the report compares it across
# engines (common/meanings.js block_writes, keyed by cgroup version).
#   cgroup v2: /sys/fs/cgroup/io.stat, wbytes summed over the devices listed.
#   cgroup v1: /sys/fs/cgroup/blkio/blkio.throttle.io_service_bytes Write lines (else
#   blkio.io_service_bytes). Buffered writeback by the kernel's flusher threads is charged to the
#   root cgroup there, so the figure is a lower bound (writes the member submits itself, through
#   fsync for one, are its own); on v2 writeback is charged to the container.

declare -gA BLOCK_WRITES_BEFORE=()

BLOCK_WRITES_V1_CAVEAT="cgroup v1: buffered writeback by the kernel's flusher threads is charged to the root cgroup, not the container, so these bytes are a lower bound (writes the member submits itself, e.g. through fsync, are counted)"

# block_writes_read SVC: "VERSION BYTES DEVICES", the member's cgroup version, its bytes written
# to block devices since the container started, and how many devices its file lists; fails,
# printing nothing, when no file answers. Under v1 a file that lists no device has counted
# nothing: the kernel keeps v1 throttle statistics only on a disk where blk-throttle is active,
# i.e. a limit was configured (block/blk-throttle.h blk_should_throtl: blk_throtl_activated
# first), and the bfq and cfq files only under those schedulers; the next file is tried.
# stdin from /dev/null: `compose exec -T` forwards stdin and would eat the caller's member list.
block_writes_read() {
  local out
  if out=$(compose exec -T "$1" cat /sys/fs/cgroup/io.stat </dev/null 2>/dev/null); then
    awk '{ n++; for (i = 2; i <= NF; i++) if ($i ~ /^wbytes=/) s += substr($i, 8) } END { printf "2 %.0f %d\n", s, n }' <<<"$out"
    return 0
  fi
  local f found=""
  for f in blkio.throttle.io_service_bytes blkio.bfq.io_service_bytes blkio.io_service_bytes; do
    out=$(compose exec -T "$1" cat "/sys/fs/cgroup/blkio/$f" </dev/null 2>/dev/null) || continue
    found=1
    if grep -qE '^[0-9]+:[0-9]+ Write [0-9]+' <<<"$out"; then
      awk '$2 == "Write" { s += $3; n++ } END { printf "1 %.0f %d\n", s, n }' <<<"$out"
      return 0
    fi
  done
  [[ -n $found ]] && echo "1 0 0"
}

# block_writes_before: each shard member's reading, kept until block_writes_after.
block_writes_before() {
  local svc r
  BLOCK_WRITES_BEFORE=()
  while IFS= read -r svc; do
    r=$(block_writes_read "$svc") && BLOCK_WRITES_BEFORE[$svc]=$r
  done < <(topology_services shard)
  return 0
}

# block_writes_json TEXT: TEXT as a JSON string.
block_writes_json() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}

# block_writes_join ITEM...: the items joined by ", ".
block_writes_join() {
  local out
  printf -v out '%s, ' "$@"
  printf '%s' "${out%, }"
}

# block_writes_after: each member's bytes written since block_writes_before, divided by the
# documents the invocation's runs wrote (EXPERIMENT_RESULTS), into each run's summary.json. A
# member not read on both sides, of another cgroup version, whose counter went back (the
# container restarted) or whose v1 file counted nothing is absent with the reason; no member
# read at all: block_writes stays null and block_writes_note says why.
block_writes_after() {
  local svc before after version="" v0 b0 n0 v1 b1 n1 most=-1 most_svc="" dir d docs=0 no_docs=""
  local bytes=() absent=() runs=() why=()
  [[ -n $EXPERIMENT_RESULTS ]] || return 0
  while IFS= read -r svc; do
    before=${BLOCK_WRITES_BEFORE[$svc]:-}
    if [[ -z $before ]]; then
      why+=("$svc: its cgroup's block I/O could not be read before the run (the member did not answer)")
    elif ! after=$(block_writes_read "$svc"); then
      why+=("$svc: its cgroup's block I/O could not be read after the run (the member did not answer)")
    else
      read -r v0 b0 n0 <<<"$before"
      read -r v1 b1 n1 <<<"$after"
      if [[ $v0 != "$v1" || ( -n $version && $v1 != "$version" ) ]]; then
        why+=("$svc: read under cgroup v$v0 then v$v1, beside v${version:-$v0}: not one count")
      elif [[ $v1 == 1 && $n0 == 0 && $n1 == 0 ]]; then
        version=1
        why+=("$svc: cgroup v1 blkio lists no device for it, before or after the run: nothing was counted (the kernel keeps v1 statistics only on a disk with a throttle limit configured, blk-throttle.h blk_should_throtl, or under the bfq/cfq schedulers)")
      elif ((b1 < b0)); then
        why+=("$svc: its counter went back ($b0 to $b1 bytes): the container restarted during the run")
      else
        version=$v1
        bytes+=("$(block_writes_json "$svc"): $((b1 - b0))")
        if ((b1 - b0 > most)); then most=$((b1 - b0)); most_svc=$svc; fi
        continue
      fi
    fi
    absent+=("$(block_writes_json "$svc"): $(block_writes_json "${why[-1]#"$svc: "}")")
  done < <(topology_services shard)
  while IFS= read -r dir; do
    [[ -n $dir ]] || continue
    runs+=("$(block_writes_json "$dir")")
    d=$(awk '/^  "documents_written": [0-9]+,$/ { gsub(/[^0-9]/, ""); print; exit }' "$LAB_ROOT/$dir/summary.json" 2>/dev/null)
    if [[ -n $d ]]; then docs=$((docs + d)); else no_docs=$dir; fi
  done <<<"$EXPERIMENT_RESULTS"
  local obj=null note per=null per_note=null caveat=null docs_json=$docs
  if [[ -n $version ]]; then
    if ((${#bytes[@]} == 0)); then
      per_note='"no member'"'"'s writes were counted (absent says why)"'
    elif [[ -n $no_docs ]]; then
      docs_json=null
      per_note=$(block_writes_json "$no_docs records no documents_written (its loader did not finish): the invocation's documents are not known")
    elif ((docs > 0)); then
      per=$(awk -v b="$most" -v d="$docs" 'BEGIN { printf "%.1f", b / d }')
    else
      per_note='"the runs wrote no document"'
    fi
    [[ $version != 1 ]] || caveat=$(block_writes_json "$BLOCK_WRITES_V1_CAVEAT")
    obj="{\"cgroup_version\": $version, \"bytes\": {$(block_writes_join ${bytes[@]+"${bytes[@]}"})}, \"absent\": {$(block_writes_join ${absent[@]+"${absent[@]}"})}"
    obj+=", \"runs\": [$(block_writes_join "${runs[@]}")], \"documents_written\": $docs_json, \"bytes_per_doc\": $per"
    obj+=", \"bytes_per_doc_note\": $per_note, \"per_doc_of\": $([[ -n $most_svc ]] && block_writes_json "$most_svc" || echo null), \"caveat\": $caveat}"
    note="measured by ./run.sh: each shard member's own cgroup (v$version) read inside it before the loader started and after it ended, bytes written summed over its devices; bytes_per_doc is the largest member's over every document the invocation's runs wrote"
  else
    note="not measured: no shard member's block I/O was read on both sides of the run ($(block_writes_join "${why[@]}"))"
  fi
  note=$(block_writes_json "$note")
  # into each run's summary.json, by the loader (lib/summary-merge.sh)
  summary_measured block_writes "$obj" block_writes_note "$note"
  if [[ -z $version ]]; then
    info "block writes: not measured (summary.json block_writes_note says why)"
  elif [[ -z $most_svc ]]; then
    info "block writes: no shard member's writes counted under cgroup v$version (summary.json block_writes.absent says why)"
  else
    info "block writes (cgroup v$version$([[ $version != 1 ]] || echo ', a lower bound')): $most_svc $most bytes, $per per document (summary.json)"
  fi
}
