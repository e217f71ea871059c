// lab-exporter: the entrypoint of the lab's mongodb_exporter image. It does two things the
// upstream exporter (percona/mongodb_exporter, a FROM-scratch image with no shell) cannot:
//
//  1. Password from a file. The exporter takes its password only from --mongodb.password, the
//     URI or $MONGODB_PASSWORD. The lab's rule is: never in a command line, a Compose
//     environment value or `docker compose config`. So this launcher reads
//     /run/lab-secrets/exporter-password at start and hands it to the exporter process alone
//     (the child's environment; nothing of it is in the container config).
//
//  2. 1 s scrapes. The exporter's deadline for collecting is
//     X-Prometheus-Scrape-Timeout-Seconds minus --web.timeout-offset, an integer whose minimum is
//     1 (main.go falls back to 1 for <= 0). At a 1 s scrape timeout that is 0 s: every scrape
//     returns without MongoDB metrics (percona/pmm#5093; exporter/exporter.go Handler()).
//     The exporter listens on loopback only and this process serves the public port, rewriting
//     the header to ceil(timeout) + offset, so that the exporter's own deadline equals
//     Prometheus's timeout (1 s at 1 s scrapes) instead of 0 s. Integer seconds, because
//     v0.43 parses the header with strconv.Atoi (a fraction would fall back to 10 s - offset).
//
// Usage: lab-exporter [launcher flags] -- [mongodb_exporter flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const timeoutHeader = "X-Prometheus-Scrape-Timeout-Seconds"

// rewriteTimeout returns the header value to send to the exporter for the timeout Prometheus
// advertised, so that exporter deadline = value - offset = ceil(advertised). ok is false when
// the incoming value is missing or not a positive number: then the header is left as it is.
func rewriteTimeout(in string, offset int) (out string, ok bool) {
	if in == "" {
		return "", false
	}
	secs, err := strconv.ParseFloat(in, 64)
	if err != nil || secs <= 0 || math.IsInf(secs, 0) || math.IsNaN(secs) {
		return "", false
	}
	return strconv.Itoa(int(math.Ceil(secs)) + offset), true
}

// newProxy forwards every request to the exporter on loopback, with the timeout header fixed.
func newProxy(upstream *url.URL, offset int) http.Handler {
	rp := httputil.NewSingleHostReverseProxy(upstream)
	director := rp.Director
	rp.Director = func(r *http.Request) {
		director(r)
		if v, ok := rewriteTimeout(r.Header.Get(timeoutHeader), offset); ok {
			r.Header.Set(timeoutHeader, v)
		}
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		// 502 makes Prometheus record up=0 for this scrape: a visible failure, not a gap.
		log.Printf("lab-exporter: upstream: %v", err)
		http.Error(w, "mongodb_exporter unreachable: "+err.Error(), http.StatusBadGateway)
	}
	return rp
}

// readPassword returns the first line of the file (the secrets are written with a newline).
func readPassword(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	pw := strings.TrimRight(strings.SplitN(string(b), "\n", 2)[0], "\r")
	if pw == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return pw, nil
}

// childEnv is the exporter's environment: ours, minus any inherited MONGODB_PASSWORD, plus the
// password from the file.
func childEnv(base []string, password string) []string {
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		if !strings.HasPrefix(kv, "MONGODB_PASSWORD=") {
			env = append(env, kv)
		}
	}
	if password != "" {
		env = append(env, "MONGODB_PASSWORD="+password)
	}
	return env
}

// exporterArgs appends the flags the launcher owns; a user-given listen address or offset would
// break the proxy, so they are refused.
func exporterArgs(user []string, listen string, offset int) ([]string, error) {
	for _, a := range user {
		for _, owned := range []string{"--web.listen-address", "--web.timeout-offset", "--mongodb.password"} {
			if a == owned || strings.HasPrefix(a, owned+"=") {
				return nil, fmt.Errorf("%s is set by lab-exporter; remove it", owned)
			}
		}
	}
	args := append([]string{}, user...)
	return append(args, "--web.listen-address="+listen, "--web.timeout-offset="+strconv.Itoa(offset)), nil
}

func main() {
	listen := flag.String("listen", ":9216", "public address Prometheus scrapes")
	upstream := flag.String("exporter-listen", "127.0.0.1:9217", "loopback address the exporter listens on")
	exporterBin := flag.String("exporter", "/mongodb_exporter", "path of the mongodb_exporter binary")
	pwFile := flag.String("password-file", "/run/lab-secrets/exporter-password", "file holding the exporter user's password (empty: none)")
	offset := flag.Int("timeout-offset", 1, "the exporter's --web.timeout-offset (integer >= 1)")
	flag.Parse()
	log.SetFlags(0)
	if *offset < 1 {
		log.Fatal("lab-exporter: --timeout-offset must be >= 1 (the exporter raises anything lower to 1)")
	}

	password := ""
	if *pwFile != "" {
		var err error
		if password, err = readPassword(*pwFile); err != nil {
			log.Fatalf("lab-exporter: password file: %v", err)
		}
	}
	args, err := exporterArgs(flag.Args(), *upstream, *offset)
	if err != nil {
		log.Fatalf("lab-exporter: %v", err)
	}

	cmd := exec.Command(*exporterBin, args...)
	cmd.Env = childEnv(os.Environ(), password)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatalf("lab-exporter: start %s: %v", *exporterBin, err)
	}

	up := &url.URL{Scheme: "http", Host: *upstream}
	srv := &http.Server{Addr: *listen, Handler: newProxy(up, *offset), ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		_ = cmd.Process.Kill()
		log.Fatalf("lab-exporter: listen %s: %v", *listen, err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Printf("lab-exporter: serve: %v", err)
		}
	}()

	// Forward stop signals; leave when the exporter leaves, with its exit status, so that the
	// container's restart policy sees a dead exporter.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case s := <-sigs:
		_ = cmd.Process.Signal(s)
		err = <-done
	case err = <-done:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		log.Fatalf("lab-exporter: exporter: %v", err)
	}
}
