// Package s3driver is an external storage driver (converter.StorageDriver)
// that keeps payloads in Amazon S3 or an S3-compatible store, with the
// names, claims and object keys of go.temporal.io/sdk/contrib/aws/s3driver:
// a payload stored by either SDK's driver is retrieved by the other's.
//
// Each payload is stored as its protobuf encoding under a key made of the
// workflow (or standalone activity) it was stored for and the SHA-256
// digest of that encoding:
//
//	v0/ns/<namespace>/wt/<workflow type>/wi/<workflow ID>/ri/<run ID>/d/sha256/<digest>
//	v0/ns/<namespace>/at/<activity type>/ai/<activity ID>/ri/<run ID>/d/sha256/<digest>
//
// (each part path-escaped, "null" when empty; v0/d/sha256/<digest> with no
// target). An object already there is not written again. Its claim
// records the bucket, the key and the digest, which Retrieve checks.
//
// The driver talks to S3 through Client; awssdkv2.NewClient makes one of
// an AWS SDK for Go v2 client.
//
// NOTE: Experimental, as the external storage it serves.
package s3driver
