// Package uuid makes the random IDs the SDK gives what it names itself:
// workflow IDs left empty, request IDs (which make a call idempotent on
// its retries), update IDs, session IDs and plugin instance keys.
package uuid

import (
	"crypto/rand"
	"fmt"
)

// New returns a random (version 4) UUID, for workflow and request IDs.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
