//go:build linux && !race && !msan && !asan

package rpc

// rawSocketsByDefault says whether connections use raw socket I/O unless
// told not to. It is false where there is no raw socket I/O (not Linux)
// and in race, msan and asan builds, whose bookkeeping of memory the
// kernel writes to the raw calls bypass (see rawsocket_builds_off.go).
const rawSocketsByDefault = true
