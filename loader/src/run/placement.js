'use strict';
// Where the loader ran relative to the cluster's members, for summary.json `placement`: the
// cpusets lib/placement.sh chose from the profile and the Docker host's CPUs, passed into the
// loader container by compose/loader.yml (LAB_LOADER_CPUSET, LAB_MEMBER_CPUSET, LAB_CPUS_SHARED).
// shared: true when loader and members had to share CPUs (the host had too few): the report marks
// such runs. null when the lab did not place the loader (--uri against a cluster it did not start).

// placementOf(env, cpusAvailable) -> { loader_cpus, member_cpus, shared, loader_cpus_available } | null
function placementOf(env, cpusAvailable) {
  if (!env.LAB_CPUS_SHARED) return null;
  return {
    loader_cpus: env.LAB_LOADER_CPUSET || null,
    member_cpus: env.LAB_MEMBER_CPUSET || null,
    shared: env.LAB_CPUS_SHARED === 'yes',
    // What the loader process itself may run on (sched_getaffinity through libuv): a check that
    // the cpuset was applied.
    loader_cpus_available: cpusAvailable,
  };
}

module.exports = { placementOf };
