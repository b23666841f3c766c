package converter

// Payload metadata keys and the encodings the default converters write.
// These strings are the wire format shared by all Temporal SDKs.
const (
	// MetadataEncoding is the metadata key naming a payload's encoding.
	MetadataEncoding = "encoding"
	// MetadataMessageType is the metadata key naming the full proto message
	// type of a proto payload, for example "temporal.api.common.v1.WorkflowType".
	MetadataMessageType = "messageType"
	// MetadataEncodingBinary marks raw bytes.
	MetadataEncodingBinary = "binary/plain"
	// MetadataEncodingJSON marks JSON written by encoding/json.
	MetadataEncodingJSON = "json/plain"
	// MetadataEncodingNil marks a nil value; such payloads carry no data.
	MetadataEncodingNil = "binary/null"
	// MetadataEncodingProtoJSON marks a proto message in protojson form.
	MetadataEncodingProtoJSON = "json/protobuf"
	// MetadataEncodingProto marks a proto message in binary wire form.
	MetadataEncodingProto = "binary/protobuf"
)
