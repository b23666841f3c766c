package workerrt

import (
	"crypto/rand"
	"encoding/hex"
)

// randomID is 16 random bytes in hex: unique names for sticky queues.
func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
