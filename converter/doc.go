// Package converter turns Go values into Temporal payloads and back.
//
// Every value that crosses the wire (workflow and activity arguments and
// results, signal, query and update payloads, heartbeat details, memo) is a
// common.v1.Payload: bytes plus metadata, of which the "encoding" key says how
// to read the bytes. The default DataConverter (GetDefaultDataConverter)
// writes the same encodings as every other Temporal SDK:
//
//	binary/null      nil values
//	binary/plain     []byte
//	json/protobuf    proto messages (with the "messageType" metadata key)
//	binary/protobuf  proto messages, read only unless used on its own
//	json/plain       everything else, through encoding/json
//
// A PayloadCodec (for example NewZlibCodec) transforms encoded payloads, for
// compression or encryption, and NewCodecDataConverter chains codecs behind a
// DataConverter. NewPayloadCodecHTTPHandler serves codecs to the Temporal Web
// UI and CLI, and NewRemotePayloadCodec calls such a server.
//
// Decoding errors name the payload encoding and the Go type asked for, and
// malformed payloads never make a converter panic.
package converter
