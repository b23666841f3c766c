package converter

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protowire"
)

// zlibBomb is a zlib payload, as the codec writes them, of a serialized
// Payload whose data is inflated zero bytes: about a kilobyte of input per
// megabyte of output. It compresses one megabyte of zeros and repeats the
// compressed block, which inflates to zeros after any window of zeros.
func zlibBomb(t testing.TB, inflated int) *commonpb.Payload {
	t.Helper()
	// The Payload's data field: its tag and length, then the zeros.
	header := protowire.AppendTag(nil, 2, protowire.BytesType)
	header = protowire.AppendVarint(header, uint64(inflated))
	const chunk = 1 << 20
	zeros := make([]byte, chunk)

	var deflated bytes.Buffer
	w, err := flate.NewWriter(&deflated, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	write := func(p []byte) {
		if _, err := w.Write(p); err != nil {
			t.Fatal(err)
		}
		// A sync flush ends the block on a byte boundary.
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	write(header)
	first := min(inflated, chunk)
	write(zeros[:first])
	left := inflated - first
	if left >= chunk {
		start := deflated.Len()
		write(zeros)
		block := bytes.Clone(deflated.Bytes()[start:])
		for left -= chunk; left >= chunk; left -= chunk {
			deflated.Write(block)
		}
	}
	if _, err := w.Write(zeros[:left]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	// zlib: a header (deflate, 32 KiB window, best compression), the
	// deflate stream, and the Adler-32 of what it inflates to. Zeros leave
	// the checksum's first sum as it is and add it to the second once per
	// byte.
	const adlerMod = 65521
	sum := adler32.Checksum(header)
	a, b := uint64(sum&0xffff), uint64(sum>>16)
	b = (b + uint64(inflated)%adlerMod*a) % adlerMod
	out := append([]byte{0x78, 0xda}, deflated.Bytes()...)
	out = binary.BigEndian.AppendUint32(out, uint32(b<<16|a))
	return newPayload(out, zlibEncoding)
}

// allocatedBytes is what f allocates on the heap.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestZlibCodecInflatesNoMoreThanItsLimit(t *testing.T) {
	const limit = 1 << 20
	codec := NewZlibCodec(ZlibCodecOptions{MaxDecodedSize: limit})
	bomb := zlibBomb(t, 16<<20)

	var err error
	allocated := allocatedBytes(func() { _, err = codec.Decode([]*commonpb.Payload{bomb}) })
	var tooLarge *decodedSizeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "payload 0 inflates past the codec's limit of 1048576 bytes") ||
		!strings.Contains(err.Error(), "ZlibCodecOptions.MaxDecodedSize") {
		t.Fatalf("Decode of 16 MiB behind a 1 MiB limit = %v, want the limit's error", err)
	}
	if allocated > 8*limit {
		t.Errorf("Decode allocated %d bytes before refusing, want at most %d (a few times the limit)", allocated, 8*limit)
	}

	// The limit is for the call: two payloads that each fit, together do
	// not.
	half := zlibBomb(t, limit/2+1)
	if _, err := codec.Decode([]*commonpb.Payload{half, half}); !errors.As(err, &tooLarge) || tooLarge.payload != 1 {
		t.Errorf("Decode of two payloads over the limit together = %v, want the limit's error for payload 1", err)
	}
	// And data up to the limit decodes: the serialized payload is the
	// data plus its 5-byte field header.
	for _, size := range []int{limit - 5, 3*limit + 7} {
		codec := NewZlibCodec(ZlibCodecOptions{MaxDecodedSize: max(limit, size+5)})
		decoded, err := codec.Decode([]*commonpb.Payload{zlibBomb(t, size)})
		if err != nil || len(decoded[0].GetData()) != size {
			t.Errorf("Decode of %d bytes at a limit of %d = %d bytes, %v; want all of them", size, max(limit, size+5), len(decoded[0].GetData()), err)
		}
	}
}

// The case, at the handler's defaults: a small zlib bomb posted to
// /decode is refused with 413 and says why, instead of taking the heap to
// gigabytes and answering with hundreds of megabytes.
func TestCodecHTTPHandlerRefusesADecompressionBomb(t *testing.T) {
	server := newCodecServer(t, NewZlibCodec(ZlibCodecOptions{}))
	bomb := zlibBomb(t, DefaultZlibMaxDecodedSize+1<<20)
	body := fmt.Sprintf(`{"payloads":[{"metadata":{"encoding":%q},"data":%q}]}`,
		base64.StdEncoding.EncodeToString([]byte(zlibEncoding)), base64.StdEncoding.EncodeToString(bomb.Data))
	t.Logf("the bomb is %d bytes of zlib for %d MiB", len(bomb.Data), DefaultZlibMaxDecodedSize>>20+1)

	resp, err := http.Post(server.URL+"/codec/decode", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(msg), "inflates past the codec's limit of 134217728 bytes") {
		t.Errorf("status %d, body %.300q; want 413 naming the zlib codec's limit", resp.StatusCode, msg)
	}
}

// expandingCodec decodes every payload to one of size bytes, as a codec
// without a limit of its own might.
type expandingCodec struct{ size int }

func (expandingCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) { return ps, nil }
func (c expandingCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(ps))
	for i := range ps {
		out[i] = &commonpb.Payload{Data: make([]byte, c.size)}
	}
	return out, nil
}

func TestCodecHTTPHandlerCapsItsAnswer(t *testing.T) {
	server := newCodecServer(t, expandingCodec{size: maxCodecResultBytes / 2})
	post := func(payloads int) (int, string) {
		t.Helper()
		body := `{"payloads":[` + strings.Repeat(`{"data":"AA=="},`, payloads-1) + `{"data":"AA=="}]}`
		resp, err := http.Post(server.URL+"/codec/decode", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			n, _ := io.Copy(io.Discard, resp.Body)
			return resp.StatusCode, fmt.Sprintf("%d bytes", n)
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp.StatusCode, string(msg)
	}
	if status, msg := post(3); status != http.StatusRequestEntityTooLarge ||
		!strings.Contains(msg, "the decoded payloads come to more than the codec server's limit of 128 MiB for an answer") {
		t.Errorf("a 192 MiB answer: status %d, %.300q; want 413 naming the limit", status, msg)
	}
	if status, msg := post(1); status != http.StatusOK {
		t.Errorf("a 64 MiB answer: status %d, %.300q; want 200", status, msg)
	}
}

func TestRemotePayloadCodecReadsABoundedAnswer(t *testing.T) {
	const limit = 1 << 20
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(w, io.LimitReader(repeatReader(' '), 8*limit))
	}))
	t.Cleanup(server.Close)
	codec := NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: server.URL})
	codec.(*remotePayloadCodec).maxAnswerBytes = limit

	var err error
	allocated := allocatedBytes(func() { _, err = codec.Decode([]*commonpb.Payload{newPayload([]byte("1"), MetadataEncodingJSON)}) })
	if err == nil || !strings.Contains(err.Error(), "is larger than the 1 MiB a remote codec reads") {
		t.Errorf("an 8 MiB answer behind a 1 MiB limit gave %v, want an error naming the limit", err)
	}
	if allocated > 8*limit {
		t.Errorf("the codec allocated %d bytes for the answer, want at most %d", allocated, 8*limit)
	}
}

func TestRemotePayloadCodecQuotesLittleOfAFailedAnswer(t *testing.T) {
	page := "<html>\x1b[31mred\x1b[0m\n" + strings.Repeat("<p>filler</p>\n", 10000) + "</html>"
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, page)
	}))
	t.Cleanup(server.Close)
	codec := NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: server.URL + "/codec"})

	_, err := codec.Encode([]*commonpb.Payload{newPayload([]byte("1"), MetadataEncodingJSON)})
	if err == nil {
		t.Fatal("a 502 answer gave no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "remote codec: POST "+server.URL+"/codec/encode: Bad Gateway: <html>\\u001b[31mred\\u001b[0m <p>filler</p>") ||
		!strings.HasSuffix(msg, " [...]") || len(msg) > 700 || strings.ContainsAny(msg, "\x1b\n") {
		t.Errorf("error of a %d-byte failed answer (%d bytes): %q; want the request, the status and at most %d bytes of the answer, on one line, escapes shown, marked as cut",
			len(page), len(msg), msg, maxRemoteCodecErrorBytes)
	}
}

// deadlineRecorder is a transport that remembers the deadline of the
// requests it sends.
type deadlineRecorder struct {
	deadline    time.Time
	hasDeadline bool
}

func (d *deadlineRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	d.deadline, d.hasDeadline = r.Context().Deadline()
	return http.DefaultTransport.RoundTrip(r)
}

func TestRemotePayloadCodecBoundsEachRequest(t *testing.T) {
	server := newCodecServer(t)
	in := []*commonpb.Payload{newPayload([]byte("1"), MetadataEncodingJSON)}

	// A client without a timeout gets the default one.
	recorder := &deadlineRecorder{}
	sent := time.Now()
	codec := NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: server.URL + "/codec", Client: http.Client{Transport: recorder}})
	if _, err := codec.Encode(in); err != nil {
		t.Fatal(err)
	}
	if !recorder.hasDeadline || recorder.deadline.Before(sent.Add(DefaultRemoteCodecTimeout)) {
		t.Errorf("a request of a codec whose http.Client has no Timeout has deadline %v (set: %v), want %v after it was made",
			recorder.deadline.Sub(sent), recorder.hasDeadline, DefaultRemoteCodecTimeout)
	}

	// A client's own timeout is kept.
	recorder = &deadlineRecorder{}
	sent = time.Now()
	codec = NewRemotePayloadCodec(RemotePayloadCodecOptions{Endpoint: server.URL + "/codec", Client: http.Client{Transport: recorder, Timeout: time.Hour}})
	if _, err := codec.Encode(in); err != nil {
		t.Fatal(err)
	}
	if !recorder.hasDeadline || recorder.deadline.Before(sent.Add(time.Hour)) {
		t.Errorf("a request of a codec whose http.Client has a 1 h Timeout has deadline %v (set: %v), want 1 h after it was made",
			recorder.deadline.Sub(sent), recorder.hasDeadline)
	}

}
