package converter

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

func newCodecServer(t *testing.T, codecs ...PayloadCodec) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/codec/", http.StripPrefix("/codec", NewPayloadCodecHTTPHandler(codecs...)))
	server := httptest.NewServer(mux)
	t.Cleanup(server.Close)
	return server
}

// TestCodecHTTPHandlerWireFormat posts what the Web UI posts and reads the
// answer as the Web UI does, with a plain JSON parser.
func TestCodecHTTPHandlerWireFormat(t *testing.T) {
	server := newCodecServer(t, NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}))
	data := base64.StdEncoding.EncodeToString([]byte(`"hello"`))
	enc := base64.StdEncoding.EncodeToString([]byte(MetadataEncodingJSON))
	body := `{"payloads":[{"metadata":{"encoding":"` + enc + `"},"data":"` + data + `"}]}`

	encoded := postJSON(t, server.URL+"/codec/encode", body)
	if len(encoded.Payloads) != 1 {
		t.Fatalf("encode answer = %+v", encoded)
	}
	if got := decodeBase64(t, encoded.Payloads[0].Metadata["encoding"]); got != "binary/zlib" {
		t.Errorf("encoded encoding = %q", got)
	}

	again, _ := json.Marshal(encoded)
	decoded := postJSON(t, server.URL+"/codec/decode", string(again))
	if len(decoded.Payloads) != 1 ||
		decodeBase64(t, decoded.Payloads[0].Metadata["encoding"]) != MetadataEncodingJSON ||
		decodeBase64(t, decoded.Payloads[0].Data) != `"hello"` {
		t.Errorf("decode answer = %+v", decoded)
	}
}

type jsonPayloads struct {
	Payloads []struct {
		Metadata map[string]string `json:"metadata"`
		Data     string            `json:"data"`
	} `json:"payloads"`
}

func postJSON(t *testing.T, url, body string) jsonPayloads {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out jsonPayloads
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func decodeBase64(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64 %q: %v", s, err)
	}
	return string(b)
}

func TestCodecHTTPHandlerRejectsBadRequests(t *testing.T) {
	server := newCodecServer(t, failingCodec{})
	const shape = `invalid payloads: the body must be a JSON Payloads message`
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		status int
		want   string // in the answer's body
	}{
		{"GET", http.MethodGet, "/codec/encode", "", http.StatusNotFound, "not found"},
		{"other path", http.MethodPost, "/codec/other", `{}`, http.StatusNotFound, "not found"},
		{"bad JSON", http.MethodPost, "/codec/decode", `{"payloads":`, http.StatusBadRequest, shape},
		{"codec error", http.MethodPost, "/codec/encode", `{"payloads":[{"data":"AA=="}]}`, http.StatusBadRequest, errCodec.Error()},
		{"empty body", http.MethodPost, "/codec/decode", ``, http.StatusBadRequest, shape},
		{"not JSON", http.MethodPost, "/codec/decode", "\x00\xff binary", http.StatusBadRequest, shape},
		{"JSON of another shape", http.MethodPost, "/codec/decode", `[1, 2, 3]`, http.StatusBadRequest, shape},
		{"unknown field", http.MethodPost, "/codec/decode", `{"payloads":[], "extra": 1}`, http.StatusBadRequest, `unknown field "extra"`},
		{"data not base64", http.MethodPost, "/codec/decode", `{"payloads":[{"data":"not base64!"}]}`, http.StatusBadRequest, shape},
		{"metadata not base64", http.MethodPost, "/codec/decode", `{"payloads":[{"metadata":{"encoding":"%%"},"data":""}]}`, http.StatusBadRequest, shape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, server.URL+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.want) {
				t.Errorf("status %d, body %q; want %d and %q", resp.StatusCode, body, tt.status, tt.want)
			}
		})
	}
}

// TestCodecHTTPHandlerRejectsOversizedRequests posts a body over the
// handler's limit: it is refused with 413 and a message naming the limit.
func TestCodecHTTPHandlerRejectsOversizedRequests(t *testing.T) {
	server := newCodecServer(t, NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}))
	// A valid request, padded past the limit inside its data.
	body := io.MultiReader(strings.NewReader(`{"payloads":[{"data":"`),
		io.LimitReader(repeatReader('A'), maxCodecRequestBytes+1<<20), strings.NewReader(`"}]}`))
	resp, err := http.Post(server.URL+"/codec/encode", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "larger than the codec server's limit of 32 MiB") {
		t.Errorf("status %d, body %q; want 413 naming the limit", resp.StatusCode, msg)
	}

}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func TestRemotePayloadCodecAgainstHandler(t *testing.T) {
	server := newCodecServer(t, NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}))
	var sawHeader bool
	remote := NewRemotePayloadCodec(RemotePayloadCodecOptions{
		Endpoint: server.URL + "/codec",
		ModifyRequest: func(r *http.Request) error {
			r.Header.Set("Authorization", "Bearer x")
			sawHeader = true
			return nil
		},
	})
	in := []*commonpb.Payload{newPayload([]byte(`"a"`), MetadataEncodingJSON), newPayload(nil, MetadataEncodingNil)}
	encoded, err := remote.Encode(in)
	if err != nil || len(encoded) != 2 || encodingOf(encoded[0]) != "binary/zlib" {
		t.Fatalf("Encode = %v, %v", encoded, err)
	}
	decoded, err := remote.Decode(encoded)
	if err != nil || !proto.Equal(decoded[0], in[0]) || !proto.Equal(decoded[1], in[1]) {
		t.Errorf("Decode = %v, %v", decoded, err)
	}
	if !sawHeader {
		t.Error("ModifyRequest not called")
	}

	failing := NewRemotePayloadCodec(RemotePayloadCodecOptions{
		Endpoint:      server.URL + "/codec",
		ModifyRequest: func(*http.Request) error { return errCodec },
	})
	if _, err := failing.Encode(in); !errors.Is(err, errCodec) {
		t.Errorf("ModifyRequest error = %v", err)
	}
	broken := NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: newCodecServer(t, failingCodec{}).URL + "/codec"})
	if _, err := broken.Encode(in); err == nil || !strings.Contains(err.Error(), "Bad Request") {
		t.Errorf("server error = %v", err)
	}
}

func TestRemoteDataConverter(t *testing.T) {
	server := newCodecServer(t, NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}))
	dc := NewRemoteDataConverter(GetDefaultDataConverter(), RemoteDataConverterOptions{Endpoint: server.URL + "/codec/"})
	p, err := dc.ToPayload(testStruct{Name: "remote"})
	if err != nil || encodingOf(p) != "binary/zlib" {
		t.Fatalf("ToPayload = %v, %v", p, err)
	}
	var out testStruct
	if err := dc.FromPayload(p, &out); err != nil || out.Name != "remote" {
		t.Errorf("FromPayload = %+v, %v", out, err)
	}
}
