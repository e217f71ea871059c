# shellcheck shell=bash
# Which CPUs of the Docker host the cluster's members and the loader may use. Every core the
# loader burns is a core the engine under test does not get, so the profile's loader_cores column
# (compose/profiles.tsv) reserves that many CPUs for the loader, the highest-numbered ones, and
# the members (every mongod and mongos) get the others: Compose `cpuset` in compose/cluster.yml
# (LAB_MEMBER_CPUSET) and compose/loader.yml (LAB_LOADER_CPUSET). That needs enough CPUs: the
# members keep at least the profile's data_cpus (one data member's CPU limit; fewer would change
# what the profile measures). A host with fewer than data_cpus + loader_cores CPUs cannot keep
# them apart: both get every CPU, the lab says so once per run, and
# LAB_CPUS_SHARED=yes travels to the loader, whose summary.json records the placement
# (placement.shared), which the report marks.
# The Docker host's CPU count: LAB_HOST_CPUS when set (a remote Docker host, tests), else on macOS
# the Docker Desktop VM's (`docker info`, not asked under --dry-run), else this machine's.

# cpu_range_to VAR FIRST LAST: VAR set to a cpuset list, "2" or "0-2" (no fork: every run places).
cpu_range_to() { if (($2 == $3)); then printf -v "$1" '%s' "$2"; else printf -v "$1" '%s' "$2-$3"; fi; }

# placement CPUS LOADER_CORES MEMBER_MIN: "member_cpuset<TAB>loader_cpuset<TAB>shared(yes|no)".
placement() {
  local cpus=$1 loader=$2 member_min=$3 members loaders
  if (( loader >= 1 && cpus - loader >= member_min )); then
    cpu_range_to members 0 $((cpus - loader - 1))
    cpu_range_to loaders $((cpus - loader)) $((cpus - 1))
    printf '%s\t%s\tno\n' "$members" "$loaders"
  else
    cpu_range_to members 0 $((cpus - 1))
    printf '%s\t%s\tyes\n' "$members" "$members"
  fi
}

# placement_member_min: the profile's data_cpus, rounded up to whole CPUs (it may be fractional).
placement_member_min() {
  local cpus
  profile_field_to cpus "$PROFILE" data_cpus
  awk -v c="$cpus" 'BEGIN { n = int(c); if (n < c + 0) n++; print n }'
}

placement_host_cpus() {
  local n=${LAB_HOST_CPUS:-}
  # OSTYPE (bash's own: darwin* on macOS), not $(uname -s): a fork and a program every run
  if [[ -z $n && $OSTYPE == darwin* && ${DRY_RUN:-0} != 1 ]] && command -v docker >/dev/null 2>&1; then
    n=$(docker info --format '{{.NCPU}}' 2>/dev/null) || n=
  fi
  [[ $n =~ ^[1-9][0-9]*$ ]] || n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)
  echo "$n"
}

# placement_resolve: decide once per run (in the main shell, before a compose line is built, as
# lib/stack.sh does for the monitoring host view) and say plainly when the CPUs are shared.
PLACEMENT=
placement_resolve() {
  [[ -z $PLACEMENT ]] || return 0
  local cpus loader member_min
  cpus=$(placement_host_cpus)
  profile_field_to loader "$PROFILE" loader_cores
  member_min=$(placement_member_min)
  PLACEMENT=$(placement "$cpus" "$loader" "$member_min")
  # Said where it matters: verbs that start members or the loader. down, status, destroy, logs
  # and shell start neither, and opened with this warning about a run they were not making.
  case ${VERB:-} in down | status | destroy | logs | shell) return 0 ;; esac
  if [[ $PLACEMENT == *$'\t'yes ]]; then
    warn "the Docker host has $cpus CPU(s), fewer than profile $PROFILE's data_cpus ($member_min) + loader_cores ($loader): the loader and the cluster's members share every CPU, and the results say so (summary.json placement.shared)"
  fi
}

# placement_env: the NAME=VALUE lines stack_env adds.
placement_env() {
  local p=$PLACEMENT member loader shared
  [[ -n $p ]] || p=$(placement "$(placement_host_cpus)" "$(profile_field "$PROFILE" loader_cores)" "$(placement_member_min)")
  IFS=$'\t' read -r member loader shared <<<"$p"
  printf 'LAB_MEMBER_CPUSET=%s\nLAB_LOADER_CPUSET=%s\nLAB_CPUS_SHARED=%s\n' "$member" "$loader" "$shared"
}
