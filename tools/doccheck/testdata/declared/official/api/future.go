//go:build go1.99

package api

// Future is in a file that this toolchain's build skips.
type Future struct{}
