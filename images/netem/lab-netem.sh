#!/bin/sh
# lab-netem: network faults applied from inside one member's network namespace.
#   slow DELAY RATE      netem delay + rate limit on every interface but lo (egress of the member)
#   partition HOST...    drop traffic to and from these hosts (the member keeps its clients)
#   heal                 remove both; safe to run when nothing is applied
#   show                 print qdiscs and the LAB_FAULT chain
# Egress shaping slows what the member sends: its getMore requests and TCP ACKs. ACKs clock the
# sync source's sends, so a low rate (64 kbit/s ~ 120 ACKs/s ~ 350 KB/s of oplog) throttles
# replication into the member too, without an ifb device (which needs a host kernel module).
set -eu
ifaces() { ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -v '^lo$'; }
chain() {
  iptables -N LAB_FAULT 2>/dev/null || true
  iptables -C INPUT -j LAB_FAULT 2>/dev/null || iptables -I INPUT -j LAB_FAULT
  iptables -C OUTPUT -j LAB_FAULT 2>/dev/null || iptables -I OUTPUT -j LAB_FAULT
}
cmd=${1:-show}
[ $# -gt 0 ] && shift
case $cmd in
  slow)
    delay=${1:?delay, e.g. 100ms}; rate=${2:?rate, e.g. 64kbit}
    for i in $(ifaces); do
      tc qdisc replace dev "$i" root netem delay "$delay" rate "$rate" limit 10000
      echo "netem: $i delay $delay rate $rate"
    done ;;
  partition)
    chain
    for h in "$@"; do
      for ip in $(getent ahostsv4 "$h" | awk '{print $1}' | sort -u); do
        iptables -A LAB_FAULT -s "$ip" -j DROP
        iptables -A LAB_FAULT -d "$ip" -j DROP
        echo "partition: dropping traffic with $h ($ip)"
      done
    done ;;
  heal)
    for i in $(ifaces); do
      if tc qdisc del dev "$i" root 2>/dev/null; then echo "netem: $i cleared"; fi
    done
    if iptables -L LAB_FAULT >/dev/null 2>&1; then
      iptables -F LAB_FAULT
      iptables -D INPUT -j LAB_FAULT 2>/dev/null || true
      iptables -D OUTPUT -j LAB_FAULT 2>/dev/null || true
      iptables -X LAB_FAULT 2>/dev/null || true
      echo "partition: cleared"
    fi ;;
  show)
    for i in $(ifaces); do tc qdisc show dev "$i"; done
    iptables -S LAB_FAULT 2>/dev/null || echo "no partition" ;;
  *) echo "usage: lab-netem slow DELAY RATE | partition HOST... | heal | show" >&2; exit 2 ;;
esac
