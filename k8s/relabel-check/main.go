// relabel-check: what the lab's Prometheus makes of its targets, and which of them the lab's
// dashboards select, with Prometheus's own code (github.com/prometheus/prometheus v0.300.1, the
// version dashboards/test/promql-check parses with): model/relabel applies a scrape config's
// relabel_configs, promql/parser reads every dashboard expression, model/labels matches.
//
// Usage: relabel-check PROMETHEUS_YML TARGETS_JSON DASHBOARD_JSON...
//
//	TARGETS_JSON: [{"role": "config|shard|router|loader", "job_name": "<scrape config>",
//	                "labels": {"__address__": ..., "__meta_...": ...}}, ...]  (discovered labels)
//
// Output (JSON): {"targets": [{"role", "labels" (null: dropped)}],
//
//	              "selectors": [{"where", "selector", "roles": [roles of the targets it selects]}]}
//	Only selectors with a literal matcher on a target label (job="mongod", not engine="$engine")
//	are listed: Grafana variables take their values from the data, so only literals can miss.
//
// Exit: 0, 1 on unreadable input, 2 usage.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/relabel"
	"github.com/prometheus/prometheus/promql/parser"
	"gopkg.in/yaml.v2"
)

type scrapeConfig struct {
	JobName        string            `yaml:"job_name"`
	RelabelConfigs []*relabel.Config `yaml:"relabel_configs"`
}

type promConfig struct {
	ScrapeConfigs []scrapeConfig `yaml:"scrape_configs"`
}

type target struct {
	Role    string            `json:"role"`
	JobName string            `json:"job_name"`
	Labels  map[string]string `json:"labels"`
}

type outTarget struct {
	Role   string            `json:"role"`
	Labels map[string]string `json:"labels"`
}

type outSelector struct {
	Where    string   `json:"where"`
	Selector string   `json:"selector"`
	Roles    []string `json:"roles"`
}

// populate: the target's labels as Prometheus's scrape/target.go PopulateLabels (v0.300.1) makes
// them: job defaults to the scrape config's name, relabel_configs applied (false: dropped), then
// __meta_* labels deleted and instance defaulted to the address. The __ labels that remain
// (__address__, __scheme__, ...) are not series labels and are left out here.
func populate(t target, sc scrapeConfig) map[string]string {
	lb := labels.NewBuilder(labels.FromMap(t.Labels))
	if lb.Get(model.JobLabel) == "" {
		lb.Set(model.JobLabel, sc.JobName)
	}
	if !relabel.ProcessBuilder(lb, sc.RelabelConfigs...) {
		return nil
	}
	if lb.Get(model.InstanceLabel) == "" {
		lb.Set(model.InstanceLabel, lb.Get(model.AddressLabel))
	}
	out := map[string]string{}
	lb.Labels().Range(func(l labels.Label) {
		if !strings.HasPrefix(l.Name, model.ReservedLabelPrefix) {
			out[l.Name] = l.Value
		}
	})
	return out
}

var grafanaVar = regexp.MustCompile(`\$\{?__(rate_interval|interval|range)\}?`)
var otherVar = regexp.MustCompile(`\$\{?[A-Za-z_][A-Za-z0-9_]*\}?`)

const varMark = "GRAFANAVAR"

// substitute: Grafana's time variables become durations, every other variable a marker, so the
// expression parses and matchers on variables can be told from literal ones.
func substitute(expr string) string {
	return otherVar.ReplaceAllString(grafanaVar.ReplaceAllString(expr, "4s"), varMark)
}

func fail(code int, format string, a ...any) {
	fmt.Fprintf(os.Stderr, "relabel-check: "+format+"\n", a...)
	os.Exit(code)
}

func main() {
	if len(os.Args) < 4 {
		fail(2, "usage: relabel-check PROMETHEUS_YML TARGETS_JSON DASHBOARD_JSON...")
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(1, "%v", err)
	}
	var pc promConfig
	if err := yaml.Unmarshal(raw, &pc); err != nil {
		fail(1, "%s: %v", os.Args[1], err)
	}
	configs := map[string]scrapeConfig{}
	for _, sc := range pc.ScrapeConfigs {
		configs[sc.JobName] = sc
	}
	raw, err = os.ReadFile(os.Args[2])
	if err != nil {
		fail(1, "%v", err)
	}
	var ts []target
	if err := json.Unmarshal(raw, &ts); err != nil {
		fail(1, "%s: %v", os.Args[2], err)
	}
	var out struct {
		Targets   []outTarget   `json:"targets"`
		Selectors []outSelector `json:"selectors"`
	}
	targetLabels := map[string]bool{}
	for _, t := range ts {
		sc, ok := configs[t.JobName]
		if !ok {
			fail(1, "%s has no scrape config %q", os.Args[1], t.JobName)
		}
		l := populate(t, sc)
		out.Targets = append(out.Targets, outTarget{Role: t.Role, Labels: l})
		for k := range l {
			targetLabels[k] = true
		}
	}
	for _, file := range os.Args[3:] {
		raw, err := os.ReadFile(file)
		if err != nil {
			fail(1, "%v", err)
		}
		var dash struct {
			Panels []struct {
				Title   string `json:"title"`
				Targets []struct {
					Expr  string `json:"expr"`
					RefID string `json:"refId"`
				} `json:"targets"`
			} `json:"panels"`
		}
		if err := json.Unmarshal(raw, &dash); err != nil {
			fail(1, "%s: %v", file, err)
		}
		for _, p := range dash.Panels {
			for _, q := range p.Targets {
				if q.Expr == "" {
					continue
				}
				e, err := parser.ParseExpr(substitute(q.Expr))
				if err != nil {
					fail(1, "%s %q %s: %v", file, p.Title, q.RefID, err)
				}
				parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
					vs, ok := n.(*parser.VectorSelector)
					if !ok {
						return nil
					}
					var lit []*labels.Matcher
					for _, m := range vs.LabelMatchers {
						if targetLabels[m.Name] && !strings.Contains(m.Value, varMark) {
							lit = append(lit, m)
						}
					}
					if len(lit) == 0 {
						return nil
					}
					roles := map[string]bool{}
					for _, t := range out.Targets {
						if t.Labels == nil {
							continue
						}
						all := true
						for _, m := range lit {
							all = all && m.Matches(t.Labels[m.Name])
						}
						if all {
							roles[t.Role] = true
						}
					}
					rs := []string{}
					for r := range roles {
						rs = append(rs, r)
					}
					sort.Strings(rs)
					where := fmt.Sprintf("%s: %s %s", strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".json"), p.Title, q.RefID)
					out.Selectors = append(out.Selectors, outSelector{Where: where, Selector: vs.String(), Roles: rs})
					return nil
				})
			}
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	_ = enc.Encode(out)
}
