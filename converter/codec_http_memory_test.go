package converter

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// newBudgetedCodecServer serves codecs with a handler whose memory budget,
// wait and answer limit are the test's.
func newBudgetedCodecServer(t *testing.T, budget int64, wait time.Duration, maxResult int, codecs ...PayloadCodec) (*httptest.Server, *codecHTTPHandler) {
	t.Helper()
	h := &codecHTTPHandler{codecs: codecs, memory: newMemoryBudget(budget), memoryWait: wait, maxResult: maxResult}
	server := httptest.NewServer(h)
	t.Cleanup(server.Close)
	return server, h
}

// decodeBody is the body of a /decode request for payloads.
func decodeBody(t *testing.T, payloads ...*commonpb.Payload) []byte {
	t.Helper()
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: payloads})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

type answer struct {
	status     int
	retryAfter string
	body       string             // the message of a failure
	payloads   *commonpb.Payloads // a success's, unless discarded
	size       int64              // a success's size
}

// postDecode posts body to /decode; with discard, a success is only
// counted, not kept, so that the client holds little of the heap the
// test measures.
func postDecode(t *testing.T, url string, body []byte, discard bool) answer {
	resp, err := http.Post(url+"/decode", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return answer{}
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if resp.StatusCode == http.StatusOK && discard {
		a.size, _ = io.Copy(io.Discard, resp.Body)
		return a
	}
	read, _ := io.ReadAll(resp.Body)
	a.body, a.size = string(read), int64(len(read))
	if resp.StatusCode == http.StatusOK {
		a.payloads = &commonpb.Payloads{}
		if err := protojson.Unmarshal(read, a.payloads); err != nil {
			t.Error(err)
		}
		a.body = ""
	}
	return a
}

// peakHeap samples the heap's live and unswept objects until stop is
// closed, and returns the most it saw.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	peak := make(chan uint64, 1)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var most uint64
		for {
			metrics.Read(sample)
			most = max(most, sample[0].Value.Uint64())
			select {
			case <-stop:
				peak <- most
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return peak
}

// The case, scaled down: eight small zlib bombs posted at once,
// each inflating to 4 MiB, hold about 130 MiB together; behind a budget
// of 36 MiB they take turns (each waits for the memory the others give
// back), all are answered, and the heap grows by less than twice the
// budget. Ordinary requests posted meanwhile are answered too.
func TestCodecHTTPHandlerBoundsTheMemoryOfAllRequests(t *testing.T) {
	const (
		budget    = 36 << 20
		maxResult = 6 << 20
		inflated  = 4 << 20
	)
	server, h := newBudgetedCodecServer(t, budget, time.Minute, maxResult, NewZlibCodec(ZlibCodecOptions{}))
	bomb := decodeBody(t, zlibBomb(t, inflated))
	small, err := NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}).Encode([]*commonpb.Payload{newPayload([]byte(`{"order":42}`), MetadataEncodingJSON)})
	if err != nil {
		t.Fatal(err)
	}
	ordinary := decodeBody(t, small...)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peak := peakHeap(stop)
	var wg sync.WaitGroup
	bombs := make([]answer, 8)
	for i := range bombs {
		wg.Go(func() { bombs[i] = postDecode(t, server.URL, bomb, true) })
	}
	var ordinaryOK atomic.Int32
	for range 20 {
		wg.Go(func() {
			a := postDecode(t, server.URL, ordinary, false)
			if a.status == http.StatusOK && string(a.payloads.GetPayloads()[0].GetData()) == `{"order":42}` {
				ordinaryOK.Add(1)
			} else {
				t.Errorf("an ordinary request among the bombs: status %d, %.200s", a.status, a.body)
			}
		})
	}
	wg.Wait()
	close(stop)
	grew := int64(<-peak) - int64(before.HeapAlloc)

	for i, a := range bombs {
		// The answer is the data in base64, and a little JSON.
		if a.status != http.StatusOK || a.size < inflated*4/3 || a.size > inflated*4/3+1000 {
			t.Errorf("bomb %d: status %d, %.200s; want it decoded, in its turn", i, a.status, a.body)
		}
	}
	t.Logf("8 bombs of %d MiB and %d ordinary requests: the heap grew by at most %d MiB, with a budget of %d MiB",
		inflated>>20, ordinaryOK.Load(), grew>>20, budget>>20)
	if limit := int64(2 * budget); grew > limit {
		t.Errorf("the heap grew by %d MiB, more than twice the budget (%d MiB)", grew>>20, budget>>20)
	}
	wantAllGivenBack(t, h.memory)
}

// A request that cannot get its share of the memory within the wait is
// answered 503 with Retry-After, saying why; one that needs more than the
// whole budget, 413; once the memory is given back, the request goes
// through, and one that waits gets it as soon as it is given back.
func TestCodecHTTPHandlerRefusesWhatTheBudgetCannotHold(t *testing.T) {
	const budget = 32 << 20
	server, h := newBudgetedCodecServer(t, budget, 50*time.Millisecond, 16<<20, NewZlibCodec(ZlibCodecOptions{}))
	ordinary := decodeBody(t, newPayload([]byte(`"plain"`), MetadataEncodingJSON))

	inFlight := int64(30 << 20) // what other requests hold
	if err := h.memory.take(t.Context(), inFlight, 0); err != nil {
		t.Fatal(err)
	}
	a := postDecode(t, server.URL, ordinary, false)
	if a.status != http.StatusServiceUnavailable || a.retryAfter != "1" ||
		!strings.Contains(a.body, "the codec server is busy: the requests in flight hold its memory budget of 32 MiB, and this one could not get the 6 MiB it needs within 50ms; try again") {
		t.Errorf("a request while the budget is held: status %d, Retry-After %q, %q; want 503 saying why", a.status, a.retryAfter, a.body)
	}
	h.memory.give(inFlight)
	if a := postDecode(t, server.URL, ordinary, false); a.status != http.StatusOK {
		t.Errorf("the same request once the memory is back: status %d, %q", a.status, a.body)
	}

	// A bomb whose answer would need more than the budget.
	a = postDecode(t, server.URL, decodeBody(t, zlibBomb(t, 12<<20)), false)
	if a.status != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "more than the codec server's budget of 32 MiB for all requests together") {
		t.Errorf("a request that needs more than the whole budget: status %d, %q; want 413 saying so", a.status, a.body)
	}

	// A request that waits gets the memory when it comes back.
	wantAllGivenBack(t, h.memory)
	h.memoryWait = time.Minute
	if err := h.memory.take(t.Context(), inFlight, 0); err != nil {
		t.Fatal(err)
	}
	answered := make(chan answer)
	go func() { answered <- postDecode(t, server.URL, ordinary, false) }()
	waitUntilWaiting(t, h.memory)
	h.memory.give(inFlight)
	if a := <-answered; a.status != http.StatusOK {
		t.Errorf("a request that waited for the memory: status %d, %q", a.status, a.body)
	}
	wantAllGivenBack(t, h.memory)
}

// wantAllGivenBack fails t unless the budget is whole again soon: a
// request gives its share back just after its answer is written.
func wantAllGivenBack(t *testing.T, b *memoryBudget) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		held := b.size - b.free
		b.mu.Unlock()
		if held == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d bytes of the budget are still held after every request was answered", held)
			return
		}
	}
}

// waitUntilWaiting returns once a request waits for the budget.
func waitUntilWaiting(t *testing.T, b *memoryBudget) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b.mu.Lock()
		waiting := b.changed != nil
		b.mu.Unlock()
		if waiting {
			return
		}
	}
	t.Fatal("no request waited for the budget")
}

// A zlib payload that inflates to more than a request first sets aside
// is decoded all the same, in room it asks for then; a codec of the
// user's that makes more than was set aside is charged for it.
func TestCodecHTTPHandlerGrowsARequestsShare(t *testing.T) {
	server, h := newBudgetedCodecServer(t, 200<<20, time.Minute, 16<<20, NewZlibCodec(ZlibCodecOptions{}))
	if a := postDecode(t, server.URL, decodeBody(t, zlibBomb(t, 3<<20)), false); a.status != http.StatusOK || len(a.payloads.GetPayloads()[0].GetData()) != 3<<20 {
		t.Errorf("a payload inflating to 3 MiB: status %d, %.200s", a.status, a.body)
	}
	wantAllGivenBack(t, h.memory)
	server, h = newBudgetedCodecServer(t, 200<<20, time.Minute, 16<<20, expandingCodec{size: 2 << 20})
	if a := postDecode(t, server.URL, decodeBody(t, newPayload([]byte("1"), MetadataEncodingJSON)), false); a.status != http.StatusOK || len(a.payloads.GetPayloads()[0].GetData()) != 2<<20 {
		t.Errorf("a codec of the user's making 2 MiB: status %d, %.200s", a.status, a.body)
	}
	wantAllGivenBack(t, h.memory)
	// Behind a budget that holds the first share and not the answer, the
	// codec's answer is refused.
	server, _ = newBudgetedCodecServer(t, 8<<20, time.Minute, 16<<20, expandingCodec{size: 2 << 20})
	if a := postDecode(t, server.URL, decodeBody(t, newPayload([]byte("1"), MetadataEncodingJSON)), false); a.status != http.StatusRequestEntityTooLarge ||
		!strings.Contains(a.body, "the request needs about 11 MiB of memory, more than the codec server's budget of 8 MiB") {
		t.Errorf("a codec of the user's making 2 MiB behind a budget of 8 MiB: status %d, %.200s; want 413", a.status, a.body)
	}
}
