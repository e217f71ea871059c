# shellcheck shell=bash
# Block writes: each shard member's bytes written to the block device holding its data directory
# over the loader's invocation, read from the member's own cgroup inside it (compose exec, as
# experiment_data_dirs reads its data directory), the same way on every engine: the kernel's count
# of what reached that disk. Read before the loader starts and after it ends, so the span holds
# everything the invocation wrote (setup, preload, warm-ups, every repetition) and the divisor is
# every document its runs wrote (summary.json documents_written). Written into each run's
# summary.json block_writes, merged by the loader (lib/summary-merge.sh, common/summary.schema.json);
# the report compares it across engines (common/meanings.js block_writes, keyed by cgroup version).
#   Which device: the one /data/db is mounted from (/proc/self/mountinfo), its whole disk where it
#   is a partition (the cgroup files list disks). Only that line is read: a bio is counted once per
#   layer it passes, so on LVM, dm-crypt or md the lower disks list the same bytes again (a
#   device-mapper clone keeps the cgroup: block/bio.c bio_clone_blkg_association).
#   cgroup v2: /sys/fs/cgroup/io.stat, the device's wbytes (counted for every bio on every kernel:
#   block/blk-cgroup.c blk_cgroup_bio_start).
#   cgroup v1: /sys/fs/cgroup/blkio/blkio.throttle.io_service_bytes, the device's Write line (else
#   the bfq, then the cfq file). What blk-throttle counts there depends on the kernel:
#     up to 5.15  every bio (blk_throtl_bio counts before it looks for a rule);
#     5.16-6.4    only a cgroup with a throttle rule on that disk ("block: move blk-throtl fast
#                 path inline", blk-throttle.h blk_throtl_bio returns on !tg->has_rules before
#                 __blk_throtl_bio counts); the others are listed with Write 0;
#     6.5-6.9     every bio again (ad7c3b41e86b "blk-throttle: Fix io statistics for cgroup v1",
#                 for 6.5, also in 6.4.y: blk_should_throtl counts first);
#     6.10 on     only on a disk where some limit was configured (a3166c51702b: blk_should_throtl
#                 returns on !blk_throtl_activated first); the others are not listed.
#   So under v1 each shard member gets a write limit on that disk far above any disk's speed
#   (compose/block-writes-v1.yml: blkio_config.device_write_bps, Engine 20.10+), which makes every
#   kernel line count it; and a reading whose device line is absent or 0 after the run is "not
#   counted", never 0 (a mongod that ran has written to its data disk). Buffered writeback by the
#   kernel's flusher threads is charged to the root cgroup there, so the figure is a lower bound
#   (writes the member submits itself, through fsync for one, are its own); on v2 writeback is
#   charged to the container.

# shellcheck source=lib/block-writes-limit.sh
source "$LAB_ROOT/lib/block-writes-limit.sh"

declare -gA BLOCK_WRITES_BEFORE=() BLOCK_WRITES_DEVICE=() BLOCK_WRITES_BEFORE_WHY=()

BLOCK_WRITES_V1_CAVEAT="cgroup v1: buffered writeback by the kernel's flusher threads is charged to the root cgroup, not the container, so these bytes are a lower bound (writes the member submits itself, e.g. through fsync, are counted)"
BLOCK_WRITES_DATA_DIR=/data/db

# block_writes_cat SVC FILE: FILE's text inside SVC. stdin from /dev/null: `compose exec -T`
# forwards stdin and would eat the caller's member list.
block_writes_cat() { compose exec -T "$1" cat "$2" </dev/null 2>/dev/null; }

# block_writes_mount_device DIR < MOUNTINFO: "MAJ:MIN SOURCE" of the mount at DIR (the last one
# there wins, as it hides the others); fails when nothing is mounted at DIR.
block_writes_mount_device() {
  awk -v dir="$1" '$5 == dir { for (i = 7; i <= NF; i++) if ($i == "-") { dev = $3 " " $(i + 2); break } }
    END { if (dev == "") exit 1; print dev }'
}

# block_writes_data_device SVC: "MAJ:MIN" of the disk holding SVC's data directory, read inside
# it: the mount's device; where that is no block device (btrfs and zfs report an anonymous 0:N),
# the device its source names; a partition's whole disk (the cgroup files list disks:
# block/blk-cgroup.c blkg_dev_name). Fails printing why.
block_writes_data_device() {
  local svc=$1 mounts dev source name disk
  if ! mounts=$(block_writes_cat "$svc" /proc/self/mountinfo) ||
    ! read -r dev source < <(block_writes_mount_device "$BLOCK_WRITES_DATA_DIR" <<<"$mounts"); then
    echo "no mount at $BLOCK_WRITES_DATA_DIR could be read inside it, so the device holding its data is not known"
    return 1
  fi
  if ! block_writes_cat "$svc" "/sys/dev/block/$dev/dev" >/dev/null; then
    name=${source#/dev/}
    if [[ $source != /dev/* || $name == */* ]] || ! dev=$(block_writes_cat "$svc" "/sys/class/block/$name/dev"); then
      echo "$BLOCK_WRITES_DATA_DIR is on $source ($dev), which is no block device: no disk's count is its data's"
      return 1
    fi
  fi
  if block_writes_cat "$svc" "/sys/dev/block/$dev/partition" >/dev/null; then
    disk=$(block_writes_cat "$svc" "/sys/dev/block/$dev/../dev") && [[ $disk =~ ^[0-9]+:[0-9]+$ ]] && dev=$disk
  fi
  echo "$dev"
}

# block_writes_v2_bytes DEVICE < IO_STAT: DEVICE's wbytes in a cgroup v2 io.stat; fails when it
# is not listed (io.stat lists only devices with I/O: blk-cgroup.c blkcg_print_one_stat).
block_writes_v2_bytes() {
  awk -v dev="$1" '$1 == dev { for (i = 2; i <= NF; i++) if ($i ~ /^wbytes=/) { print substr($i, 8); found = 1 } }
    END { exit !found }'
}

# block_writes_v1_bytes DEVICE < BLKIO_FILE: DEVICE's Write bytes in a cgroup v1 blkio
# io_service_bytes file; fails when it is not listed.
block_writes_v1_bytes() {
  awk -v dev="$1" '$1 == dev && $2 == "Write" { print $3; found = 1 } END { exit !found }'
}

# block_writes_read SVC: BLOCK_WRITES_READING="VERSION BYTES", the member's cgroup version and its
# bytes written to its data directory's disk since the container started; BYTES is "-" where the
# cgroup lists no write to that disk (not counted: the header says when a kernel does that). Fails
# when no file answers or the disk is not known (BLOCK_WRITES_WHY says why). Run in the caller's
# shell: the disk found is kept per member (BLOCK_WRITES_DEVICE).
block_writes_read() {
  local svc=$1 dev out f found="" bytes
  BLOCK_WRITES_WHY="" BLOCK_WRITES_READING=""
  if [[ -z ${BLOCK_WRITES_DEVICE[$svc]:-} ]]; then
    if ! dev=$(block_writes_data_device "$svc"); then
      BLOCK_WRITES_WHY=$dev
      return 1
    fi
    BLOCK_WRITES_DEVICE[$svc]=$dev
  fi
  dev=${BLOCK_WRITES_DEVICE[$svc]}
  if out=$(block_writes_cat "$svc" /sys/fs/cgroup/io.stat); then
    bytes=$(block_writes_v2_bytes "$dev" <<<"$out") && ((bytes > 0)) || bytes=-
    BLOCK_WRITES_READING="2 $bytes"
    return 0
  fi
  for f in blkio.throttle.io_service_bytes blkio.bfq.io_service_bytes blkio.io_service_bytes; do
    out=$(block_writes_cat "$svc" "/sys/fs/cgroup/blkio/$f") || continue
    found=1
    if bytes=$(block_writes_v1_bytes "$dev" <<<"$out") && ((bytes > 0)); then
      BLOCK_WRITES_READING="1 $bytes"
      return 0
    fi
  done
  if [[ -n $found ]]; then
    BLOCK_WRITES_READING="1 -"
    return 0
  fi
  BLOCK_WRITES_WHY="its cgroup's block I/O could not be read (the member did not answer)"
  return 1
}

# block_writes_before: each shard member's reading, kept until block_writes_after.
# A member not read keeps its reason (BLOCK_WRITES_BEFORE_WHY).
block_writes_before() {
  local svc
  BLOCK_WRITES_BEFORE=() BLOCK_WRITES_DEVICE=() BLOCK_WRITES_BEFORE_WHY=()
  while IFS= read -r svc; do
    if block_writes_read "$svc"; then
      BLOCK_WRITES_BEFORE[$svc]=$BLOCK_WRITES_READING
    else
      BLOCK_WRITES_BEFORE_WHY[$svc]=$BLOCK_WRITES_WHY
    fi
  done < <(topology_services shard)
  return 0
}

# block_writes_after: each member's bytes written since block_writes_before, divided by the
# documents the invocation's runs wrote (EXPERIMENT_RESULTS), into each run's summary.json. A
# member not read on both sides, of another cgroup version, whose counter went back (the
# container restarted) or whose data disk the kernel did not count is absent with the reason; no
# member read at all: block_writes stays null and block_writes_note says why.
block_writes_after() {
  local svc before version="" v0 b0 v1 b1 most=-1 most_svc="" dir d docs=0 no_docs="" dev i
  local bytes=() absent=() runs=() why=() devices=()
  [[ -n $EXPERIMENT_RESULTS ]] || return 0
  while IFS= read -r svc; do
    before=${BLOCK_WRITES_BEFORE[$svc]:-}
    dev=${BLOCK_WRITES_DEVICE[$svc]:-}
    if [[ -z $before ]]; then
      why+=("$svc: not read before the run: ${BLOCK_WRITES_BEFORE_WHY[$svc]:-the member did not answer}")
    elif ! block_writes_read "$svc"; then
      why+=("$svc: not read after the run: $BLOCK_WRITES_WHY")
    else
      read -r v0 b0 <<<"$before"
      read -r v1 b1 <<<"$BLOCK_WRITES_READING"
      if [[ $v0 != "$v1" || ( -n $version && $v1 != "$version" ) ]]; then
        why+=("$svc: read under cgroup v$v0 then v$v1, beside v${version:-$v0}: not one count")
      elif [[ $b1 == - ]]; then
        version=$v1
        if [[ $v1 == 1 ]]; then
          why+=("$svc: not counted: cgroup v1 blkio shows no write to its data disk ($dev) after the run,$(
            ) which a kernel does where it keeps no count there (5.16 to 6.4: only a cgroup with a throttle rule$(
            ) on the disk; 6.10 on: only a disk with a limit; block/blk-throttle.h blk_should_throtl), not a$(
            ) member that wrote nothing")
        else
          why+=("$svc: not counted: io.stat lists no write to its data disk ($dev) after the run")
        fi
      elif [[ $b0 == - ]]; then
        version=$v1
        why+=("$svc: not counted: its data disk ($dev) showed no write before the run and $b1 bytes after$(
          ) it: the kernel began counting in between, not one count")
      elif ((b1 < b0)); then
        why+=("$svc: its counter went back ($b0 to $b1 bytes): the container restarted during the run")
      else
        version=$v1
        bytes+=("$(summary_json_string "$svc"): $((b1 - b0))")
        devices+=("$(summary_json_string "$svc"): $(summary_json_string "$dev")")
        if ((b1 - b0 > most)); then most=$((b1 - b0)); most_svc=$svc; fi
        continue
      fi
    fi
    absent+=("$(summary_json_string "$svc"): $(summary_json_string "${why[-1]#"$svc: "}")")
  done < <(topology_services shard)
  local -a dirs=() facts=()
  while IFS= read -r dir; do [[ -z $dir ]] || dirs+=("$dir"); done <<<"$EXPERIMENT_RESULTS"
  # each run's documents as the loader reads its summary (lib/summary-merge.sh summary_facts)
  ((${#dirs[@]} == 0)) || mapfile -t facts < <(summary_facts "${dirs[@]}" 2>/dev/null)
  for i in "${!dirs[@]}"; do
    dir=${dirs[i]}
    runs+=("$(summary_json_string "$dir")")
    d=$(summary_fact "${facts[i]:-}" documents_written)
    if [[ $d =~ ^[0-9]+$ ]]; then docs=$((docs + d)); else no_docs=$dir; fi
  done
  local obj=null note per=null per_note=null caveat=null docs_json=$docs
  if [[ -n $version ]]; then
    if ((${#bytes[@]} == 0)); then
      per_note='"no member'"'"'s writes were counted (absent says why)"'
    elif [[ -n $no_docs ]]; then
      docs_json=null
      per_note=$(summary_json_string "$no_docs records no documents_written (its loader did not finish): the invocation's documents are not known")
    elif ((docs > 0)); then
      per=$(awk -v b="$most" -v d="$docs" 'BEGIN { printf "%.1f", b / d }')
    else
      per_note='"the runs wrote no document"'
    fi
    [[ $version != 1 ]] || caveat=$(summary_json_string "$BLOCK_WRITES_V1_CAVEAT")
    obj="{\"cgroup_version\": $version, \"bytes\": {$(summary_join ${bytes[@]+"${bytes[@]}"})}, \"absent\": {$(summary_join ${absent[@]+"${absent[@]}"})}"
    obj+=", \"devices\": {$(summary_join ${devices[@]+"${devices[@]}"})}"
    obj+=", \"runs\": [$(summary_join "${runs[@]}")], \"documents_written\": $docs_json, \"bytes_per_doc\": $per"
    obj+=", \"bytes_per_doc_note\": $per_note, \"per_doc_of\": $([[ -n $most_svc ]] && summary_json_string "$most_svc" || echo null), \"caveat\": $caveat}"
    note="measured by ./run.sh: each shard member's own cgroup (v$version) read inside it before the loader started and after it ended, bytes written to the disk holding its data directory (devices), that disk alone; bytes_per_doc is the largest member's over every document the invocation's runs wrote"
  else
    note="not measured: no shard member's block I/O was read on both sides of the run ($(summary_join "${why[@]}"))"
  fi
  note=$(summary_json_string "$note")
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
