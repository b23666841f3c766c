// Package binarychecksum is the process's binary checksum, which workers
// send with their workflow polls, task failures and (to servers older
// than build-ID versioning) completions, and which
// workflow.GetInfo(ctx).GetBinaryChecksum reports. It needs nothing of
// package internal, whose worker.SetBinaryChecksum sets it.
package binarychecksum

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
var checksum struct {
	sync.Mutex
	value string
}

// Set sets the binary checksum that workers of this process send with
// their workflow polls and task failures (and, to servers older than
// build-ID versioning, with their completions), and that
// WorkflowInfo.GetBinaryChecksum reports for tasks the worker runs live.
func Set(value string) {
	checksum.Lock()
	defer checksum.Unlock()
	checksum.value = value
}

// Get returns the binary checksum, computing it from the executable when
// none was set; "" if the executable cannot be read (the checksum is
// optional on the wire).
func Get() string {
	checksum.Lock()
	defer checksum.Unlock()
	if checksum.value == "" {
		checksum.value = executableDigest()
	}
	return checksum.value
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
