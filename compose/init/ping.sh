#!/usr/bin/env bash
# The healthcheck of every mongod and mongos (compose/cluster.yml): the server answers
# {ping: 1} with ok: 1. Usage: bash /lab/init/ping.sh [HOST [PORT]] (default 127.0.0.1 27017);
# exit 0 when it does, 1 with one line saying what it got otherwise.
#
# Why not the image's shell: a mongosh is a Node.js process that loads the whole shell, 0.5 to
# 1 s of CPU per check; nine of them every 10 s held 0.55 to 1.0 of a core for good, during the
# measurements too, and on a busy host a check ran past its 10 s timeout, so up failed on members
# that were well. This is one bash, a TCP connection (bash's /dev/tcp) and one OP_MSG, a few
# milliseconds of CPU. ping needs no login (src/mongo/db/commands/generic.cpp, PingCommand:
# requiresAuth() false) and is answered by mongod and mongos alike; OP_MSG is the protocol of
# every line the lab runs (3.6 and later: src/mongo/rpc/op_msg.h). The reply's "ok" is a double
# (src/mongo/db/commands.cpp, CommandHelpers::appendSimpleCommandStatus: 1.0); an int32 or int64
# 1 is taken too (other servers' encoders).
set -u
LC_ALL=C
host=${1:-127.0.0.1}
port=${2:-27017}
fail() { echo "ping $host:$port: $*"; exit 1; }

exec 3<>"/dev/tcp/$host/$port" 2>/dev/null || fail "no connection"
# OP_MSG (opCode 2013): header (length 51, requestID 1, responseTo 0, opCode), flagBits 0,
# section kind 0, then the BSON document {ping: 1 (int32), $db: "admin"} (30 bytes)
printf '\x33\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\xdd\x07\x00\x00\x00\x00\x00\x00\x00' >&3 ||
  fail "could not send"
# shellcheck disable=SC2016 # $db is the field's name, sent as it is
printf '\x1e\x00\x00\x00\x10ping\x00\x01\x00\x00\x00\x02$db\x00\x06\x00\x00\x00admin\x00\x00' >&3 ||
  fail "could not send"

# bytes N: the next N bytes of the reply, as numbers, into BYTES (NUL is read's delimiter: an
# empty character). 5 s for each byte at most; the check as a whole has the healthcheck's timeout.
BYTES=()
bytes() {
  local i c v
  BYTES=()
  for ((i = 0; i < $1; i++)); do
    IFS= read -r -d '' -n 1 -t 5 c <&3 || fail "the reply ended after $i of $1 bytes"
    v=0
    [[ -z $c ]] || printf -v v '%d' "'$c"
    BYTES+=("$v")
  done
}

bytes 4
length=$((BYTES[0] | BYTES[1] << 8 | BYTES[2] << 16 | BYTES[3] << 24))
((length > 21 && length <= 65536)) || fail "a reply of $length bytes is not a ping's"
bytes $((length - 4))
# the rest: requestID, responseTo, opCode (2013, 0x07dd), flagBits, section kind, the document
((BYTES[8] == 0xdd && BYTES[9] == 0x07)) || fail "the reply is not an OP_MSG"
# the field "ok": its type (double 0x01, int32 0x10, int64 0x12), "ok", NUL, then its value
reply=" ${BYTES[*]} "
case $reply in
  *" 1 111 107 0 0 0 0 0 0 0 240 63 "* | *" 16 111 107 0 1 0 0 0 "* | *" 18 111 107 0 1 0 0 0 0 0 0 0 "*) exit 0 ;;
esac
fail "the reply holds no ok: 1"
