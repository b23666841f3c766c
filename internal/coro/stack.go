package coro

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
)

// coroPackage prefixes the names of this package's functions in stacks.
var coroPackage = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(New).Pointer()).Name()
	return name[:strings.LastIndex(name, ".")+1]
}()

// StackTrace is one coroutine's stack, as the __stack_trace query shows it.
type StackTrace struct {
	Coroutine string // the coroutine's name
	Status    string // "blocked on ...", "not started", ...
	Stack     string // frames, innermost first; for a coroutine not yet started, its function
}

// String renders the trace the way the official SDK does:
// "coroutine NAME [STATUS]:" followed by the frames.
func (t StackTrace) String() string {
	return fmt.Sprintf("coroutine %s [%s]:\n%s", t.Coroutine, t.Status, t.Stack)
}

// StackTraces returns the stack of every live coroutine, in creation order.
// Suspended coroutines are resumed just long enough to record their own
// stack; no workflow code runs. It fails while a run is in progress.
func (d *Dispatcher) StackTraces() ([]StackTrace, error) {
	done, err := d.acquire()
	if err != nil {
		return nil, err
	}
	live := slices.Concat(d.order, d.firsts)
	slices.SortFunc(live, func(a, b *Coroutine) int { return a.seq - b.seq })
	traces := make([]StackTrace, 0, len(live))
	for _, c := range live {
		t := StackTrace{Coroutine: c.name, Status: c.statusText()}
		if c.status == statusNew {
			t.Stack = funcName(c.fn)
		} else {
			c.capture = true
			d.current = c
			c.next()
			d.current = nil
			t.Stack, c.stack = c.stack, ""
		}
		traces = append(traces, t)
	}
	d.release(done, nil)
	return traces, nil
}

// StackTrace renders StackTraces as one text, traces separated by a blank
// line, as the __stack_trace query returns it.
func (d *Dispatcher) StackTrace() (string, error) {
	traces, err := d.StackTraces()
	if err != nil {
		return "", err
	}
	parts := make([]string, len(traces))
	for i, t := range traces {
		parts[i] = t.String()
	}
	return strings.Join(parts, "\n\n"), nil
}

// frame is one entry of a goroutine traceback: the function line and the
// file line.
type frame struct {
	function string // as printed, with arguments if the format has them
	location string // "\tfile:line +0x.."
	name     string // the function's name alone
}

// parseTraceback splits one goroutine's runtime.Stack text into frames,
// dropping the "goroutine N [...]:" header and the "created by" entry.
func parseTraceback(text []byte) []frame {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "goroutine ") {
		lines = lines[1:]
	}
	var frames []frame
	for i := 0; i < len(lines); i++ {
		f := frame{function: lines[i], name: lines[i]}
		if j := strings.LastIndexByte(f.function, '('); j > 0 && strings.HasSuffix(f.function, ")") {
			f.name = f.function[:j]
		}
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			f.location = lines[i+1]
			i++
		}
		if strings.HasPrefix(f.function, "created by ") {
			break
		}
		frames = append(frames, f)
	}
	return frames
}

// bodyFrame is the function at the bottom of every coroutine's goroutine,
// under iter.Pull's: the function literal in Coroutine.start.
var bodyFrame = coroPackage + "(*Coroutine).start.func1"

// trimBottom drops the frames that start every coroutine (the body and
// iter.Pull) so a stack ends with the coroutine's own function.
func trimBottom(frames []frame) []frame {
	for i, f := range frames {
		if f.name == bodyFrame {
			return frames[:i]
		}
	}
	return frames
}

// isDispatcherFrame reports whether f is the dispatcher's own machinery
// (suspending, capturing), as opposed to code that called it.
func isDispatcherFrame(f frame) bool {
	rest, ok := strings.CutPrefix(f.name, coroPackage)
	if !ok {
		return strings.HasPrefix(f.name, "runtime.") || strings.HasPrefix(f.name, "iter.")
	}
	return strings.HasPrefix(rest, "(*Coroutine).") || strings.HasPrefix(rest, "(*Dispatcher).") || rest == "captureOwnStack"
}

func formatFrames(frames []frame) string {
	var b strings.Builder
	for i, f := range frames {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.function)
		if f.location != "" {
			b.WriteByte('\n')
			b.WriteString(f.location)
		}
	}
	return b.String()
}

// captureOwnStack returns the calling coroutine's stack without the
// dispatcher's frames: it starts at the call that suspended the coroutine.
func captureOwnStack() string {
	buf := make([]byte, 16<<10)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	frames := trimBottom(parseTraceback(buf))
	for len(frames) > 0 && isDispatcherFrame(frames[0]) {
		frames = frames[1:]
	}
	return formatFrames(frames)
}

// trimPanicStack turns debug.Stack() taken in the coroutine's deferred
// recover into the stack of the panic: it starts at the function that
// panicked (after the panic call and the runtime frames that raise
// run-time errors).
func trimPanicStack(stack []byte) string {
	frames := trimBottom(parseTraceback(stack))
	for i, f := range frames {
		if strings.HasPrefix(f.function, "panic(") {
			frames = frames[i+1:]
			break
		}
	}
	for len(frames) > 0 && strings.HasPrefix(frames[0].name, "runtime.") {
		frames = frames[1:]
	}
	return formatFrames(frames)
}

// stuckStack finds the stack of c, which is running on its goroutine, in a
// goroutine profile, by the pprof label c's goroutine carries.
func stuckStack(c *Coroutine) string {
	var profile bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&profile, 1); err != nil {
		return "(stack unavailable: " + err.Error() + ")"
	}
	labelText := fmt.Sprintf("%q:%q", labelKey, c.labelText())
	for record := range strings.SplitSeq(profile.String(), "\n\n") {
		lines := strings.Split(record, "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "# labels: ") || !strings.Contains(lines[1], labelText) {
			continue
		}
		return formatFrames(trimBottom(profileFrames(lines[2:])))
	}
	return "(stack unavailable: the coroutine's goroutine was not found)"
}

// profileFrames parses the "#\t0xPC\tfunc+0xOFF\tfile:line" lines of a
// debug=1 goroutine profile record.
func profileFrames(lines []string) []frame {
	var frames []frame
	for _, line := range lines {
		fields := strings.Split(strings.TrimPrefix(line, "#"), "\t")
		if len(fields) < 4 {
			continue
		}
		function := strings.TrimSpace(fields[2])
		if i := strings.LastIndex(function, "+0x"); i > 0 {
			function = function[:i]
		}
		frames = append(frames, frame{function: function, name: function, location: "\t" + strings.TrimSpace(fields[len(fields)-1])})
	}
	return frames
}

// funcName names fn's function, for coroutines that have not started.
func funcName(fn func()) string {
	if fn == nil {
		return ""
	}
	return runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name() + "(...)"
}
