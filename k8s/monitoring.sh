# shellcheck shell=bash
# Monitoring at 1 s in the engine's namespace, as k8s/README.md "Monitoring" describes it: the lab's
# own Prometheus (not a cluster-wide prometheus-operator, which many clusters lack and whose
# PodMonitor would need its CRDs) and Grafana. Sourced by lib/k8s.sh after k8s/manifests.sh.

# k8s_compose_image NAME: the image compose/monitoring.yml uses for prometheus|grafana.
k8s_compose_image() {
  awk -v n="$1" '$1 == "image:" && $2 ~ ("(^|/)" n ":") { print $2; exit }' "$LAB_ROOT/compose/monitoring.yml"
}

# k8s_file_configmap NAME NAMESPACE FILES...: a ConfigMap holding files verbatim (block scalars).
k8s_file_configmap() {
  local name=$1 ns=$2 f
  shift 2
  cat <<YAML
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: $name
  namespace: $ns
data:
YAML
  for f in "$@"; do
    printf '  %s: |\n' "$(basename "$f")"
    sed 's/^/    /' "$f"
    [[ -z $(tail -c1 "$f") ]] || echo
  done
}

# k8s_prometheus_config ENGINE NAMESPACE: prometheus.yml for the namespace.
k8s_prometheus_config() {
  local engine=$1 ns=$2
  cat <<YAML
# The lab's Prometheus on Kubernetes (k8s/monitoring.sh): every 1 s, as on Compose.
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: lab
    kubernetes_sd_configs:
      - role: pod
        namespaces: {names: [$ns]}
    relabel_configs:
      - source_labels: [__meta_kubernetes_pod_container_port_name]
        regex: lab-metrics|lab-loader
        action: keep
      - source_labels: [__meta_kubernetes_pod_phase]
        regex: Running
        action: keep
      # job: mongod (shard and config members), mongos, or loader, as on Compose. The operator's
      # component label is mongod for the shard's members but cfg for the config servers
      # (v1.23.0 pkg/controller/perconaservermongodb/statefulset.go: api.ConfigReplSetName), and
      # the dashboards select job="mongod": both become mongod.
      - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_component]
        regex: mongod|cfg
        target_label: job
        replacement: mongod
      - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_component]
        regex: mongos
        target_label: job
        replacement: mongos
      - source_labels: [__meta_kubernetes_pod_container_port_name]
        regex: lab-loader
        target_label: job
        replacement: loader
      - source_labels: [__meta_kubernetes_pod_name]
        target_label: instance
      - source_labels: [__meta_kubernetes_pod_node_name]
        target_label: node
      - target_label: engine
        replacement: $engine
YAML
}

# k8s_deployment_head NAME NAMESPACE APP SELECTOR: a one-replica Deployment up to its pod spec
# (labels app.kubernetes.io/name=APP; SELECTOR: the pod's nodeSelector lines, or empty).
k8s_deployment_head() {
  local name=$1 ns=$2 app=$3 selector=$4
  cat <<YAML
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: $name
  namespace: $ns
  labels: {app.kubernetes.io/name: $app}
spec:
  replicas: 1
  selector:
    matchLabels: {app.kubernetes.io/name: $app}
  template:
    metadata:
      labels: {app.kubernetes.io/name: $app}
    spec:
YAML
  [[ -z $selector ]] || printf '%s\n' "$selector"
}

# k8s_service NAME NAMESPACE APP PORT: a Service on port PORT (named http) of the pods labelled
# app.kubernetes.io/name=APP.
k8s_service() {
  cat <<YAML
---
apiVersion: v1
kind: Service
metadata:
  name: $1
  namespace: $2
spec:
  selector: {app.kubernetes.io/name: $3}
  ports:
    - {name: http, port: $4, targetPort: $4}
YAML
}

# k8s_monitoring_manifest ENGINE NAMESPACE PLACEMENT
k8s_monitoring_manifest() {
  local engine=$1 ns=$2 placement=$3 prom_image grafana_image selector="" tmp
  prom_image=$(k8s_compose_image prometheus)
  grafana_image=$(k8s_compose_image grafana)
  [[ -n $prom_image && -n $grafana_image ]] || die_env "compose/monitoring.yml names no prometheus or grafana image"
  [[ $placement == dedicated ]] && selector=$'      nodeSelector:\n        lab.role: monitor'
  tmp=$(mktemp -d)
  k8s_prometheus_config "$engine" "$ns" >"$tmp/prometheus.yml"
  k8s_file_configmap lab-prometheus "$ns" "$tmp/prometheus.yml"
  rm -rf "$tmp"
  k8s_file_configmap lab-grafana-datasources "$ns" "$LAB_ROOT"/dashboards/provisioning/datasources/*.yaml
  k8s_file_configmap lab-grafana-dashboard-provider "$ns" "$LAB_ROOT"/dashboards/provisioning/dashboards/*.yaml
  k8s_file_configmap lab-grafana-dashboards "$ns" "$LAB_ROOT"/dashboards/*.json
  cat <<YAML
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: lab-prometheus
  namespace: $ns
---
# Pod discovery in this namespace only: a Role, not a ClusterRole.
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: lab-prometheus
  namespace: $ns
rules:
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: lab-prometheus
  namespace: $ns
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: lab-prometheus
subjects:
  - kind: ServiceAccount
    name: lab-prometheus
    namespace: $ns
YAML
  k8s_deployment_head prometheus "$ns" lab-prometheus "$selector"
  cat <<YAML
      serviceAccountName: lab-prometheus
      containers:
        - name: prometheus
          image: $prom_image
          args:
            - --config.file=/etc/prometheus/lab/prometheus.yml
            - --storage.tsdb.path=/prometheus
            - --storage.tsdb.retention.time=15d
            - --storage.tsdb.retention.size=8GB
            - --web.listen-address=:9090
            - --web.enable-lifecycle
          ports:
            - {name: http, containerPort: 9090}
          readinessProbe:
            httpGet: {path: /-/ready, port: 9090}
          volumeMounts:
            - {name: config, mountPath: /etc/prometheus/lab, readOnly: true}
            - {name: data, mountPath: /prometheus}
      volumes:
        - name: config
          configMap: {name: lab-prometheus}
        - name: data
          emptyDir: {}
YAML
  # Named "prometheus" because the provisioned datasource (dashboards/provisioning) points at
  # http://prometheus:9090, as on Compose.
  k8s_service prometheus "$ns" lab-prometheus 9090
  k8s_deployment_head grafana "$ns" lab-grafana "$selector"
  cat <<YAML
      containers:
        - name: grafana
          image: $grafana_image
          env:
            - {name: GF_SECURITY_ADMIN_USER, value: admin}
            - {name: GF_SECURITY_ADMIN_PASSWORD__FILE, value: /run/lab-secrets/grafana-admin-password}
            - {name: GF_AUTH_ANONYMOUS_ENABLED, value: "true"}
            - {name: GF_AUTH_ANONYMOUS_ORG_ROLE, value: Viewer}
            - {name: GF_USERS_ALLOW_SIGN_UP, value: "false"}
            - {name: GF_DASHBOARDS_MIN_REFRESH_INTERVAL, value: 1s}
            - {name: GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH, value: /etc/grafana/lab-dashboards/cluster-overview.json}
            - {name: GF_ANALYTICS_REPORTING_ENABLED, value: "false"}
            - {name: GF_ANALYTICS_CHECK_FOR_UPDATES, value: "false"}
          ports:
            - {name: http, containerPort: 3000}
          readinessProbe:
            httpGet: {path: /api/health, port: 3000}
          volumeMounts:
            - {name: admin-password, mountPath: /run/lab-secrets, readOnly: true}
            - {name: datasources, mountPath: /etc/grafana/provisioning/datasources, readOnly: true}
            - {name: dashboard-provider, mountPath: /etc/grafana/provisioning/dashboards, readOnly: true}
            - {name: dashboards, mountPath: /etc/grafana/lab-dashboards, readOnly: true}
      volumes:
        - name: admin-password
          secret: {secretName: lab-grafana, defaultMode: 0440}
        - name: datasources
          configMap: {name: lab-grafana-datasources}
        - name: dashboard-provider
          configMap: {name: lab-grafana-dashboard-provider}
        - name: dashboards
          configMap: {name: lab-grafana-dashboards}
YAML
  k8s_service grafana "$ns" lab-grafana 3000
}
