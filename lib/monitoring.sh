# shellcheck shell=bash
# Monitoring part of the stack: compose file, dashboard URLs. (issue 4 fills this in)
