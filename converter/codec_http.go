package converter

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
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
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
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
