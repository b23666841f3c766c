//go:build !unix

package typed_test

import "time"

// processCPU is unknown here: -1 leaves cpu-ns/op out.
func processCPU() time.Duration { return -1 }
