# shellcheck shell=bash
# Fault scenarios and resync. (issue 5 fills this in)
fault_flags_usage() { echo "  (none yet)"; }
verb_fault() { die_env "fault: not implemented yet"; }
verb_resync() { die_env "resync: not implemented yet"; }
