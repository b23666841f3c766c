package devserver

import "syscall"

// childProcAttr has the kernel kill the server if this process dies
// without stopping it (a test binary killed on timeout, say), so no server
// is left holding its port. The kernel ties this to the OS thread that
// started the child; Go retires a thread only when a goroutine locked to
// it exits, which nothing here does.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
