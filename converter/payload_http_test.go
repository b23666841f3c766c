package converter_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/contrib/localstorage"
	"github.com/durable-go/sdk/converter"
)

func postPayloads(t *testing.T, h http.Handler, path string, payloads ...*commonpb.Payload) (int, string, []*commonpb.Payload) {
	t.Helper()
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: payloads})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body)))
	answer, _ := io.ReadAll(rec.Body)
	var out commonpb.Payloads
	if rec.Code == http.StatusOK {
		if err := protojson.Unmarshal(answer, &out); err != nil {
			t.Fatalf("answer %s: %v", answer, err)
		}
	}
	return rec.Code, string(answer), out.Payloads
}

func isReference(p *commonpb.Payload) bool {
	return string(p.GetMetadata()["messageType"]) == "temporal.api.sdk.v1.ExternalStorageReference"
}

func TestPayloadHTTPHandlerStoresAndRetrieves(t *testing.T) {
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	zlib := converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true})
	h, err := converter.NewPayloadHTTPHandler(converter.PayloadHTTPHandlerOptions{
		PreStorageCodecs: []converter.PayloadCodec{zlib},
		ExternalStorage:  converter.ExternalStorage{Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: 150},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Random-looking data, which zlib cannot shrink below the threshold.
	var data []byte
	for i := range 512 {
		data = append(data, byte(i*7919>>3))
	}
	large, small := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: data},
		&commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("hi")}

	code, body, encoded := postPayloads(t, h, "/codec/encode", large, small)
	if code != http.StatusOK {
		t.Fatalf("encode: %d %s", code, body)
	}
	if !isReference(encoded[0]) || isReference(encoded[1]) {
		t.Fatalf("encode made %v", encoded)
	}
	if string(encoded[1].Metadata["encoding"]) != "binary/zlib" {
		t.Errorf("the small payload was not encoded with the pre-storage codec: %q", encoded[1].Metadata)
	}

	code, body, decoded := postPayloads(t, h, "/codec/decode", encoded...)
	if code != http.StatusOK || len(decoded) != 2 || !proto.Equal(decoded[0], large) || !proto.Equal(decoded[1], small) {
		t.Fatalf("decode: %d %s", code, body)
	}
	code, body, kept := postPayloads(t, h, "/codec/decode?preserveStorageRefs=true", encoded...)
	if code != http.StatusOK || !proto.Equal(kept[0], encoded[0]) || !proto.Equal(kept[1], small) {
		t.Fatalf("decode keeping references: %d %s", code, body)
	}
	code, body, downloaded := postPayloads(t, h, "/codec/download", encoded[0])
	if code != http.StatusOK || len(downloaded) != 1 || !proto.Equal(downloaded[0], large) {
		t.Fatalf("download: %d %s", code, body)
	}
	if code, body, _ := postPayloads(t, h, "/codec/download", encoded...); code != http.StatusBadRequest || !strings.Contains(body, "payload 1 is not a reference") {
		t.Errorf("download of a plain payload: %d %s", code, body)
	}

	// A handler without the storage says which driver a reference needs.
	plain, err := converter.NewPayloadHTTPHandler(converter.PayloadHTTPHandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if code, body, _ := postPayloads(t, plain, "/decode", encoded[0]); code != http.StatusBadRequest || !strings.Contains(body, `storage driver "local"`) {
		t.Errorf("decode without storage: %d %s", code, body)
	}
}

func TestPayloadHTTPHandlerRefusesBadStorageOptions(t *testing.T) {
	_, err := converter.NewPayloadHTTPHandler(converter.PayloadHTTPHandlerOptions{ExternalStorage: converter.ExternalStorage{PayloadSizeThreshold: -1}})
	if err == nil || !strings.Contains(err.Error(), "must not be negative") {
		t.Fatalf("error %v", err)
	}
}

// A data converter that meets a reference (its reader has no external
// storage) says so, rather than decoding the reference.
func TestAReferenceDecodedWithoutStorageSaysSo(t *testing.T) {
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: t.TempDir(), Name: "archive"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := converter.NewPayloadHTTPHandler(converter.PayloadHTTPHandlerOptions{
		ExternalStorage: converter.ExternalStorage{Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: 1}})
	if err != nil {
		t.Fatal(err)
	}
	payload, err := converter.GetDefaultDataConverter().ToPayload("stored")
	if err != nil {
		t.Fatal(err)
	}
	_, _, encoded := postPayloads(t, h, "/encode", payload)
	var got string
	err = converter.GetDefaultDataConverter().FromPayload(encoded[0], &got)
	if err == nil || !strings.Contains(err.Error(), `storage driver "archive"`) || !strings.Contains(err.Error(), "client.Options.ExternalStorage") {
		t.Fatalf("decoding a reference: %q, %v", got, err)
	}
}
