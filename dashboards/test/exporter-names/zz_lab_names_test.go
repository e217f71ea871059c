// Copied into a scratch copy of github.com/percona/mongodb_exporter's exporter package by
// dashboards/test/exporter-names.sh (it is not part of any module of this repository). It runs the
// exporter's own naming code (makeMetrics, compatible mode on) over the exporter's own testdata,
// a real getDiagnosticData document (serverStatus, replSetGetStatus, local.oplog.rs.stats), and
// writes every metric name with its variable labels to $LAB_NAMES_OUT, one per line.
package exporter

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"testing"

	"go.mongodb.org/mongo-driver/bson"
)

var labDescRe = regexp.MustCompile(`fqName: "([^"]+)".*variableLabels: \{([^}]*)\}`)

func TestLabMetricNames(t *testing.T) {
	buf, err := os.ReadFile("testdata/get_diagnostic_data.json")
	if err != nil {
		t.Fatal(err)
	}
	var m bson.M
	// Extended JSON, as the driver decodes a server reply: arrays become primitive.A (member
	// lists) and {"$date": ...} becomes a DateTime (optimeDate).
	if err := bson.UnmarshalExtJSON(buf, false, &m); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	collect := func(doc bson.M) {
		for _, metric := range makeMetrics("", doc, map[string]string{}, true) {
			if g := labDescRe.FindStringSubmatch(metric.Desc().String()); g != nil {
				seen[g[1]+"\t"+g[2]] = true
			}
		}
	}
	collect(m)
	// Sections the testdata lacks (7.0+ tickets, Percona inMemory), shaped as the lab's servers
	// report them: dashboards/test/exporter-names/server-sections.extjson.
	if extra := os.Getenv("LAB_EXTRA_DOC"); extra != "" {
		buf, err := os.ReadFile(extra)
		if err != nil {
			t.Fatal(err)
		}
		var doc bson.M
		if err := bson.UnmarshalExtJSON(buf, false, &doc); err != nil {
			t.Fatal(err)
		}
		delete(doc, "_comment")
		collect(doc)
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	f, err := os.Create(os.Getenv("LAB_NAMES_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range names {
		fmt.Fprintln(f, n)
	}
}
