#!/usr/bin/env bash
# The Docker suite's second stack: the checks that need a cluster of their own (created with 1 MB
# oplogs, or with a mistake planted in the lab's files), run beside the first stack's checks
# instead of after them. test/docker.sh starts it once its images are built:
#   unshare --net --fork bash test/docker/apart.sh WORK FIRST_DOCKER_HOST
# In that network namespace (its own loopback) this stack publishes the lab's ports on 127.0.0.1
# as the first does in the host's, and ./run.sh's port checks see only it. Its own dockerd
# (test/docker/daemon.sh, under $LAB_DOCKER_SUITE_DIR/apart, kept between runs like the first's),
# the images copied from the first daemon when they differ (docker save | docker load: the same
# image IDs, nothing built twice), its own copy of the checkout under WORK.
# Each check is one line of WORK/results, "STATUS<TAB>NAME<TAB>DETAIL_FILE", or a "# " comment;
# test/docker.sh prints them as TAP after its own.
#   - fault stale-secondary: the restarted secondary RECOVERING, too stale; resync brings it back
#   - then, on that stack: a member stopped, the healthchecks' cost, faults stopped by signals
#     (test/docker/lifecycle.sh lifecycle_member_checks)
#   - up with the keyfile written 0644, one member's --replSet wrong, the shard without
#     --shardsvr (test/docker/planted.sh): refused as 8.0 refuses them
#   - up with a member that never becomes healthy: exit 1, naming it
set -uo pipefail
WORK=$1
FIRST_DOCKER_HOST=$2
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SUITE_DIR=${LAB_DOCKER_SUITE_DIR:-/var/tmp/lab-docker-suite}
RESULTS=$WORK/results
# shellcheck source=test/docker/daemon.sh
source "$LAB_ROOT/test/docker/daemon.sh"
# shellcheck source=test/docker/steps.sh
source "$LAB_ROOT/test/docker/steps.sh"
mkdir -p "$WORK"
: >"$RESULTS"
tap() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$RESULTS"; return "$1"; }
comment() { sed 's/^/# /' >>"$RESULTS"; }

ip link set lo up || { tap 1 "second stack: loopback up in its network namespace (run under unshare --net)"; exit 1; }
trap 'daemon_stop "$SUITE_DIR/apart"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
daemon_start "$SUITE_DIR/apart" lab-suite-apart >"$WORK/daemon.out" 2>&1 ||
  { tap 1 "second stack: its dockerd started" "$WORK/daemon.out"; exit 1; }
daemon_clean

# the first daemon's images (test/docker/images.sh), where this one's differ (by image ID)
SUITE_IMAGE_DIR=$WORK/images
# shellcheck source=test/docker/images.sh
source "$LAB_ROOT/test/docker/images.sh"
start=$SECONDS
need=()
for t in lab-suite/base:1 "${SUITE_IMAGE_TAGS[@]}"; do
  [[ $(DOCKER_HOST=$FIRST_DOCKER_HOST docker image inspect -f '{{.Id}}' "$t" 2>/dev/null) == \
    "$(docker image inspect -f '{{.Id}}' "$t" 2>/dev/null)" ]] || need+=("$t")
done
if ((${#need[@]})); then
  DOCKER_HOST=$FIRST_DOCKER_HOST docker save "${need[@]}" | docker load -q >"$WORK/images.out" 2>&1 ||
    { tap 1 "second stack: the first daemon's images loaded (${need[*]})" "$WORK/images.out"; exit 1; }
fi
echo "second stack: its own dockerd in a network namespace of its own; images: ${#need[@]} copied from the first daemon ($((SECONDS - start)) s)" | comment

LAB=$WORK/lab
lab_copy "$LAB"
export LAB_LEAVE_OUT="cadvisor grafana"

# stale-secondary recreates the cluster with 1 MB oplogs (--yes), stops a secondary, writes until
# both other oplogs rolled past it: started again it must turn RECOVERING, "too stale"; resync then
# brings it back by initial sync. Monitoring left out: the first stack's checks cover it.
start=$SECONDS
step stale lab fault stale-secondary --engine wiredtiger --no-monitoring --yes --oplog-size-mb 1 --rate 300 \
  --baseline-seconds 2 --settle-seconds 2
rc=$?
grep -q PASS "$WORK/stale.out" && grep -q RECOVERING "$WORK/stale.out"
tap $((rc || $?)) "fault stale-secondary: the restarted secondary is RECOVERING, too stale, verdict PASS ($((SECONDS - start)) s)" "$WORK/stale.out"
stale_member=$(grep -oE 'member: shard01-[a-z]' "$WORK/stale.out" | head -1 | cut -d' ' -f2)
start=$SECONDS
step resync lab resync "${stale_member:-shard01-c}" --engine wiredtiger --no-monitoring
rc=$?
grep -q PASS "$WORK/resync.out"
tap $((rc || $?)) "resync ${stale_member:-?}: initial sync, SECONDARY again, verdict PASS ($((SECONDS - start)) s)" "$WORK/resync.out"
# the stack, back whole: a stopped member, the healthchecks' cost, faults interrupted by signals
# shellcheck source=test/docker/lifecycle.sh
source "$LAB_ROOT/test/docker/lifecycle.sh"
lifecycle_member_checks --no-monitoring
lab destroy --engine wiredtiger --yes >/dev/null 2>&1

# The keyfile service writing the keyfile 0644 (planted in the copy's compose/cluster.yml): every
# member refuses to start ("permissions on ... are too open", src/mongo/db/auth/security_file.cpp),
# so up fails, naming the member.
# shellcheck source=test/docker/planted.sh
source "$LAB_ROOT/test/docker/planted.sh"
planted_keep compose/cluster.yml
sed -i 's/install -m 400 /install -m 644 /' "$LAB/compose/cluster.yml"
step keyfile644 lab up --engine wiredtiger --no-monitoring
rc=$?
docker logs lab-wiredtiger-cfg1-1 >>"$WORK/keyfile644.out" 2>&1
planted_restore compose/cluster.yml
((rc != 0)) && grep -q 'permissions on /etc/lab-keyfile/keyfile are too open' "$WORK/keyfile644.out"
tap $? "up with the keyfile written 0644: every member refuses it as 8.0 does, up fails (exit $rc)" "$WORK/keyfile644.out"
lab destroy --engine wiredtiger --yes >/dev/null 2>&1

# compose/cluster.yml with one shard member's --replSet wrong (shard01-b: shard02): the member
# vetoes replSetInitiate, init fails, up fails; and with the shard's members started without
# --shardsvr: addShard refused, init says so (stopped then: it would retry to its deadline).
start=$SECONDS
planted_up_refused replset planted_replset 'Our set name did not match that of shard01-b'
tap $? "up with shard01-b given --replSet shard02 in compose/cluster.yml: replSetInitiate vetoed as 8.0 vetoes it, \
up fails ($((SECONDS - start)) s)" "$WORK/replset.out"
start=$SECONDS
planted_up_refused no-shardsvr planted_no_shardsvr 'Cannot run addShard on a node started without --shardsvr' watch
tap $? "up with the shard's members lacking --shardsvr in compose/cluster.yml: addShard refused as 8.0 refuses it \
($((SECONDS - start)) s)" "$WORK/no-shardsvr.out"

# A member that never becomes healthy: the engine's image is swapped (in this daemon only) for one
# whose mongod exits at once (a bad flag, a missing library, ...). up must stop with one line
# naming the service, exit non-zero, and say what it left.
docker tag mongo:8.0 lab-suite/standin-good:8.0
printf 'FROM lab-suite/standin-good:8.0\nRUN printf "#!/bin/sh\\necho \\"mongod: the suite broke this image on purpose\\" >&2\\nexit 14\\n" > /usr/local/bin/mongod\n' |
  DOCKER_BUILDKIT=0 docker build -q -t mongo:8.0 - >/dev/null 2>&1
step broken lab up --engine wiredtiger --no-monitoring
rc=$?
docker tag lab-suite/standin-good:8.0 mongo:8.0
((rc != 0)) && grep -qE 'cfg1|shard01|healthy|exited' "$WORK/broken.out"
tap $? "up refuses cleanly when a member never becomes healthy: exit $rc, names it" "$WORK/broken.out"
tail -4 "$WORK/broken.out" | comment
lab destroy --engine wiredtiger --yes >/dev/null 2>&1
exit 0
