package resilience

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
)

// runThrough runs a workflow with activities on a worker whose client
// has opts, and checks its result: the whole protocol works through
// whatever stands between the client and the server.
func runThrough(t *testing.T, opts client.Options) {
	t.Helper()
	c, err := client.Dial(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tq := unique(t, "tq")
	w := newMixedWorker(c, tq, worker.Options{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ins := []MixedInput{{Shape: ShapeActivities, N: 1}, {Shape: ShapeAll, N: 2, Timer: 100 * time.Millisecond}}
	ids := startMixed(t, c, tq, unique(t, "wf"), ins, client.StartWorkflowOptions{})
	requireResults(t, c, ids, ins, time.Minute)
}

func dialErr(t *testing.T, opts client.Options) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, opts)
	if err == nil {
		c.Close()
		t.Fatal("dial succeeded; want it refused")
	}
	return err
}

func wantError(t *testing.T, err error, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

const (
	secretAPIKey = "tmprl-SECRET-key-7f3a9c1e5d"
	wrongAPIKey  = "tmprl-WRONG-key-0b8e42d6a1"
)

// TestAPIKeyOverTLS runs workflows through a TLS endpoint that checks API
// keys; a wrong or missing key is refused with a clear error, and neither
// the key nor a wrong one appears in any error or log line.
func TestAPIKeyOverTLS(t *testing.T) {
	pki := newTestPKI(t, "test CA")
	proxy := startAuthProxy(t, testharness.HostPort(t), pki.serverTLS(nil), secretAPIKey)
	logs := &lineLogger{}
	opts := func(key string) client.Options {
		o := client.Options{HostPort: proxy.addr, Logger: logs, ConnectionOptions: client.ConnectionOptions{TLS: &tls.Config{RootCAs: pki.pool}}}
		if key != "" {
			o.Credentials = client.NewAPIKeyStaticCredentials(key)
		}
		return o
	}

	t.Run("right key", func(t *testing.T) {
		runThrough(t, opts(secretAPIKey))
		if n := proxy.refused.Load(); n != 0 {
			t.Errorf("the proxy refused %d calls", n)
		}
	})
	var errs []error
	t.Run("wrong key", func(t *testing.T) {
		err := dialErr(t, opts(wrongAPIKey))
		errs = append(errs, err)
		wantError(t, err, "Unauthenticated", "no valid API key")
	})
	t.Run("no key", func(t *testing.T) {
		err := dialErr(t, opts(""))
		errs = append(errs, err)
		wantError(t, err, "Unauthenticated", "no valid API key")
	})
	t.Run("key rotated to a wrong one after dialing", func(t *testing.T) {
		key := secretAPIKey
		o := opts("")
		o.Credentials = client.NewAPIKeyDynamicCredentials(func(context.Context) (string, error) { return key, nil })
		c, err := client.Dial(o)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		key = wrongAPIKey
		_, err = c.DescribeTaskQueue(context.Background(), "any", 0)
		if err == nil {
			t.Fatal("a call with the wrong key succeeded")
		}
		errs = append(errs, err)
		wantError(t, err, "no valid API key")
	})
	t.Run("a worker with a wrong key", func(t *testing.T) {
		// Start asks the server about the namespace first, as
		// go.temporal.io/sdk's worker does, and fails at once.
		c, err := client.NewLazyClient(opts(wrongAPIKey))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		w := newMixedWorker(c, unique(t, "tq"), worker.Options{})
		err = w.Start()
		if err == nil {
			w.Stop()
			t.Fatal("a worker with a wrong key started")
		}
		errs = append(errs, err)
		wantError(t, err, "check client.Options.Credentials")
	})
	wantError(t, errs[0], "check client.Options.Credentials")
	for _, secret := range []string{secretAPIKey, wrongAPIKey} {
		for _, err := range errs {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("an error shows an API key: %v", err)
			}
		}
		for _, line := range logs.all() {
			if strings.Contains(line, secret) {
				t.Errorf("a log line shows an API key: %s", line)
			}
		}
	}
	t.Logf("%d log lines and %d errors checked; the proxy refused %d calls", len(logs.all()), len(errs), proxy.refused.Load())
}

// TestTLSVerifiesTheServer connects to a TLS endpoint with the CA that
// signed its certificate, and refuses, with an error that says what to
// do, a server whose certificate another CA signed or that names another
// host.
func TestTLSVerifiesTheServer(t *testing.T) {
	pki := newTestPKI(t, "test CA")
	other := newTestPKI(t, "another CA")
	proxy := startAuthProxy(t, testharness.HostPort(t), pki.serverTLS(nil), "")
	withTLS := func(config *tls.Config) client.Options {
		return client.Options{HostPort: proxy.addr, Logger: &lineLogger{}, ConnectionOptions: client.ConnectionOptions{TLS: config}}
	}

	t.Run("the right CA", func(t *testing.T) {
		runThrough(t, withTLS(&tls.Config{RootCAs: pki.pool}))
	})
	t.Run("another CA", func(t *testing.T) {
		err := dialErr(t, withTLS(&tls.Config{RootCAs: other.pool}))
		t.Log(err)
		wantError(t, err, "certificate signed by unknown authority", "RootCAs")
	})
	t.Run("the system's CAs", func(t *testing.T) {
		err := dialErr(t, withTLS(&tls.Config{}))
		wantError(t, err, "certificate signed by unknown authority", "RootCAs")
	})
	t.Run("another host name", func(t *testing.T) {
		err := dialErr(t, withTLS(&tls.Config{RootCAs: pki.pool, ServerName: "temporal.example.com"}))
		wantError(t, err, "temporal.example.com", "ServerName")
	})
}

// TestMutualTLS connects to an endpoint that requires client
// certificates: with one its CA signed, workflows run; without one, or
// with one another CA signed, the connection is refused with a clear error.
func TestMutualTLS(t *testing.T) {
	pki := newTestPKI(t, "test CA")
	other := newTestPKI(t, "another CA")
	proxy := startAuthProxy(t, testharness.HostPort(t), pki.serverTLS(pki.pool), "")
	withCert := func(cert *tls.Certificate) client.Options {
		o := client.Options{HostPort: proxy.addr, Logger: &lineLogger{}, ConnectionOptions: client.ConnectionOptions{TLS: &tls.Config{RootCAs: pki.pool}}}
		if cert != nil {
			o.Credentials = client.NewMTLSCredentials(*cert)
		}
		return o
	}

	t.Run("a certificate the server trusts", func(t *testing.T) {
		runThrough(t, withCert(&pki.client))
	})
	t.Run("no certificate", func(t *testing.T) {
		err := dialErr(t, withCert(nil))
		t.Log(err)
		wantError(t, err, "client certificate", "set Credentials to client.NewMTLSCredentials")
	})
	t.Run("a certificate another CA signed", func(t *testing.T) {
		err := dialErr(t, withCert(&other.client))
		t.Log(err)
		wantError(t, err, "client's certificate", "check which CA signed it")
	})
}
