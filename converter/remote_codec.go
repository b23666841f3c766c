package converter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// RemotePayloadCodecOptions configures NewRemotePayloadCodec.
type RemotePayloadCodecOptions struct {
	// Endpoint is the codec server URL; /encode and /decode are appended.
	Endpoint string
	// ModifyRequest, if set, may change each request, for example to add
	// authentication headers.
	ModifyRequest func(*http.Request) error
	// Client sends the requests; the zero value works. When its Timeout is
	// zero, each request (answer included) is bounded by
	// DefaultRemoteCodecTimeout.
	Client http.Client
}

// DefaultRemoteCodecTimeout bounds each request of a remote codec whose
// http.Client has no Timeout: a codec server that does not answer must
// not hold a workflow or activity task forever.
const DefaultRemoteCodecTimeout = 30 * time.Second

// The limits of what a remote codec reads of a codec server's answer.
const (
	// maxRemoteCodecAnswerBytes is room for the most the codec server
	// handler answers (maxCodecResultBytes of payloads) in JSON and base64.
	maxRemoteCodecAnswerBytes = 2 * maxCodecResultBytes
	// maxRemoteCodecErrorBytes is how much of a failed request's answer
	// goes into the error: enough for a message, not a page of HTML.
	maxRemoteCodecErrorBytes = 512
)

type remotePayloadCodec struct {
	options        RemotePayloadCodecOptions
	maxAnswerBytes int64
}

// NewRemotePayloadCodec returns a PayloadCodec that has a codec server (see
// NewPayloadCodecHTTPHandler) encode and decode payloads. It reads at most
// 256 MiB of an answer, and puts at most 512 bytes of a failed request's
// answer in its error. Its errors show the URL with its password, query
// and fragment (where tokens go) replaced with "xxxxx".
func NewRemotePayloadCodec(options RemotePayloadCodecOptions) PayloadCodec {
	if options.Client.Timeout == 0 {
		options.Client.Timeout = DefaultRemoteCodecTimeout
	}
	return &remotePayloadCodec{options: options, maxAnswerBytes: maxRemoteCodecAnswerBytes}
}

func (c *remotePayloadCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return c.call(codecEncodePath, payloads)
}

func (c *remotePayloadCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return c.call(codecDecodePath, payloads)
}

// call posts payloads to the codec server and checks the answer holds as
// many payloads. Its errors show URLs redacted (redactedURL).
func (c *remotePayloadCodec) call(path string, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: payloads})
	if err != nil {
		return nil, fmt.Errorf("remote codec: encoding request: %w", err)
	}
	req, err := http.NewRequest(http.MethodPost, c.options.Endpoint+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("remote codec: the endpoint is not a valid URL: %w", withRedactedURL(err))
	}
	req.Header.Set("Content-Type", "application/json")
	if c.options.ModifyRequest != nil {
		if err := c.options.ModifyRequest(req); err != nil {
			return nil, err
		}
	}
	resp, err := c.options.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("remote codec: %w", withRedactedURL(err))
	}
	defer func() { _ = resp.Body.Close() }()
	target := req.Method + " " + redactedURL(req.URL)
	if resp.StatusCode != http.StatusOK {
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxRemoteCodecErrorBytes+1))
		return nil, fmt.Errorf("remote codec: %s: %s: %s", target, http.StatusText(resp.StatusCode), printableExcerpt(answer, maxRemoteCodecErrorBytes))
	}
	// One byte past the limit tells an answer of exactly the limit from a
	// larger one.
	answer, err := io.ReadAll(io.LimitReader(resp.Body, c.maxAnswerBytes+1))
	if err != nil {
		return nil, fmt.Errorf("remote codec: reading the answer of %s: %w", target, withRedactedURL(err))
	}
	if int64(len(answer)) > c.maxAnswerBytes {
		return nil, fmt.Errorf("remote codec: the answer of %s is larger than the %d MiB a remote codec reads", target, c.maxAnswerBytes>>20)
	}
	var result commonpb.Payloads
	if err := protojson.Unmarshal(answer, &result); err != nil {
		return nil, fmt.Errorf("remote codec: the answer of %s is not payloads in JSON: %w", target, err)
	}
	if len(result.Payloads) != len(payloads) {
		return nil, fmt.Errorf("remote codec: the answer of %s holds %d payloads for the %d sent", target, len(result.Payloads), len(payloads))
	}
	return result.Payloads, nil
}

// redacted stands for the secrets a URL in an error leaves out, as in
// url.URL.Redacted.
const redacted = "xxxxx"

// redactedURL is u as an error shows it: its password, query and fragment,
// where tokens are put, replaced with "xxxxx".
func redactedURL(u *url.URL) string {
	shown := *u
	if shown.RawQuery != "" {
		shown.RawQuery = redacted
	}
	if shown.Fragment != "" {
		shown.Fragment, shown.RawFragment = redacted, ""
	}
	return shown.Redacted()
}

// redactedRawURL is redactedURL for a URL in text, which may not parse:
// then all after its first '?' or '#' and its userinfo's password are
// replaced.
func redactedRawURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return redactedURL(u)
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i+1] + redacted
	}
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	}
	authority := raw[start:]
	if end := strings.IndexAny(authority, "/?#"); end >= 0 {
		authority = authority[:end]
	}
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		if colon := strings.Index(authority[:at], ":"); colon >= 0 {
			raw = raw[:start+colon+1] + redacted + raw[start+at:]
		}
	}
	return raw
}

// withRedactedURL redacts the URL that net/http and net/url put in their
// errors (a *url.Error's; net/http hides only the password). An invalid
// escape is not quoted: it may be a piece of a token.
func withRedactedURL(err error) error {
	var urlErr *url.Error
	if !errors.As(err, &urlErr) {
		return err
	}
	urlErr.URL = redactedRawURL(urlErr.URL)
	var escape url.EscapeError
	if errors.As(urlErr.Err, &escape) {
		urlErr.Err = errors.New("invalid URL escape")
	}
	return err
}

// printableExcerpt is the start of text, at most limit bytes of it, on one
// line and with control characters (a terminal's escape sequences) shown
// as \uXXXX, marked when cut.
func printableExcerpt(text []byte, limit int) string {
	cut := len(text) > limit
	if cut {
		text = text[:limit]
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(strings.TrimSpace(string(text)), "\uFFFD") {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	if cut {
		b.WriteString(" [...]")
	}
	return b.String()
}

// RemoteDataConverterOptions configures NewRemoteDataConverter; the fields
// mean what they mean in RemotePayloadCodecOptions.
type RemoteDataConverterOptions struct {
	// Endpoint is the codec server URL; /encode and /decode are appended.
	Endpoint string
	// ModifyRequest, if set, may change each request, for example to add
	// authentication headers.
	ModifyRequest func(*http.Request) error
	// Client sends the requests; the zero value works. When its Timeout is
	// zero, each request is bounded by DefaultRemoteCodecTimeout.
	Client http.Client
}

// NewRemoteDataConverter wraps parent so that its payloads are encoded and
// decoded by the codec server at options.Endpoint.
func NewRemoteDataConverter(parent DataConverter, options RemoteDataConverterOptions) DataConverter {
	options.Endpoint = strings.TrimSuffix(options.Endpoint, "/")
	return NewCodecDataConverter(parent, NewRemotePayloadCodec(RemotePayloadCodecOptions(options)))
}
