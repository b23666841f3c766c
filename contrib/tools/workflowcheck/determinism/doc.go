// Package determinism is a static analyzer (golang.org/x/tools/go/analysis)
// that reports code which breaks determinism in Temporal workflow
// functions, written for github.com/durable-go/sdk or for
// go.temporal.io/sdk. The command github.com/durable-go/sdk/contrib/tools/workflowcheck
// runs it standalone or under go vet; the package golangciplugin loads it
// into golangci-lint.
//
// # Workflow functions
//
// A workflow function is a function, method or function literal whose first
// parameter is workflow.Context (of either SDK), or a function passed to
// RegisterWorkflow or RegisterWorkflowWithOptions of a worker, registry,
// replayer or test environment of either SDK. A function with a
// workflow.Context that another workflow function calls is reported through
// that caller. A workflow of another module registered in a package is
// reported at the registration; one of the same module is reported where it
// is declared. The SDKs' own API packages (workflow, internal, client,
// worker...) are not workflow code, except their _test.go files.
//
// # What is reported
//
// Everything reachable from a workflow function through static calls, into
// helpers of the same package and of other packages (through analysis
// facts), and into function literals written inside them:
//
//   - the Go clock and timers: time.Now, Since, Until, Sleep, After,
//     AfterFunc, Tick, NewTimer, NewTicker and the Timer and Ticker methods;
//     context.WithTimeout, WithDeadline and AfterFunc;
//   - native concurrency: go statements; sends, receives, select, range,
//     make and close on native channels;
//   - the sync and sync/atomic packages (Mutex, WaitGroup, Once, Map,
//     atomics...);
//   - randomness: math/rand and math/rand/v2 functions that use the global
//     source (rand.New with a seed, and its methods, are fine: draw the seed
//     with workflow.SideEffect), crypto/rand, hash/maphash;
//   - I/O: every function, method and variable of os (and below), net,
//     net/http, net/rpc, net/smtp, syscall, io/ioutil, database/sql,
//     log/syslog, plugin, expvar, runtime/pprof and runtime/trace, except
//     sentinel errors such as os.ErrNotExist; io.ReadAll, ReadFull,
//     ReadAtLeast, Copy, CopyN, CopyBuffer, WriteString and Pipe, which read
//     or write whatever they are given, usually a file or connection;
//     path/filepath.Abs, EvalSymlinks, Glob, Walk and WalkDir; fmt.Print,
//     Printf, Println and the Scan functions; the package-level functions of
//     log and log/slog (use workflow.GetLogger);
//   - iteration over a map, maps.Keys, maps.Values or maps.All, and
//     reflect.Value.MapKeys and MapRange, unless the order cannot show (see
//     below);
//   - global mutable state: writing a package-level variable (assigning it
//     or an element or field of it, taking its address, calling a method
//     with a pointer receiver on it, delete, clear or copy into it), and
//     reading one that its package writes anywhere other than in init
//     functions and initializers;
//   - the client, worker, activity and testsuite packages of either SDK.
//
// The workflow API itself is deterministic and is not looked into:
// workflow.Go, Sleep, Now, NewTimer, Await, AwaitWithTimeout, NewChannel,
// NewSelector, channels' and futures' methods, and the rest of the
// workflow, temporal, converter, log, interceptor and internal packages of
// both SDKs. The callback of workflow.SideEffect and
// workflow.MutableSideEffect (but not MutableSideEffect's equality
// function), and a function literal passed as the activity of
// ExecuteActivity or ExecuteLocalActivity, are not workflow code. Protocol
// buffer packages (go.temporal.io/api, google.golang.org/protobuf,
// github.com/golang/protobuf, github.com/gogo/protobuf) are taken as
// deterministic, as is any package given to -trust (or the plugin's trust
// setting); the rest of the standard library is.
//
// # Activity arguments
//
// Apart from determinism, calls of workflow.ExecuteActivity and
// ExecuteLocalActivity (of either SDK) are reported, anywhere in the
// package, when the activity is given as a function and the arguments do
// not fit its parameters (after its context.Context): too many, too few,
// or one whose type is not assignable to its parameter's (an untyped
// constant counts as its default type, as it is passed in an any). Neither
// SDK refuses such an ExecuteActivity: it schedules the activity, which
// drops the extra arguments, takes zero values for the missing ones, and
// fails when it cannot decode one; github.com/durable-go/sdk logs a warning
// too. A local activity's call fails at once. An argument of an interface
// type is not checked (its dynamic type is unknown here), nor a call that
// spreads a slice (args...).
//
//	wf.go:40:9: ExecuteActivity: activity Charge takes 2 argument(s) (Order, int), but 1 are given; it is scheduled all the same, and drops the extra arguments or takes zero values for the missing ones
//
// # Map iteration that is accepted
//
// A range loop over a map (or over maps.Keys, maps.Values, maps.All of one)
// is accepted when it has the same effects in every iteration order:
//
//   - the body uses neither the key nor the value;
//   - or the loop defines its variables (:=) and every statement of the
//     body is one of: a definition or assignment of a variable declared in
//     the body, or an assignment to _; keys = append(keys, k) of the key, or of the value when
//     values are integers or strings; x op= e, x++ or x-- on an integer
//     variable with one operation family per variable (+ and -, *, |, &,
//     ^); x = max(x, e) or x = min(x, e); x = constant, the same constant
//     each time; dst[k] = e into a map by the loop's key; delete(m, k) of
//     the loop's key; continue; an if statement whose condition is such an
//     expression and whose branches are such statements; or a way out
//     (break, or return of constants, after constant assignments) when the
//     loop does nothing else and every way out is the same.
//
// Every expression in such a body must be free of side effects and must not
// read a variable the loop writes: it may use variables, constants, field
// selections, indexing, operators, conversions, the builtins len, cap, min,
// max, real, imag and complex, and the functions of strings, unicode,
// unicode/utf8, strconv, math, math/bits and cmp (not the ones that append
// to an argument), with no function-valued argument. A slice the keys are
// collected into must be sorted by sort.Strings, sort.Ints, sort.Float64s or
// slices.Sort in the statement of the same block that first uses it after
// the loop. A sort with a comparison function is not accepted: ties keep
// the map's order. keys := slices.Collect(maps.Keys(m)) followed by such a
// sort, and slices.Sorted(maps.Keys(m)), are accepted too; with maps.Values,
// for integers and strings. workflow.DeterministicKeys(m) is the simplest.
//
// # Findings
//
// Each finding is reported once, at the offending call or statement when it
// is in the package being checked, with the shortest call path from a
// workflow function that reaches it (the first in the file on a tie) and
// what to do instead:
//
//	wf.go:31:9: time.Now called: OrderWorkflow -> price -> quote; use workflow.Now
//
// When the offending code is in another package, the finding is reported at
// the call that leaves the package towards it, with the path through the
// other packages and the place of the offending code:
//
//	wf.go:12:14: time.Now called: OrderWorkflow -> pricing.Quote -> pricing.fetch at pricing/fetch.go:40; use workflow.Now
//
// A function's fact carries up to eight findings, the ones with the shortest
// paths.
//
// # Ignoring a finding
//
// A comment //workflowcheck:ignore followed by a reason silences the
// analyzer: at the end of a line, for that line; alone on its line, for the
// next line; either way for the whole statement or declaration that starts
// on that line, including nested blocks. In a function's doc comment it
// covers the whole function: its body is not checked and calls to it are
// not followed. A directive without a reason is reported and ignores
// nothing.
//
//	now := time.Now() //workflowcheck:ignore only logged, never decides a command
//
// # Limits
//
// Calls through interface methods and function values (variables, fields,
// parameters) are not followed, except package-level variables that hold a
// function and are never assigned again. A package variable mutated through
// an alias (a map or slice passed to a function that writes it) is not seen
// as written; nor is one written by another package than its own, unless
// that write is itself in workflow code.
package determinism
