// Package callsite finds, on the stack of a call into the engine, the
// workflow code that made it: the file:line a non-determinism error names
// (callsite.WorkflowCode). It needs nothing of package internal.
package callsite

import (
	"runtime"
	"strconv"
	"strings"
)

// sdkFunctionPrefixes are the functions of the SDK itself, which stand
// between workflow code and the engine on the stack.
var sdkFunctionPrefixes = []string{
	"runtime.", "iter.",
	"github.com/durable-go/sdk/internal.", "github.com/durable-go/sdk/internal/",
	"github.com/durable-go/sdk/workflow.", "github.com/durable-go/sdk/interceptor.",
	"github.com/durable-go/sdk/temporal.", "github.com/durable-go/sdk/converter.",
	"github.com/durable-go/sdk/contrib/",
}

// engineEntry is where the engine is driven from outside: a command made
// below it on the stack comes from the engine itself (the command that
// closes the workflow, a cancel an event triggers), not from workflow
// code, which runs on coroutines of its own.
const engineEntry = "github.com/durable-go/sdk/internal/engine.(*Run).ProcessTask"

// WorkflowCode is the file:line of the innermost caller outside the SDK:
// the workflow code (or a helper of it) whose call reached the engine.
// Empty when the call did not come from workflow code. The engine calls
// it, through engine.Options.LocateCode, where a command is made.
func WorkflowCode() string {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.Function == engineEntry {
			return ""
		}
		if !isSDKFunction(f.Function) {
			return f.File + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

func isSDKFunction(name string) bool {
	for _, p := range sdkFunctionPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
