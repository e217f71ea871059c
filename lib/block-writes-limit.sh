# shellcheck shell=bash
# Under cgroup v1 the kernel counts a member's block writes only where a throttle rule exists on
# some kernel lines (lib/block-writes.sh): compose/block-writes-v1.yml gives each shard member a
# write limit on the Docker data disk that never binds. This finds that disk, once per run, in the
# main shell before a command line is built (compose_with), as stack_resolve_docker_server does.
# The disk is read on this host, so only for a local daemon (DOCKER_HOST unset or unix://); a
# rootless daemon sets no limit on v1 (it has no cgroup of its own there), and a dry run asks
# nothing. Elsewhere the file is left out and the reading says "not counted" where the kernel
# keeps no count.

# The disk's device node ("/dev/block/8:0", "/dev/vda"), "" where no limit is set, "auto" until asked.
BLOCK_WRITES_LIMIT_DISK=auto
# Test stand-ins for this host's sysfs, /dev/block and /dev (the real ones by default).
LAB_SYS_DEV_BLOCK=${LAB_SYS_DEV_BLOCK:-/sys/dev/block}
LAB_DEV_BLOCK=${LAB_DEV_BLOCK:-/dev/block}
LAB_DEV=${LAB_DEV:-/dev}

# block_writes_mount_of PATH < MOUNTINFO: MAJ:MIN of the mount holding PATH (the longest mount
# point that is PATH or a parent of it; the last such line wins, as it hides the ones before).
block_writes_mount_of() {
  awk -v path="$1" '{
      mp = $5; ok = (mp == "/" || path == mp || index(path, mp "/") == 1)
      if (ok && length(mp) >= best) { best = length(mp); dev = $3 }
    } END { if (dev == "") exit 1; print dev }'
}

# block_writes_resolve_limit: set BLOCK_WRITES_LIMIT_DISK (see above).
block_writes_resolve_limit() {
  [[ $BLOCK_WRITES_LIMIT_DISK == auto ]] || return 0
  BLOCK_WRITES_LIMIT_DISK=""
  [[ ${DRY_RUN:-0} != 1 && ( -z ${DOCKER_HOST:-} || ${DOCKER_HOST:-} == unix://* ) ]] || return 0
  command -v docker >/dev/null 2>&1 || return 0
  local info cgroup root dev
  info=$(docker info --format '{{.CgroupVersion}} {{json .SecurityOptions}} {{.DockerRootDir}}' 2>/dev/null) || return 0
  cgroup=${info%% *}
  root=${info##* }
  [[ $cgroup == 1 && $info != *name=rootless* && -r $LAB_MOUNTINFO ]] || return 0
  dev=$(block_writes_mount_of "$root/volumes" <"$LAB_MOUNTINFO") || return 0
  [[ -e $LAB_SYS_DEV_BLOCK/$dev ]] || return 0
  # a partition's whole disk: blk-throttle keeps its rules per disk (blkcg_conf_open_bdev refuses
  # a partition)
  [[ ! -e $LAB_SYS_DEV_BLOCK/$dev/partition ]] || dev=$(cat "$LAB_SYS_DEV_BLOCK/$dev/../dev" 2>/dev/null) || return 0
  [[ $dev =~ ^[0-9]+:[0-9]+$ ]] || return 0
  # the node Docker is given: udev's /dev/block/MAJ:MIN link, else the kernel's own name for the
  # disk in devtmpfs (sysfs uevent DEVNAME), as on a host without udev
  local node=$LAB_DEV_BLOCK/$dev name
  if [[ ! -b $node ]]; then
    name=$(sed -n 's/^DEVNAME=//p' "$LAB_SYS_DEV_BLOCK/$dev/uevent" 2>/dev/null)
    node=$LAB_DEV/$name
    [[ -n $name && $name != */..* && -b $node ]] || return 0
  fi
  BLOCK_WRITES_LIMIT_DISK=$node
}
