// Copied into a scratch copy of github.com/percona/mongodb_exporter's exporter package by
// dashboards/test/exporter-names.sh (it is not part of any module of this repository). It runs the
// exporter's own naming code (makeMetrics, compatible mode on, exporter/metrics.go) over
// getDiagnosticData replies shaped like MongoDB 8.0's, and like 4.0's and 3.6's for the older lines
// (dashboards/test/exporter-names/*.extjson, written by make-fixtures.py from the sources it
// names), and writes
// every metric name with its variable labels, per server line, to $LAB_NAMES_OUT:
//
//	server<TAB>name<TAB>labels
//
// The server line is the fixture's file name without .extjson (mongod-wiredtiger-8.0, ...).
package exporter

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/bson"
)

var labDescRe = regexp.MustCompile(`fqName: "([^"]+)".*variableLabels: \{([^}]*)\}`)

// labMerge8 is diagnosticDataCollector.collect's handling of 8.0's per-role blocks
// (exporter/diagnostic_data_collector.go, v0.43.1, after "MongoDB 8.0 splits the diagnostic
// data into multiple blocks"), which sits inline in collect() and cannot be called on its own.
func labMerge8(m bson.M) bson.M {
	if _, ok := m["common"]; !ok {
		return m
	}
	b := bson.M{}
	for _, mv := range m {
		block, ok := mv.(bson.M)
		if !ok {
			continue
		}
		for k, v := range block {
			b[k] = v
		}
	}
	return b
}

func labNames(doc bson.M) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, metric := range makeMetrics("", doc, map[string]string{}, true) {
		g := labDescRe.FindStringSubmatch(metric.Desc().String())
		if g == nil {
			// An invalid metric (a value the naming code cannot convert) is a fixture error.
			return nil, fmt.Errorf("unnamed metric: %s", metric.Desc().String())
		}
		seen[g[1]+"\t"+g[2]] = true
	}
	return seen, nil
}

func TestLabMetricNames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(os.Getenv("LAB_FIXTURES"), "*.extjson"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in LAB_FIXTURES=%q (%v)", os.Getenv("LAB_FIXTURES"), err)
	}
	var lines []string
	for _, file := range files {
		server := strings.TrimSuffix(filepath.Base(file), ".extjson")
		buf, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var reply bson.M
		// Extended JSON, as the driver decodes a server reply: arrays become primitive.A (member
		// lists) and {"$date": ...} becomes a DateTime (optimeDate, in ms).
		if err := bson.UnmarshalExtJSON(buf, false, &reply); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		data, ok := reply["data"].(bson.M)
		if !ok {
			t.Fatalf("%s: no data document (getDiagnosticData replies {data: ..., ok: 1})", file)
		}
		// 8.0 lines in 8.0's per-role shape; the older lines (4.0, 3.6) one flat document
		_, perRole := data["common"]
		_, flat := data["serverStatus"]
		if strings.HasSuffix(server, "-8.0") && !perRole {
			t.Fatalf("%s: not in 8.0's per-role shape (no common block)", file)
		}
		if !strings.HasSuffix(server, "-8.0") && (perRole || !flat) {
			t.Fatalf("%s: a line before 8.0 sends one flat document (serverStatus at the top)", file)
		}
		names, err := labNames(labMerge8(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for k := range names {
			lines = append(lines, server+"\t"+k)
		}
	}
	sort.Strings(lines)
	f, err := os.Create(os.Getenv("LAB_NAMES_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
}
