# shellcheck shell=bash
# Cluster verbs: up, down, destroy, status, logs, shell. (issue 2 fills this in)
verb_up() { die_env "up: not implemented yet"; }
verb_down() { die_env "down: not implemented yet"; }
verb_destroy() { die_env "destroy: not implemented yet"; }
verb_status() { die_env "status: not implemented yet"; }
verb_logs() { die_env "logs: not implemented yet"; }
verb_shell() { die_env "shell: not implemented yet"; }
