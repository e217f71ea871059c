package main

import (
	"slices"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
)

func TestSubstituteAndNames(t *testing.T) {
	e, err := parser.ParseExpr(Substitute(`sum by (instance) (rate(mongodb_ss_opcounters{engine="$engine",rs_nm=~"$rs"}[$__rate_interval])) / on (instance) group_left {__name__="up"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := MetricNames(e); !slices.Equal(got, []string{"mongodb_ss_opcounters", "up"}) {
		t.Errorf("names = %v", got)
	}
}

func TestBadExpressionFails(t *testing.T) {
	for _, bad := range []string{`rate(up[$__rate_interval]`, `up{job="x"`, `rate(up[$unknown])`} {
		if _, err := parser.ParseExpr(Substitute(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestVariableExpr(t *testing.T) {
	cases := map[string]string{
		`label_values(mongodb_up{engine="$engine"}, rs_nm)`: `mongodb_up{engine="$engine"}`,
		`label_values(engine)`:                              ``,
		`query_result(count(up))`:                           `count(up)`,
	}
	for in, want := range cases {
		if got := VariableExpr(in); got != want {
			t.Errorf("VariableExpr(%q) = %q, want %q", in, got, want)
		}
	}
}
