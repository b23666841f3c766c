package extstore

import (
	"encoding/json"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The wire format of a reference, go.temporal.io/sdk v1.51's: a payload
// whose metadata says "encoding: json/protobuf" and "messageType:
// temporal.api.sdk.v1.ExternalStorageReference", whose data is that
// message in protobuf JSON (the driver's name and the claim's data), and
// whose external_payloads field records the stored payload's size, which
// the server counts. Earlier pre-releases wrote "encoding:
// json/external-storage-reference" with a plain JSON body; it is still
// read.
const (
	metaEncoding       = "encoding"
	metaMessageType    = "messageType"
	encodingProtoJSON  = "json/protobuf"
	encodingLegacyJSON = "json/external-storage-reference"
)

var referenceMessageType = string((&sdkpb.ExternalStorageReference{}).ProtoReflect().Descriptor().FullName())

// IsReference reports whether p stands for a payload stored outside.
func IsReference(p *commonpb.Payload) bool {
	switch string(p.GetMetadata()[metaEncoding]) {
	case encodingProtoJSON:
		return string(p.GetMetadata()[metaMessageType]) == referenceMessageType
	case encodingLegacyJSON:
		return true
	}
	return false
}

// newReference is the payload that stands for one of storedSize bytes
// that the driver named driverName stored with claim.
func newReference(driverName string, claim StorageDriverClaim, storedSize int) (*commonpb.Payload, error) {
	data, err := protojson.Marshal(&sdkpb.ExternalStorageReference{DriverName: driverName, ClaimData: claim.ClaimData})
	if err != nil {
		return nil, fmt.Errorf("encoding the reference to a payload stored by driver %q: %w", driverName, err)
	}
	return &commonpb.Payload{
		Metadata: map[string][]byte{
			metaEncoding:    []byte(encodingProtoJSON),
			metaMessageType: []byte(referenceMessageType),
		},
		Data:             data,
		ExternalPayloads: []*commonpb.Payload_ExternalPayloadDetails{{SizeBytes: int64(storedSize)}},
	}, nil
}

// legacyReference is the body of a reference of the earlier format.
type legacyReference struct {
	DriverName  string             `json:"driver_name"`
	DriverClaim StorageDriverClaim `json:"driver_claim"`
}

// readReference returns the driver name and the claim of a reference.
func readReference(p *commonpb.Payload) (string, StorageDriverClaim, error) {
	if string(p.GetMetadata()[metaEncoding]) == encodingLegacyJSON {
		var ref legacyReference
		if err := json.Unmarshal(p.GetData(), &ref); err != nil {
			return "", StorageDriverClaim{}, fmt.Errorf("reading a reference to an externally stored payload: %w", err)
		}
		return ref.DriverName, ref.DriverClaim, nil
	}
	var ref sdkpb.ExternalStorageReference
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(p.GetData(), &ref); err != nil {
		return "", StorageDriverClaim{}, fmt.Errorf("reading a reference to an externally stored payload: %w", err)
	}
	return ref.GetDriverName(), StorageDriverClaim{ClaimData: ref.GetClaimData()}, nil
}

// sizeOf is the size a payload is measured by against the threshold: its
// wire size, metadata included, as go.temporal.io/sdk measures it.
func sizeOf(p *commonpb.Payload) int { return proto.Size(p) }
