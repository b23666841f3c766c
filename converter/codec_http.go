package converter

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

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
}

// NewPayloadCodecHTTPHandler returns an http.Handler that serves the codecs
// to the Temporal Web UI, the CLI and NewRemotePayloadCodec: POST requests to
// any path ending in /encode or /decode. Mount it under a prefix of your
// choice; add authentication and CORS around it as needed.
func NewPayloadCodecHTTPHandler(codecs ...PayloadCodec) http.Handler {
	return &codecHTTPHandler{codecs: codecs}
}

func (h *codecHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	encode := strings.HasSuffix(r.URL.Path, codecEncodePath)
	if r.Method != http.MethodPost || (!encode && !strings.HasSuffix(r.URL.Path, codecDecodePath)) {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCodecRequestBytes))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("the request body is larger than the codec server's limit of %d MiB", maxCodecRequestBytes>>20), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	var request commonpb.Payloads
	if err := protojson.Unmarshal(body, &request); err != nil {
		http.Error(w, `invalid payloads: the body must be a JSON Payloads message, {"payloads": [{"metadata": {...}, "data": "<base64>"}]}: `+err.Error(), http.StatusBadRequest)
		return
	}
	var result []*commonpb.Payload
	if encode {
		result, err = encodeWithCodecs(h.codecs, request.Payloads)
	} else {
		result, err = decodeWithCodecs(h.codecs, request.Payloads)
	}
	var inflatedTooMuch *decodedSizeError
	switch {
	case errors.As(err, &inflatedTooMuch):
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if payloadsSize(result) > maxCodecResultBytes {
		done := "decoded"
		if encode {
			done = "encoded"
		}
		http.Error(w, fmt.Sprintf("the %s payloads come to more than the codec server's limit of %d MiB for an answer",
			done, maxCodecResultBytes>>20), http.StatusRequestEntityTooLarge)
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

// payloadsSize is the wire size of payloads, stopping once it passes the
// result limit.
func payloadsSize(payloads []*commonpb.Payload) int {
	size := 0
	for _, p := range payloads {
		size += proto.Size(p)
		if size > maxCodecResultBytes {
			break
		}
	}
	return size
}
