package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestRewriteTimeout(t *testing.T) {
	cases := []struct {
		in     string
		offset int
		out    string
		ok     bool
	}{
		{"1", 1, "2", true},   // the lab's case: exporter deadline 2-1 = 1 s instead of 0 s
		{"0.5", 1, "2", true}, // a sub-second timeout still gets a 1 s deadline (integer seconds)
		{"10", 1, "11", true}, // a 10 s scrape keeps its 10 s
		{"1.2", 2, "4", true}, // offset is whatever the exporter runs with
		{"", 1, "", false},    // curl: no header, exporter's default (10 s - offset) applies
		{"abc", 1, "", false},
		{"-1", 1, "", false},
		{"0", 1, "", false},
		{"NaN", 1, "", false},
	}
	for _, c := range cases {
		out, ok := rewriteTimeout(c.in, c.offset)
		if out != c.out || ok != c.ok {
			t.Errorf("rewriteTimeout(%q, %d) = %q, %v; want %q, %v", c.in, c.offset, out, ok, c.out, c.ok)
		}
	}
}

func TestProxyRewritesHeaderAndPassesBody(t *testing.T) {
	var got string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get(timeoutHeader)
		_, _ = io.WriteString(w, "mongodb_up 1\n")
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	px := httptest.NewServer(newProxy(u, 1))
	defer px.Close()

	req, _ := http.NewRequest(http.MethodGet, px.URL+"/metrics", nil)
	req.Header.Set(timeoutHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got != "2" {
		t.Errorf("exporter saw %s=%q, want \"2\"", timeoutHeader, got)
	}
	if string(body) != "mongodb_up 1\n" || resp.StatusCode != 200 {
		t.Errorf("body %q status %d", body, resp.StatusCode)
	}
}

func TestProxyUpstreamDownIs502(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1") // nothing listens on port 1
	px := httptest.NewServer(newProxy(u, 1))
	defer px.Close()
	resp, err := http.Get(px.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("status %d, want 502 so that Prometheus records up=0", resp.StatusCode)
	}
}

func TestChildEnvCarriesOnlyFilePassword(t *testing.T) {
	env := childEnv([]string{"PATH=/bin", "MONGODB_PASSWORD=old"}, "s3cret")
	if !slices.Equal(env, []string{"PATH=/bin", "MONGODB_PASSWORD=s3cret"}) {
		t.Errorf("env = %v", env)
	}
}

func TestExporterArgs(t *testing.T) {
	args, err := exporterArgs([]string{"--collector.diagnosticdata"}, "127.0.0.1:9217", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--collector.diagnosticdata", "--web.listen-address=127.0.0.1:9217", "--web.timeout-offset=1"}
	if !slices.Equal(args, want) {
		t.Errorf("args = %v", args)
	}
	for _, bad := range []string{"--web.listen-address=:9216", "--web.timeout-offset=2", "--mongodb.password=x"} {
		if _, err := exporterArgs([]string{bad}, "127.0.0.1:9217", 1); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestReadPassword(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pw")
	_ = os.WriteFile(p, []byte("abc\n"), 0o600)
	if pw, err := readPassword(p); err != nil || pw != "abc" {
		t.Errorf("readPassword = %q, %v", pw, err)
	}
	_ = os.WriteFile(p, []byte("\n"), 0o600)
	if _, err := readPassword(p); err == nil {
		t.Error("empty password accepted")
	}
}
