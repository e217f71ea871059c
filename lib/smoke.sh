# shellcheck shell=bash
# ./run.sh smoke: end-to-end checks on a Docker host. (issues 2-5 add their checks)
verb_smoke() { die_env "smoke: not implemented yet"; }
