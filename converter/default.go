package converter

var defaultDataConverter = NewCompositeDataConverter(
	NewNilPayloadConverter(),
	NewByteSlicePayloadConverter(),
	// Both proto converters accept every proto message, so only the first
	// (json/protobuf) ever encodes; the second is there to decode
	// binary/protobuf payloads written by others.
	NewProtoJSONPayloadConverter(),
	NewProtoPayloadConverter(),
	NewJSONPayloadConverter(),
)

// GetDefaultDataConverter returns the DataConverter the SDK uses unless told
// otherwise: nil, []byte, proto messages (as protojson) and JSON, in that
// order. It is safe for concurrent use.
func GetDefaultDataConverter() DataConverter {
	return defaultDataConverter
}
