package converter

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
)

// The secrets a codec's URL may carry, which its errors must not show.
const (
	secretPassword = "s3cret"
	secretToken    = "T0KEN"
	secretFragment = "FR4G"
)

// closedAddress is a local address nothing listens on.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// TestRemoteCodecErrorsRedactTheURL: every error of a remote codec that
// names its URL shows it without the password, query or fragment, which
// hold tokens (issue 32 item 20), and still says where and what went wrong.
func TestRemoteCodecErrorsRedactTheURL(t *testing.T) {
	closed := closedAddress(t)
	serve := func(h http.HandlerFunc) string {
		server := httptest.NewServer(h)
		t.Cleanup(server.Close)
		return strings.TrimPrefix(server.URL, "http://")
	}
	// released ends the handler that never answers, before its server
	// closes (cleanups run last first: it is registered after the servers).
	released := make(chan struct{})
	addToken := func(r *http.Request) error {
		r.URL.RawQuery = "tenant=acme&token=" + secretToken
		return nil
	}
	cases := []struct {
		name     string
		host     string // the endpoint is http://user:s3cret@host/codec
		endpoint string // instead, when set
		timeout  time.Duration
		limit    int64 // the most of an answer read, when set
		want     []string
	}{
		{name: "unreachable", host: closed,
			want: []string{`remote codec: Post "http://user:xxxxx@` + closed + `/codec/encode?xxxxx"`, "connection refused"}},
		{name: "timeout", timeout: 50 * time.Millisecond,
			host: serve(func(w http.ResponseWriter, r *http.Request) { <-released }),
			want: []string{"/codec/encode?xxxxx", "Client.Timeout exceeded"}},
		{name: "failed status",
			host: serve(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no such tenant", http.StatusBadGateway) }),
			want: []string{"remote codec: POST http://user:xxxxx@", "/codec/encode?xxxxx: Bad Gateway: no such tenant"}},
		{name: "cut answer",
			host: serve(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "100")
				_, _ = w.Write([]byte(`{"payloads"`))
			}),
			want: []string{"remote codec: reading the answer of POST http://user:xxxxx@", "/codec/encode?xxxxx: unexpected EOF"}},
		{name: "answer too large", limit: 1 << 20,
			host: serve(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(make([]byte, 2<<20)) }),
			want: []string{"remote codec: the answer of POST http://user:xxxxx@", "/codec/encode?xxxxx is larger than the 1 MiB"}},
		{name: "not JSON",
			host: serve(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>hello</html>")) }),
			want: []string{"remote codec: the answer of POST http://user:xxxxx@", "/codec/encode?xxxxx is not payloads in JSON"}},
		{name: "wrong count",
			host: serve(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"payloads":[]}`)) }),
			want: []string{"remote codec: the answer of POST http://user:xxxxx@", "/codec/encode?xxxxx holds 0 payloads for the 1 sent"}},
		{name: "redirected to a token URL",
			host: serve(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://"+closed+"/elsewhere?token="+secretToken+"#"+secretFragment, http.StatusTemporaryRedirect)
			}),
			want: []string{`"http://` + closed + `/elsewhere?xxxxx#xxxxx"`, "connection refused"}},
		{name: "invalid endpoint", endpoint: "http://user:" + secretPassword + "@127.0.0.1:99x/codec?token=" + secretToken + "#" + secretFragment,
			want: []string{`remote codec: the endpoint is not a valid URL: parse "http://user:xxxxx@127.0.0.1:99x/codec?xxxxx": invalid port`}},
		{name: "invalid escape", endpoint: "http://user:" + secretPassword + "@127.0.0.1/c%" + secretToken[:2] + "?token=" + secretToken,
			want: []string{`remote codec: the endpoint is not a valid URL: parse "http://user:xxxxx@127.0.0.1/c%T0?xxxxx": invalid URL escape`}},
	}
	t.Cleanup(func() { close(released) })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			endpoint := c.endpoint
			if endpoint == "" {
				endpoint = "http://user:" + secretPassword + "@" + c.host + "/codec"
			}
			codec := NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: endpoint, ModifyRequest: addToken, Client: http.Client{Timeout: c.timeout}})
			if c.limit > 0 {
				codec.(*remotePayloadCodec).maxAnswerBytes = c.limit
			}
			_, err := codec.Encode([]*commonpb.Payload{newPayload([]byte("1"), MetadataEncodingJSON)})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, secret := range []string{secretPassword, secretToken, secretFragment, "acme"} {
				if strings.Contains(msg, secret) {
					t.Errorf("the error shows %q: %s", secret, msg)
				}
			}
			for _, part := range c.want {
				if !strings.Contains(msg, part) {
					t.Errorf("the error %q\nlacks %q", msg, part)
				}
			}
		})
	}
}

func TestRedactedRawURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://codec.example/decode":                       "https://codec.example/decode",
		"https://u:p@codec.example/decode?token=abc#frag":    "https://u:xxxxx@codec.example/decode?xxxxx#xxxxx",
		"https://u@codec.example/decode?token=abc":           "https://u@codec.example/decode?xxxxx",
		"https://u:p@codec.example:8x/decode?token=a":        "https://u:xxxxx@codec.example:8x/decode?xxxxx",
		"https://u:p@codec.example:8x#token":                 "https://u:xxxxx@codec.example:8x#xxxxx",
		"https://u:p@codec.example/a%zz/b?t=1":               "https://u:xxxxx@codec.example/a%zz/b?xxxxx",
		"codec.example:8x/p?t=1":                             "codec.example:8x/p?xxxxx",
		"https://u:p@codec.example:8x/a@b?t=1":               "https://u:xxxxx@codec.example:8x/a@b?xxxxx",
		"https://u:p@codec.example:8x?t=user:pass@elsewhere": "https://u:xxxxx@codec.example:8x?xxxxx",
	} {
		if got := redactedRawURL(raw); got != want {
			t.Errorf("redactedRawURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
