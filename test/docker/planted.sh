# shellcheck shell=bash
# Mistakes planted in the lab's own files (the suite's copy of the checkout, $LAB), each of which
# mongod 8.0 refuses: the stand-in must refuse it the same way when the lab itself carries it.
# Sourced by test/docker.sh (its tap, step, lab, mongosh_in, bg, bg_wait, WORK and LAB). Each
# planter edits a file of the copy and the caller puts the original back (planted_restore) before
# anything else runs. The same refusals, the stand-in started directly with one flag each:
# test/docker/standin/test/strict.test.js.

# planted_keep FILE: a copy of the copy's FILE (relative to $LAB), for planted_restore.
planted_keep() { mkdir -p "$WORK/orig/$(dirname "$1")" && cp "$LAB/$1" "$WORK/orig/$1"; }
planted_restore() { cp "$WORK/orig/$1" "$LAB/$1"; }

# planted_replset: compose/cluster.yml gives shard01-b (not the member init initiates from) its own
# command, the shard's with --replSet shard02. 8.0: the member vetoes replSetInitiate ("Our set
# name did not match that of shard01-b:27017", code 103, src/mongo/db/repl/repl_set_config_checks.cpp),
# init fails, up fails.
planted_replset() {
  local f=$LAB/compose/cluster.yml cmd
  cmd=$(grep -m1 '^  command: \["exec mongod --shardsvr --replSet shard01 ' "$f") || return 1
  awk -v cmd="  ${cmd/--replSet shard01 /--replSet shard02 }" '
    { print }
    /^  shard01-b:$/ { inb = 1; next }
    inb && /<<: \*shard/ { print cmd; inb = 0 }' "$f" >"$f.planted" && mv "$f.planted" "$f"
  grep -q -- '--replSet shard02 ' "$f"
}

# planted_no_shardsvr: the x-shard anchor of compose/cluster.yml (every shard member) without
# --shardsvr. 8.0's addShard: "Cannot run addShard on a node started without --shardsvr" (code
# 50876, src/mongo/db/s/shardsvr_add_shard_command.cpp ShardsvrAddShardCommand::typedRun); init retries
# addShard, saying so, until its deadline.
planted_no_shardsvr() {
  local f=$LAB/compose/cluster.yml
  sed -i 's/^  command: \["exec mongod --shardsvr --replSet shard01 /  command: ["exec mongod --replSet shard01 /' "$f"
  ! grep -q 'exec mongod --shardsvr' "$f"
}

# planted_op_query: compose/init/ping.sh, the members' healthcheck, written for the old protocol:
# {ping: 1} sent as OP_QUERY on admin.$cmd and an OP_REPLY taken as the answer. 8.0 answers an
# OP_QUERY that is not the handshake with an OP_REPLY of ok: 0, code 352, "Unsupported OP_QUERY
# command: ping" (src/mongo/rpc/check_allowed_op_query_cmd.cpp checkAllowedOpQueryCommand), so the
# check finds no ok: 1.
planted_op_query() {
  local f=$LAB/compose/init/ping.sh s
  s=$(<"$f")
  # OP_QUERY (opCode 2004): header (length 54, requestID 1, responseTo 0), flags 0, "admin.$cmd",
  # numberToSkip 0, numberToReturn -1, then {ping: 1 (int32)} (15 bytes)
  s=${s/"'\x33\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\xdd\x07\x00\x00\x00\x00\x00\x00\x00'"/\
"'\x36\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\xd4\x07\x00\x00\x00\x00\x00\x00admin.\$cmd\x00\x00\x00\x00\x00\xff\xff\xff\xff'"}
  s=${s/"'\x1e\x00\x00\x00\x10ping\x00\x01\x00\x00\x00\x02\$db\x00\x06\x00\x00\x00admin\x00\x00'"/\
"'\x0f\x00\x00\x00\x10ping\x00\x01\x00\x00\x00\x00'"}
  # the reply taken as OP_REPLY (opCode 1)
  s=${s/"((BYTES[8] == 0xdd && BYTES[9] == 0x07))"/"((BYTES[8] == 0x01 && BYTES[9] == 0x00))"}
  printf '%s\n' "$s" >"$f"
  grep -q 'xd4\\x07' "$f" && grep -q 'BYTES\[8\] == 0x01' "$f" && ! grep -q 'x02.db' "$f"
}

# planted_up_refused NAME PLANTER PATTERN [WATCH]: the copy's file planted by PLANTER, `up
# --no-monitoring` (the members, mongos and init are what the mistake reaches); the init log
# must show PATTERN. With WATCH, up is stopped as soon as init has said PATTERN (init retries the
# step until its 180 s deadline, which would only repeat it); without, up must fail by itself.
# The file is put back and the stack destroyed either way. Output in $WORK/NAME.out.
planted_up_refused() {
  local planter=$2 pattern=$3 watch=${4:-} out=$WORK/$1.out pid i rc=0 seen=1
  planted_keep compose/cluster.yml
  if ! "$planter"; then
    planted_restore compose/cluster.yml
    echo "the planter $planter changed nothing in compose/cluster.yml" >"$out"
    return 1
  fi
  (cd "$LAB" && exec setsid ./run.sh up --engine wiredtiger --no-monitoring) >"$out" 2>&1 &
  pid=$!
  for ((i = 0; i < 1500; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    if [[ -n $watch ]] && grep -qE "$pattern" <<<"$(docker logs lab-wiredtiger-init-1 2>&1)"; then seen=0; break; fi
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null
    for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null
    [[ -n $watch ]] || { echo "up still running after 300 s" >>"$out"; rc=1; }
  fi
  wait "$pid" && [[ -z $watch ]] && { echo "up succeeded with the mistake planted" >>"$out"; rc=1; }
  planted_restore compose/cluster.yml
  { echo "--- init's log:"; docker logs lab-wiredtiger-init-1 2>&1 | tail -15; } >>"$out"
  grep -qE "$pattern" "$out" || rc=1
  ((seen == 0)) || [[ -z $watch ]] || rc=1
  lab destroy --engine wiredtiger --yes >/dev/null 2>&1
  return "$rc"
}

# planted_ping_refused: the healthcheck as planted, run in a member (the copy's compose/init is
# the members' /lab/init): it must fail, finding no ok: 1; put back, it passes (the control).
planted_ping_refused() {
  local out=$WORK/op-query.out rc=0
  planted_keep compose/init/ping.sh
  planted_op_query >"$out" 2>&1 || { echo "the OP_QUERY ping was not planted" >>"$out"; rc=1; }
  (cd "$LAB" && docker compose -p lab-wiredtiger exec -T shard01-a bash /lab/init/ping.sh) >>"$out" 2>&1 && rc=1
  planted_restore compose/init/ping.sh
  grep -q 'the reply holds no ok: 1' "$out" || rc=1
  (cd "$LAB" && docker compose -p lab-wiredtiger exec -T shard01-a bash /lab/init/ping.sh) >>"$out" 2>&1 || rc=1
  return "$rc"
}

# planted_isolated_write: the shard's two secondaries paused (the lab's own pause op,
# loader/src/faults/docker-ops.tsv: no heartbeat from them, a partition as the old primary sees
# it), then w:1 writes to that primary through the lab's own client code (compose/init/lab.js
# connectRoot, under mongosh in the member), one every 200 ms. 8.0: the primary relinquishes once
# it has heard from no majority for the election timeout (10 s, the lab's replica-set settings
# leave it at its default) and refuses writes, NotWritablePrimary; a primary that kept
# acknowledging them would let the lab's failover count writes no set will ever hold.
PLANTED_ISOLATED_JS='load("/lab/init/lab.js");
var c = connectRoot("127.0.0.1"), coll = c.getDB("suite").isolated, n = 0;
coll.insertOne({ before: 1 }, { writeConcern: { w: 1 } });
print("ready at " + new Date().toISOString());
var t0 = Date.now();
for (;;) {
  try { coll.insertOne({ during: n++ }, { writeConcern: { w: 1 } }); }
  catch (e) { print("refused at " + Date.now() + " after " + n + " writes: " + e.codeName + " " + e.message); break; }
  if (Date.now() - t0 > 40000) { print("still writable 40 s after ready"); break; }
  sleep(200);
}'
# planted_pause SERVICE OUT: `docker compose pause SERVICE`, tried again when runc's freeze timed
# out: on cgroup v1 a busy cgroup can stay FREEZING through runc's 1,000 tries ("unable to
# freeze", a fresh-clone CI run on this 2-core host), and runc then thaws it back
# (libcontainer/cgroups/fs/freezer.go, FreezerGroup.Set), so the next try starts from a running
# container. PAUSED_AT: the start of the try that froze it (the partition begins no sooner).
planted_pause() {
  local try err
  for ((try = 1; try <= 5; try++)); do
    PAUSED_AT=$(date +%s%3N)
    err=$(cd "$LAB" && docker compose -p lab-wiredtiger pause "$1" 2>&1) && { echo "$err" >>"$2"; return 0; }
    echo "$err" >>"$2"
    [[ $err == *'unable to freeze'* ]] || return 1
    echo "pause $1: runc could not freeze its cgroup (try $try of 5); again" >>"$2"
  done
  return 1
}

planted_isolated_write() {
  local out=$WORK/isolated.out primary others rc=0 paused refused i member
  primary=$(mongosh_in shard01-a 'load("/lab/init/lab.js"); var c = connectRoot("127.0.0.1");
    print(c.getDB("admin").runCommand({hello: 1}).primary || "")' 2>&1 | tail -1)
  primary=${primary%%:*}
  [[ $primary == shard01-[a-z] ]] || { echo "no primary found: '$primary'" >"$out"; return 1; }
  others=$(printf '%s\n' shard01-a shard01-b shard01-c | grep -vx "$primary" | tr '\n' ' ')
  echo "primary: $primary; paused: $others" >"$out"
  # The writer first connects and writes once, and only then are the others paused: mongosh takes
  # seconds to start on a busy host, and a pause before it had connected once let the election
  # timeout run out before its first write.
  bg isolated-writes mongosh_in "$primary" "$PLANTED_ISOLATED_JS"
  for ((i = 0; i < 1200; i++)); do
    grep -qs '^ready at ' "$WORK/isolated-writes.out" && break
    kill -0 "${BG_PID[isolated-writes]}" 2>/dev/null || break
    sleep 0.1
  done
  # the partition starts when the second of them is frozen: the primary hears from no majority
  for member in $others; do planted_pause "$member" "$out" || rc=1; done
  paused=$PAUSED_AT
  bg_wait isolated-writes
  cat "$WORK/isolated-writes.out" >>"$out"
  # shellcheck disable=SC2086
  (cd "$LAB" && docker compose -p lab-wiredtiger unpause $others) >>"$out" 2>&1 || rc=1
  docker logs "lab-wiredtiger-$primary-1" 2>&1 | grep "Can't see a majority of the set, relinquishing primary" |
    tail -1 >>"$out"
  grep -q '^ready at ' "$out" || { echo "the writer never wrote before the pause" >>"$out"; return 1; }
  # refused no sooner than the election timeout less a heartbeat's second (and a margin) after
  # the others were paused: a primary that refuses at once is as wrong as one that never does
  refused=$(grep -oE '^refused at [0-9]+' "$out" | grep -oE '[0-9]+') ||
    { echo "never refused" >>"$out"; return 1; }
  echo "refused $(((refused - paused) / 1000)) s after the pause" >>"$out"
  grep -qE '^refused at .*(NotWritablePrimary|not primary)' "$out" && ((refused - paused >= 8500)) &&
    grep -q "relinquishing primary" "$out" || rc=1
  return "$rc"
}
