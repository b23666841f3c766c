package internal

import (
	"crypto/fips140"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"sync"
)

// The process's binary checksum: what SetBinaryChecksum set, else the hex
// digest of the executable (MD5, or SHA-256 in FIPS 140 mode, as
// go.temporal.io/sdk computes it), worked out once, at first use.
var binaryChecksum struct {
	sync.Mutex
	value string
}

// SetBinaryChecksum sets the binary checksum that workers of this process
// send with their workflow polls and task failures (and, to servers older
// than build-ID versioning, with their completions), and that
// WorkflowInfo.GetBinaryChecksum reports for tasks the worker runs live.
func SetBinaryChecksum(checksum string) {
	binaryChecksum.Lock()
	defer binaryChecksum.Unlock()
	binaryChecksum.value = checksum
}

// processBinaryChecksum returns the binary checksum, computing it from the
// executable when none was set; "" if the executable cannot be read (the
// checksum is optional on the wire).
func processBinaryChecksum() string {
	binaryChecksum.Lock()
	defer binaryChecksum.Unlock()
	if binaryChecksum.value == "" {
		binaryChecksum.value = executableDigest()
	}
	return binaryChecksum.value
}

func executableDigest() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var h hash.Hash
	if fips140.Enabled() {
		h = sha256.New()
	} else {
		h = md5.New()
	}
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
