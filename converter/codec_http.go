package converter

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The codec server protocol used by the Temporal Web UI and CLI: a POST to
// <endpoint>/encode or <endpoint>/decode whose body, and the answer's, is a
// JSON Payloads message, {"payloads": [{"metadata": {...}, "data": "..."}]},
// bytes in base64.
const (
	codecEncodePath = "/encode"
	codecDecodePath = "/decode"
)

// maxCodecRequestBytes bounds the body of a codec request, which is read
// into memory whole: a client, or anyone who reaches the endpoint, must
// not be able to make the server hold an unbounded body. It is sixteen
// times the server's default limit on one payload (2 MiB), base64 and all.
const maxCodecRequestBytes = 32 << 20

// maxCodecResultBytes bounds the payloads a codec request answers with (the
// JSON written is about 4/3 of it, base64): decoding can make far more of
// a request than it held. It is DefaultZlibMaxDecodedSize, so that a zlib
// codec with default options hits its own limit first.
const maxCodecResultBytes = DefaultZlibMaxDecodedSize

type codecHTTPHandler struct {
	codecs []PayloadCodec
	// memory bounds the memory of the requests in flight together (see
	// codec_http_memory.go); a request waits up to memoryWait for its
	// share.
	memory     *memoryBudget
	memoryWait time.Duration
	// maxResult bounds the payloads of one answer: maxCodecResultBytes
	// (tests lower it).
	maxResult int
}

// NewPayloadCodecHTTPHandler returns an http.Handler that serves the codecs
// to the Temporal Web UI, the CLI and NewRemotePayloadCodec: POST requests to
// any path ending in /encode or /decode. Mount it under a prefix of your
// choice; add authentication and CORS around it as needed.
//
// It bounds what requests can make it hold: a body of 32 MiB, an answer of
// 128 MiB of payloads, and 1 GiB of memory for all the requests it serves
// at once. A request that cannot get its share of that memory within 5 s
// (the others hold it) is answered 503 with Retry-After; one that would
// need more than all of it, 413.
func NewPayloadCodecHTTPHandler(codecs ...PayloadCodec) http.Handler {
	return &codecHTTPHandler{codecs: codecs, memory: newMemoryBudget(codecServerMemory), memoryWait: codecMemoryWait, maxResult: maxCodecResultBytes}
}

func (h *codecHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	encode := strings.HasSuffix(r.URL.Path, codecEncodePath)
	if r.Method != http.MethodPost || (!encode && !strings.HasSuffix(r.URL.Path, codecDecodePath)) {
		http.NotFound(w, r)
		return
	}
	if r.ContentLength > maxCodecRequestBytes {
		refuseTooLargeBody(w)
		return
	}
	bodyBytes := r.ContentLength
	if bodyBytes < 0 { // unknown: charged as the largest
		bodyBytes = maxCodecRequestBytes
	}
	memory := &requestMemory{h: h, r: r}
	defer memory.release()
	allowance := firstAllowance(bodyBytes, h.maxResult)
	if !memory.hold(w, bodyCost(bodyBytes)+answerCost(allowance)) {
		return
	}
	payloads, ok := readPayloads(w, r)
	if !ok {
		return
	}
	result, err := h.runCodecs(encode, payloads, allowance)
	for errors.Is(err, errInflatedTooMuch) && allowance < int64(h.maxResult) {
		// The zlib codec needs more room than the request set aside: it
		// asks for eight times as much, up to the largest answer, and
		// decodes again.
		if allowance = min(8*allowance, int64(h.maxResult)); !memory.hold(w, bodyCost(bodyBytes)+answerCost(allowance)) {
			return
		}
		result, err = h.runCodecs(encode, payloads, allowance)
	}
	var inflatedTooMuch *decodedSizeError
	size := 0
	if err == nil {
		size = payloadsSize(result, h.maxResult)
	}
	switch {
	case errors.As(err, &inflatedTooMuch):
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	case errors.Is(err, errInflatedTooMuch) || size > h.maxResult:
		done := "decoded"
		if encode {
			done = "encoded"
		}
		http.Error(w, fmt.Sprintf("the %s payloads come to more than the codec server's limit of %d MiB for an answer",
			done, h.maxResult>>20), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if int64(size) > allowance && !memory.hold(w, bodyCost(bodyBytes)+answerCost(int64(size))) {
		// A codec of the user's made more than was set aside.
		return
	}
	response, err := protojson.Marshal(&commonpb.Payloads{Payloads: result})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(response)
}

// runCodecs encodes or decodes payloads with the handler's codecs; the
// zlib codecs of this package inflate at most allowance bytes each.
func (h *codecHTTPHandler) runCodecs(encode bool, payloads []*commonpb.Payload, allowance int64) ([]*commonpb.Payload, error) {
	if encode {
		return encodeWithCodecs(h.codecs, payloads)
	}
	var err error
	for _, codec := range h.codecs {
		if z, ok := codec.(*zlibCodec); ok {
			payloads, err = z.decodeWithin(payloads, int(min(allowance, int64(z.options.MaxDecodedSize))))
		} else {
			payloads, err = codec.Decode(payloads)
		}
		if err != nil {
			return nil, err
		}
	}
	return payloads, nil
}

// readPayloads reads the request's body, a JSON Payloads message; when
// it cannot, it answers the request and returns false.
func readPayloads(w http.ResponseWriter, r *http.Request) ([]*commonpb.Payload, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCodecRequestBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refuseTooLargeBody(w)
		return nil, false
	case err != nil:
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	var request commonpb.Payloads
	if err := protojson.Unmarshal(body, &request); err != nil {
		http.Error(w, `invalid payloads: the body must be a JSON Payloads message, {"payloads": [{"metadata": {...}, "data": "<base64>"}]}: `+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	return request.Payloads, true
}

func refuseTooLargeBody(w http.ResponseWriter) {
	http.Error(w, fmt.Sprintf("the request body is larger than the codec server's limit of %d MiB", maxCodecRequestBytes>>20), http.StatusRequestEntityTooLarge)
}

// payloadsSize is the wire size of payloads, stopping once it passes
// limit.
func payloadsSize(payloads []*commonpb.Payload, limit int) int {
	size := 0
	for _, p := range payloads {
		size += proto.Size(p)
		if size > limit {
			break
		}
	}
	return size
}
