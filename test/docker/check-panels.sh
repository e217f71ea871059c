#!/usr/bin/env bash
# check-panels.sh LAB ENGINE: every panel query of the lab's generated dashboards (LAB/dashboards),
# evaluated against the suite's real Prometheus (127.0.0.1:9090) during a run, by the lab's own
# check (lib/monitoring.sh monitoring_panels_have_data, the one `./run.sh smoke` makes): a panel
# that is empty fails unless its note lists the server line as not collecting it. One more reason
# holds in this suite only, said per panel: cAdvisor is left out (LAB_LEAVE_OUT), so a panel whose
# query reads container_* series (cAdvisor's) is empty here by that choice. Exit 1 on any other
# empty panel, on a panel that must be empty and is not, and when no query was checked.
set -uo pipefail
LAB_ROOT=$1
engine=$2
# shellcheck source=lib/common.sh
source "$LAB_ROOT/lib/common.sh"
# shellcheck source=lib/tables.sh
source "$LAB_ROOT/lib/tables.sh"
# shellcheck source=lib/monitoring.sh
source "$LAB_ROOT/lib/monitoring.sh"
MONITORING_PROMETHEUS_PORT=9090
out=$(monitoring_panels_have_data "$engine" 2>&1)
rc=$?
fail=0
left_out=0
title=
while IFS= read -r line; do
  if [[ $line =~ ^\ +no\ data:\ (.*)$ ]]; then
    title=${BASH_REMATCH[1]}
  elif [[ -n $title && $line =~ ^\ +query:\ (.*)$ ]]; then
    if [[ " ${LAB_LEAVE_OUT:-} " == *" cadvisor "* && ${BASH_REMATCH[1]} == *container_* ]]; then
      echo "    empty, cAdvisor left out here: $title"
      left_out=$((left_out + 1))
    else
      echo "    EMPTY: $title"
      echo "      query: ${BASH_REMATCH[1]}"
      fail=1
    fi
    title=
  elif [[ $line == *"not empty ("* || $line == *"nothing proved"* || $line == *"unreadable rule"* ]]; then
    echo "$line"
    fail=1
  elif [[ $line == *"panel queries checked"* || $line == *"skip (not collected"* ]]; then
    echo "$line"
  fi
done <<<"$out"
echo "    $left_out panel queries empty because cAdvisor is left out"
# rc alone (monitoring_panels_have_data's) also counts the cAdvisor panels, passed above
: "$rc"
((fail == 0))
