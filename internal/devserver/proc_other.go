//go:build !linux

package devserver

import "syscall"

func childProcAttr() *syscall.SysProcAttr { return nil }
