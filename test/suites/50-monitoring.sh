# shellcheck shell=bash
# Monitoring: dashboards (JSON, uids, no volatile fields, PromQL through Prometheus's own parser,
# metric names against the loader's real /metrics and dashboards/metrics-catalog, exporter names
# from mongodb_exporter's own naming code over MongoDB 8.0-shaped getDiagnosticData replies per
# server line, panel logic with promtool test rules), prometheus.yml
# (promtool), compose/monitoring.yml (real Compose, ports on 127.0.0.1 only, no secret in the
# config), lab-exporter's unit tests, and live: a real Prometheus scraping a running loader and the
# real mongodb_exporter at 1 s. About 30 s. Script: dashboards/test/run-tests.sh.
# Its servers on ports found free first (free_port): on a loopback of its own (own_loopback).
monitoring_suite() {
  own_loopback bash "$LAB_ROOT/dashboards/test/run-tests.sh"
}
run_suite monitoring monitoring_suite
