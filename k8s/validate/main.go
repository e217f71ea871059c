// psmdb-check: the Percona operator's own defaulting and validation, run on the lab's manifests
// without a cluster. For every PerconaServerMongoDB in the YAML files given, it decodes strictly
// into the operator's API type (unknown fields fail, as the operator's client would), runs
// CheckNSetDefaults (the operator's semantic rules: engines, TLS/unsafe flags, sizes, encryption)
// and builds each replica set's StatefulSet spec with the operator's StatefulSpec, so the tests
// see the exact mongod arguments the operator would start (engine, cache size, encryption).
// Output: one JSON object per CR on stdout; exit 1 if any CR was rejected, 2 on bad input.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	api "github.com/percona/percona-server-mongodb-operator/pkg/apis/psmdb/v1"
	"github.com/percona/percona-server-mongodb-operator/pkg/naming"
	"github.com/percona/percona-server-mongodb-operator/pkg/psmdb"
	"github.com/percona/percona-server-mongodb-operator/pkg/version"
	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

type container struct {
	Name      string           `json:"name"`
	Args      []string         `json:"args"`
	Resources any              `json:"resources"`
	Ports     []map[string]any `json:"ports,omitempty"`
	Env       []map[string]any `json:"env,omitempty"`
}

type replset struct {
	Name           string            `json:"name"`
	Size           int32             `json:"size"`
	Containers     []container       `json:"containers"`
	InitContainers []container       `json:"init_containers"`
	NodeSelector   map[string]string `json:"nodeSelector"`
	Affinity       any               `json:"affinity"`
}

type result struct {
	File     string    `json:"file"`
	Name     string    `json:"name"`
	Accepted bool      `json:"accepted"`
	Error    string    `json:"error,omitempty"`
	Replsets []replset `json:"replsets,omitempty"`
}

func check(ctx context.Context, file string, doc []byte) result {
	r := result{File: file}
	cr := &api.PerconaServerMongoDB{}
	if err := yaml.UnmarshalStrict(doc, cr); err != nil {
		r.Error = "decode: " + err.Error()
		return r
	}
	r.Name = cr.Name
	if err := cr.CheckNSetDefaults(ctx, version.PlatformKubernetes); err != nil {
		r.Error = err.Error()
		return r
	}
	sets := append([]*api.ReplsetSpec{}, cr.Spec.Replsets...)
	if cr.Spec.Sharding.Enabled && cr.Spec.Sharding.ConfigsvrReplSet != nil {
		sets = append(sets, cr.Spec.Sharding.ConfigsvrReplSet)
	}
	for _, rs := range sets {
		spec, err := psmdb.StatefulSpec(ctx, cr, rs, naming.MongodLabels(cr, rs), "percona/percona-server-mongodb-operator:init",
			psmdb.StatefulConfigParams{}, psmdb.StatefulSpecSecretParams{})
		if err != nil {
			r.Error = fmt.Sprintf("replset %s: %v", rs.Name, err)
			return r
		}
		out := replset{Name: rs.Name, Size: *spec.Replicas, NodeSelector: spec.Template.Spec.NodeSelector, Affinity: spec.Template.Spec.Affinity}
		out.Containers = describe(spec.Template.Spec.Containers)
		// init containers count for the pod's QoS class too (Guaranteed needs requests = limits in all)
		out.InitContainers = describe(spec.Template.Spec.InitContainers)
		r.Replsets = append(r.Replsets, out)
	}
	r.Accepted = true
	return r
}

func describe(cs []corev1.Container) []container {
	out := []container{}
	for _, c := range cs {
		var ports, env []map[string]any
		b, _ := json.Marshal(c.Ports)
		_ = json.Unmarshal(b, &ports)
		b, _ = json.Marshal(c.Env)
		_ = json.Unmarshal(b, &env)
		args := append(append([]string{}, c.Command...), c.Args...)
		out = append(out, container{Name: c.Name, Args: args, Resources: c.Resources, Ports: ports, Env: env})
	}
	return out
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: psmdb-check FILE.yaml...")
		os.Exit(2)
	}
	ctx := context.Background()
	enc := json.NewEncoder(os.Stdout)
	checked, rejected := 0, 0
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "psmdb-check:", err)
			os.Exit(2)
		}
		rd := utilyaml.NewYAMLReader(bufioReader(data))
		for {
			doc, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "psmdb-check:", file, err)
				os.Exit(2)
			}
			var meta struct{ Kind string }
			if yaml.Unmarshal(doc, &meta) != nil || meta.Kind != "PerconaServerMongoDB" {
				continue
			}
			res := check(ctx, file, doc)
			checked++
			if !res.Accepted {
				rejected++
			}
			_ = enc.Encode(res)
		}
	}
	fmt.Fprintf(os.Stderr, "psmdb-check: %d PerconaServerMongoDB checked, %d rejected\n", checked, rejected)
	if checked == 0 {
		fmt.Fprintln(os.Stderr, "psmdb-check: no PerconaServerMongoDB found: nothing was checked")
		os.Exit(1)
	}
	if rejected > 0 {
		os.Exit(1)
	}
}
