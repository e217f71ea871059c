package main

// What every dashboard panel must show, checked on the meaning of its query and not only on its
// returning data: dashboards/test/panels.tsv gives, per panel and refId, the metrics it
// reads, the functions it applies (rate, not irate or increase), the window (Grafana's
// $__rate_interval or a fixed one), the quantile (histogram_quantile's phi or the loader gauge's
// quantile label), the aggregations with their label sets (sum by (op, outcome)) and the filters
// (every matcher but the engine's). Each expression is parsed by Prometheus's own parser
// (github.com/prometheus/prometheus/promql/parser, the code the server runs), its shape is read from
// the syntax tree, and compared field by field with the table. A panel without a row, a row
// without a panel, and a table that checked nothing all fail: a new panel needs its row, written
// from what the panel is meant to show (its title and description), never copied from its query.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
)

// Grafana's variables, replaced by sentinels of the same PromQL type that map back to their names
// (Substitute would make $__rate_interval a plain 4s, indistinguishable from a fixed window).
const rateIntervalSentinel = 3999 * time.Millisecond

var semanticSubstitutions = []struct{ from, to, back string }{
	{"${__rate_interval}", "3s999ms", ""},
	{"$__rate_interval", "3s999ms", ""},
	{"${engine}", "__engine__", "$engine"},
	{"$engine", "__engine__", "$engine"},
	{"${member}", "__member__", "$member"},
	{"$member", "__member__", "$member"},
	{"${rs}", "__rs__", "$rs"},
	{"$rs", "__rs__", "$rs"},
}

func semanticSubstitute(expr string) string {
	for _, s := range semanticSubstitutions {
		expr = strings.ReplaceAll(expr, s.from, s.to)
	}
	return Substitute(expr)
}

func variableBack(v string) string {
	for _, s := range semanticSubstitutions {
		if s.back != "" {
			v = strings.ReplaceAll(v, s.to, s.back)
		}
	}
	return v
}

func window(d time.Duration) string {
	if d == rateIntervalSentinel {
		return "$__rate_interval"
	}
	return model.Duration(d).String()
}

// shape: the columns of panels.tsv after dashboard, title and refId.
type shape struct{ metrics, functions, operators, window, quantile, by, filters string }

// operand: what one side of a binary operator reads (its metric names, or the number).
func operand(e parser.Expr) string {
	if nl, ok := e.(*parser.NumberLiteral); ok {
		return strconv.FormatFloat(nl.Val, 'f', -1, 64)
	}
	if p, ok := e.(*parser.ParenExpr); ok {
		return operand(p.Expr)
	}
	names := MetricNames(e)
	if len(names) == 0 {
		return "?"
	}
	return strings.Join(names, ",")
}

func joined(set map[string]bool) string {
	if len(set) == 0 {
		return "-"
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func shapeOf(e parser.Expr) shape {
	metrics, funcs, windows, quantiles, filters := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	var by, ops []string
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		switch x := n.(type) {
		case *parser.VectorSelector:
			for _, m := range x.LabelMatchers {
				switch {
				case m.Name == "__name__":
					metrics[m.Value] = true
				case m.Name == "engine" && m.Type.String() == "=" && variableBack(m.Value) == "$engine":
					// every selector's; checked apart (TestEverySelectorHasTheEngine)
				default:
					filters[fmt.Sprintf("%s%s%q", m.Name, m.Type, variableBack(m.Value))] = true
					if m.Name == "quantile" {
						quantiles[m.Value] = true
					}
				}
			}
			if x.OriginalOffset != 0 {
				filters["offset "+model.Duration(x.OriginalOffset).String()] = true
			}
		case *parser.MatrixSelector:
			windows[window(x.Range)] = true
		case *parser.SubqueryExpr:
			windows[window(x.Range)+":"+model.Duration(x.Step).String()] = true
		case *parser.Call:
			funcs[x.Func.Name] = true
			if x.Func.Name == "histogram_quantile" {
				if nl, ok := x.Args[0].(*parser.NumberLiteral); ok {
					quantiles[strconv.FormatFloat(nl.Val, 'f', -1, 64)] = true
				} else {
					quantiles["(not a number)"] = true
				}
			}
		case *parser.BinaryExpr:
			// the order matters (a ratio's numerator, a difference's sign): kept as written
			ops = append(ops, fmt.Sprintf("(%s %s %s)", operand(x.LHS), x.Op, operand(x.RHS)))
		case *parser.AggregateExpr:
			g := append([]string(nil), x.Grouping...)
			sort.Strings(g)
			kw := "by"
			if x.Without {
				kw = "without"
			}
			if len(g) == 0 && !x.Without {
				by = append(by, x.Op.String())
			} else {
				by = append(by, fmt.Sprintf("%s %s (%s)", x.Op, kw, strings.Join(g, ", ")))
			}
		}
		return nil
	})
	list := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return strings.Join(l, "; ")
	}
	return shape{joined(metrics), joined(funcs), list(ops), joined(windows), joined(quantiles), list(by), joined(filters)}
}

type panelRow struct {
	key   string // dashboard <TAB> title <TAB> refId
	shape shape
	line  int
}

func readPanelsTable(t *testing.T, path string) map[string]panelRow {
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the table of what each panel must show: %v", err)
	}
	defer f.Close()
	rows := map[string]panelRow{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 10 {
			t.Fatalf("%s:%d: %d columns, want 10 (dashboard, panel, refId, metrics, functions, operators, window, quantile, by, filters)", path, n, len(c))
		}
		key := strings.Join(c[:3], "\t")
		if _, dup := rows[key]; dup {
			t.Fatalf("%s:%d: a second row for %q", path, n, key)
		}
		rows[key] = panelRow{key, shape{c[3], c[4], c[5], c[6], c[7], c[8], c[9]}, n}
	}
	return rows
}

type panelTarget struct{ key, expr string }

func dashboardTargets(t *testing.T) []panelTarget {
	files, _ := filepath.Glob(filepath.Join("..", "..", "*.json"))
	if len(files) == 0 {
		t.Fatal("no dashboards/*.json found")
	}
	var out []panelTarget
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var d dashboard
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var walk func([]panel)
		walk = func(ps []panel) {
			for _, p := range ps {
				for _, tg := range p.Targets {
					if strings.TrimSpace(tg.Expr) != "" {
						out = append(out, panelTarget{strings.Join([]string{filepath.Base(file), p.Title, tg.RefID}, "\t"), tg.Expr})
					}
				}
				walk(p.Panels)
			}
		}
		walk(d.Panels)
	}
	return out
}

func TestPanelSemantics(t *testing.T) {
	table := readPanelsTable(t, filepath.Join("..", "panels.tsv"))
	targets := dashboardTargets(t)
	if len(targets) == 0 || len(table) == 0 {
		t.Fatalf("examined nothing: %d panel targets, %d table rows", len(targets), len(table))
	}
	seen := map[string]bool{}
	usedShared := map[string]bool{}
	checked := 0
	for _, tg := range targets {
		if seen[tg.key] {
			continue // the same shared panel on another dashboard is another key (file name)
		}
		seen[tg.key] = true
		e, err := parser.ParseExpr(semanticSubstitute(tg.expr))
		if err != nil {
			t.Errorf("%s: %v", tg.key, err)
			continue
		}
		got := shapeOf(e)
		want, ok := table[tg.key]
		if !ok { // a panel every dashboard carries (the scrape-health row): dashboard "*"
			want, ok = table["*\t"+strings.SplitN(tg.key, "\t", 2)[1]]
			if ok {
				usedShared[want.key] = true
			}
		}
		if !ok {
			t.Errorf("panel without a row in dashboards/test/panels.tsv (write what it must show):\n%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", tg.key, got.metrics, got.functions, got.operators, got.window, got.quantile, got.by, got.filters)
			continue
		}
		checked++
		for _, f := range []struct{ name, got, want string }{
			{"metrics", got.metrics, want.shape.metrics}, {"functions", got.functions, want.shape.functions}, {"operators", got.operators, want.shape.operators},
			{"window", got.window, want.shape.window}, {"quantile", got.quantile, want.shape.quantile},
			{"by", got.by, want.shape.by}, {"filters", got.filters, want.shape.filters},
		} {
			if f.got != f.want {
				t.Errorf("panels.tsv:%d %s: %s is %q, the panel must show %q\n  query: %s", want.line, strings.ReplaceAll(tg.key, "\t", " / "), f.name, f.got, f.want, tg.expr)
			}
		}
	}
	for key, r := range table {
		if !seen[key] && !usedShared[key] {
			t.Errorf("panels.tsv:%d: no such panel target: %s", r.line, strings.ReplaceAll(key, "\t", " / "))
		}
	}
	if checked == 0 {
		t.Fatal("no panel checked against the table")
	}
}

// Every selector of every panel is filtered by the dashboard's engine variable (the lab runs one
// engine at a time, but Prometheus keeps the last engine's series beside it).
func TestEverySelectorHasTheEngine(t *testing.T) {
	n := 0
	for _, tg := range dashboardTargets(t) {
		e, err := parser.ParseExpr(semanticSubstitute(tg.expr))
		if err != nil {
			t.Errorf("%s: %v", tg.key, err)
			continue
		}
		parser.Inspect(e, func(node parser.Node, _ []parser.Node) error {
			if vs, ok := node.(*parser.VectorSelector); ok {
				n++
				has := false
				for _, m := range vs.LabelMatchers {
					has = has || (m.Name == "engine" && m.Type.String() == "=" && variableBack(m.Value) == "$engine")
				}
				if !has {
					t.Errorf("%s: selector %s has no engine=\"$engine\"", strings.ReplaceAll(tg.key, "\t", " / "), vs)
				}
			}
			return nil
		})
	}
	if n == 0 {
		t.Fatal("examined no selector")
	}
}
