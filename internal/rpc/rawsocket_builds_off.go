//go:build !linux || race || msan || asan

package rpc

// rawSocketsByDefault is false here: there is no raw socket I/O off Linux,
// and the race detector and the memory and address sanitizers learn of
// what a read puts in memory through the runtime's system call wrappers,
// which raw calls bypass. Tests still exercise the raw path in these
// builds by asking for it (Options.rawSocketProbe).
const rawSocketsByDefault = false
