// promql-check: parses every PromQL expression of the lab's Grafana dashboards with Prometheus's
// own parser (github.com/prometheus/prometheus/promql/parser, the code the server runs) and lists
// the metric names each one reads.
//
// Usage: promql-check DASHBOARD.json...
// Output: one TSV line per expression:  ok|error <TAB> file <TAB> where <TAB> names|message
//   where: the panel title and refId, or "variable <name>"
//   names: comma-separated metric names of the expression's selectors (sorted, unique)
// Exit: 0 every expression parses, 1 one does not (or a file is unreadable), 2 usage.
//
// Grafana variables are replaced before parsing by values of the same PromQL type:
// $__rate_interval/$__interval/$__range by durations, $engine/$rs/$member by regex-safe
// strings. A panel's expression must therefore be valid PromQL once Grafana has substituted
// them, which is exactly what Prometheus receives.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

// substitutions, longest names first so that $__rate_interval is not cut by $__range.
var substitutions = []struct{ from, to string }{
	{"${__rate_interval}", "4s"}, // Grafana: max(4 x scrape interval, $__interval) = 4 s at 1 s
	{"$__rate_interval", "4s"},
	{"${__interval}", "1s"},
	{"$__interval", "1s"},
	{"${__range}", "900s"},
	{"$__range", "900s"},
	{"${engine}", "wiredtiger"},
	{"$engine", "wiredtiger"},
	{"${rs}", ".*"},
	{"$rs", ".*"},
	{"${member}", ".*"},
	{"$member", ".*"},
}

// Substitute replaces the Grafana variables the lab's dashboards use; any other $variable is
// left in place so that the parser reports it.
func Substitute(expr string) string {
	for _, s := range substitutions {
		expr = strings.ReplaceAll(expr, s.from, s.to)
	}
	return expr
}

var labelValuesRe = regexp.MustCompile(`^\s*label_values\((.*),\s*[a-zA-Z_][a-zA-Z0-9_]*\s*\)\s*$`)

// VariableExpr returns the PromQL inside a Grafana variable query (label_values(EXPR, label) or
// query_result(EXPR)); "" when the query has no PromQL part (label_values(label)).
func VariableExpr(q string) string {
	if m := labelValuesRe.FindStringSubmatch(q); m != nil {
		return m[1]
	}
	if strings.HasPrefix(strings.TrimSpace(q), "label_values(") {
		return ""
	}
	if s := strings.TrimSpace(q); strings.HasPrefix(s, "query_result(") && strings.HasSuffix(s, ")") {
		return s[len("query_result(") : len(s)-1]
	}
	return q
}

// MetricNames lists the metric names an expression selects.
func MetricNames(e parser.Expr) []string {
	seen := map[string]bool{}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			name := vs.Name
			if name == "" {
				for _, m := range vs.LabelMatchers {
					if m.Name == "__name__" {
						name = m.Value
					}
				}
			}
			if name != "" {
				seen[name] = true
			}
		}
		return nil
	})
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

type target struct {
	Expr  string `json:"expr"`
	RefID string `json:"refId"`
}

type panel struct {
	Title   string   `json:"title"`
	Targets []target `json:"targets"`
	Panels  []panel  `json:"panels"`
}

type dashboard struct {
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Query json.RawMessage `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type item struct{ where, expr string }

func items(d dashboard) []item {
	var out []item
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			for _, t := range p.Targets {
				if strings.TrimSpace(t.Expr) != "" {
					out = append(out, item{fmt.Sprintf("%s [%s]", p.Title, t.RefID), t.Expr})
				}
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q string
		if json.Unmarshal(v.Query, &q) != nil {
			var obj struct {
				Query string `json:"query"`
			}
			_ = json.Unmarshal(v.Query, &obj)
			q = obj.Query
		}
		if e := VariableExpr(q); e != "" {
			out = append(out, item{"variable " + v.Name, e})
		}
	}
	return out
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: promql-check DASHBOARD.json...")
		os.Exit(2)
	}
	failed := false
	for _, f := range os.Args[1:] {
		b, err := os.ReadFile(f)
		var d dashboard
		if err == nil {
			err = json.Unmarshal(b, &d)
		}
		if err != nil {
			fmt.Printf("error\t%s\t-\t%v\n", f, err)
			failed = true
			continue
		}
		for _, it := range items(d) {
			e, err := parser.ParseExpr(Substitute(it.expr))
			if err != nil {
				fmt.Printf("error\t%s\t%s\t%s\n", f, it.where, strings.ReplaceAll(err.Error(), "\n", " "))
				failed = true
				continue
			}
			fmt.Printf("ok\t%s\t%s\t%s\n", f, it.where, strings.Join(MetricNames(e), ","))
		}
	}
	if failed {
		os.Exit(1)
	}
}
