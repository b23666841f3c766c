package converter

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/durable-go/sdk/internal/extstore"
)

// codecDownloadPath is the route of the payload handler that retrieves
// externally stored payloads, go.temporal.io/sdk's.
const codecDownloadPath = "/download"

// PayloadHTTPHandlerOptions configure NewPayloadHTTPHandler.
//
// NOTE: Experimental
type PayloadHTTPHandlerOptions struct {
	// PostStorageCodecs are the codecs applied after external storage, to
	// what the server receives (references included): a gRPC codec
	// interceptor's.
	PostStorageCodecs []PayloadCodec
	// PreStorageCodecs are the codecs applied before external storage,
	// the data converter's (NewCodecDataConverter): what is stored is
	// encoded with them.
	PreStorageCodecs []PayloadCodec
	// ExternalStorage is the storage the payloads were stored with: its
	// drivers retrieve what references stand for.
	ExternalStorage ExternalStorage
}

// payloadHTTPHandler serves codecs and external storage (see
// NewPayloadHTTPHandler).
type payloadHTTPHandler struct {
	pre, post []PayloadCodec
	storage   *extstore.Storage
}

// NewPayloadHTTPHandler returns a codec server handler (the protocol of
// NewPayloadCodecHTTPHandler) that also knows external storage, for the
// Temporal Web UI and CLI to show stored payloads. It serves POST
// requests to any path ending in:
//
//   - /decode: decodes with PostStorageCodecs, retrieves what references
//     stand for (unless the query says preserveStorageRefs=true, which
//     leaves references as they are), then decodes the other payloads
//     with PreStorageCodecs;
//   - /encode: encodes with PreStorageCodecs, stores the payloads that
//     reach the threshold, then encodes with PostStorageCodecs;
//   - /download: every payload must be a reference: retrieves them and
//     decodes them with PreStorageCodecs.
//
// Bodies and answers are JSON Payloads messages, as a codec server's. It
// returns an error when ExternalStorage is invalid.
//
// NOTE: Experimental
func NewPayloadHTTPHandler(options PayloadHTTPHandlerOptions) (http.Handler, error) {
	storage, err := extstore.New(options.ExternalStorage)
	if err != nil {
		return nil, err
	}
	return &payloadHTTPHandler{pre: options.PreStorageCodecs, post: options.PostStorageCodecs, storage: storage}, nil
}

func (h *payloadHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var run func(*http.Request, []*commonpb.Payload) ([]*commonpb.Payload, error)
	switch path := r.URL.Path; {
	case r.Method != http.MethodPost:
	case strings.HasSuffix(path, codecDecodePath):
		run = h.decode
	case strings.HasSuffix(path, codecEncodePath):
		run = h.encode
	case strings.HasSuffix(path, codecDownloadPath):
		run = h.download
	}
	if run == nil {
		http.NotFound(w, r)
		return
	}
	payloads, ok := readPayloads(w, r)
	if !ok {
		return
	}
	result, err := run(r, payloads)
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

func (h *payloadHTTPHandler) decode(r *http.Request, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	payloads, err := decodeWithCodecs(h.post, payloads)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(r.URL.Query().Get("preserveStorageRefs"), "true") {
		if payloads, err = h.storage.RetrievePayloads(r.Context(), payloads); err != nil {
			return nil, err
		}
	}
	return decodeAllButReferences(h.pre, payloads)
}

func (h *payloadHTTPHandler) encode(r *http.Request, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	payloads, err := encodeWithCodecs(h.pre, payloads)
	if err != nil {
		return nil, err
	}
	if payloads, err = h.storage.StorePayloads(r.Context(), payloads); err != nil {
		return nil, err
	}
	return encodeWithCodecs(h.post, payloads)
}

func (h *payloadHTTPHandler) download(r *http.Request, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	for i, p := range payloads {
		if !extstore.IsReference(p) {
			return nil, fmt.Errorf("download: payload %d is not a reference to an externally stored payload; all must be", i)
		}
	}
	payloads, err := h.storage.RetrievePayloads(r.Context(), payloads)
	if err != nil {
		return nil, err
	}
	return decodeAllButReferences(h.pre, payloads)
}

// decodeAllButReferences decodes payloads with codecs, leaving references
// (kept with preserveStorageRefs) as they are.
func decodeAllButReferences(codecs []PayloadCodec, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	var at []int
	var plain []*commonpb.Payload
	for i, p := range payloads {
		if !extstore.IsReference(p) {
			at, plain = append(at, i), append(plain, p)
		}
	}
	if len(plain) == 0 {
		return payloads, nil
	}
	decoded, err := decodeWithCodecs(codecs, plain)
	if err != nil {
		return nil, err
	}
	if len(decoded) != len(plain) {
		return nil, errors.New("a codec returned a different number of payloads than it was given")
	}
	out := append([]*commonpb.Payload(nil), payloads...)
	for j, i := range at {
		out[i] = decoded[j]
	}
	return out, nil
}
