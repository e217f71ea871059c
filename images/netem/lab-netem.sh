#!/bin/sh
# lab-netem: network faults applied from inside one member's network namespace.
#   slow DELAY RATE      netem delay + rate limit on every interface but lo (egress of the member)
#   partition HOST...    drop traffic to and from these hosts (the member keeps its clients)
#   heal                 remove both; safe to run when nothing is applied
#   show                 print qdiscs and the LAB_FAULT chain
#   probe                add and remove a netem qdisc (delay 0ms): exit 0, or 3 with the line
#                        "netem-missing: <tc's error>" when the kernel has no netem qdisc
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
  probe)
    # The netem qdisc is the kernel's (sch_netem), the same in every namespace of the Docker host.
    # A kernel without it answers ENOENT: tc prints the kernel's extack "Error: Specified qdisc
    # kind is unknown." (linux net/sched/sch_api.c qdisc_create; "Specified qdisc not found"
    # before 6.1), or "RTNETLINK answers: No such file or directory" from an older tc. Docker
    # Desktop's WSL2 kernel is such a kernel (microsoft/WSL#6065, open; bitnami/containers#32326).
    i=$(ifaces | head -n 1)
    [ -n "$i" ] || i=lo
    if out=$(tc qdisc add dev "$i" root netem delay 0ms 2>&1); then
      tc qdisc del dev "$i" root
      echo "netem: available ($i)"
    else
      echo "netem-missing: $(printf '%s\n' "$out" | head -n 1)"
      exit 3
    fi ;;
  show)
    for i in $(ifaces); do tc qdisc show dev "$i"; done
    iptables -S LAB_FAULT 2>/dev/null || echo "no partition" ;;
  *) echo "usage: lab-netem slow DELAY RATE | partition HOST... | heal | show | probe" >&2; exit 2 ;;
esac
