# shellcheck shell=bash
# Experiment verbs: experiment1|2|3. (issue 3 fills this in)
experiment_flags_usage() { echo "  (none yet)"; }
verb_experiment() { die_env "experiments: not implemented yet"; }
