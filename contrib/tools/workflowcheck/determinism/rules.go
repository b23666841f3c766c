package determinism

import (
	"go/types"
	"strings"
)

// The two SDKs whose workflow API the analyzer knows: this one, and the
// official one that ported code still imports.
var sdkModules = []string{"github.com/durable-go/sdk", "go.temporal.io/sdk"}

// sdkModule returns the SDK module path that contains the package, or "".
func sdkModule(pkgPath string) string {
	for _, m := range sdkModules {
		if pkgPath == m || strings.HasPrefix(pkgPath, m+"/") {
			return m
		}
	}
	return ""
}

// The SDK packages whose functions are deterministic for workflow code (the
// workflow API and what it is made of), and the ones that are not for
// workflow code at all. Both lists are of paths relative to an SDK module;
// every other package inside an SDK module (examples, tools, tests) is
// ordinary user code.
var (
	sdkWorkflowPackages  = []string{"workflow", "temporal", "converter", "log", "interceptor", "internal", "contrib", "mocks"}
	sdkForbiddenPackages = []string{"client", "worker", "activity", "testsuite"}
)

// sdkPackageKind tells how calls into an SDK package are treated.
type sdkPackageKind int

const (
	notSDKAPI     sdkPackageKind = iota // not an SDK API package
	sdkWorkflow                         // deterministic: the workflow API
	sdkNotForWork                       // client, worker, activity, testsuite
)

func sdkKind(pkgPath string) sdkPackageKind {
	m := sdkModule(pkgPath)
	if m == "" || pkgPath == m {
		return notSDKAPI
	}
	rel := strings.TrimPrefix(pkgPath, m+"/")
	under := func(list []string) bool {
		for _, p := range list {
			if rel == p || strings.HasPrefix(rel, p+"/") {
				return true
			}
		}
		return false
	}
	switch {
	case under(sdkWorkflowPackages):
		return sdkWorkflow
	case under(sdkForbiddenPackages):
		return sdkNotForWork
	}
	return notSDKAPI
}

// Modules whose functions are taken as deterministic by default: generated
// protocol buffer code and its runtime, which workflow code uses for its
// inputs and outputs, and whose lazy initialisation uses sync and atomics.
var defaultTrusted = []string{
	"go.temporal.io/api/...",
	"google.golang.org/protobuf/...",
	"github.com/golang/protobuf/...",
	"github.com/gogo/protobuf/...",
}

// stdlibRoots are the first elements of the standard library's import
// paths. Matching on them, rather than on "no dot in the first element",
// keeps a module named like "myapp" from passing for the standard library.
var stdlibRoots = map[string]bool{
	"archive": true, "arena": true, "bufio": true, "builtin": true, "bytes": true,
	"cmp": true, "compress": true, "container": true, "context": true, "crypto": true,
	"database": true, "debug": true, "embed": true, "encoding": true, "errors": true,
	"expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true,
	"log": true, "maps": true, "math": true, "mime": true, "net": true, "os": true,
	"path": true, "plugin": true, "reflect": true, "regexp": true, "runtime": true,
	"simd": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true,
	"time": true, "unicode": true, "unique": true, "unsafe": true, "vendor": true,
	"weak": true, "C": true,
}

// isStdlib reports whether the import path belongs to the standard library.
func isStdlib(pkgPath string) bool {
	first, _, _ := strings.Cut(pkgPath, "/")
	return stdlibRoots[first]
}

// isWorkflowContext reports whether t is workflow.Context of either SDK.
func isWorkflowContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Name() != "Context" || named.Obj().Pkg() == nil {
		return false
	}
	// The alias workflow.Context leads into the SDK's internal packages,
	// where the type is declared.
	path := named.Obj().Pkg().Path()
	m := sdkModule(path)
	return m != "" && (path == m+"/workflow" || path == m+"/internal" || strings.HasPrefix(path, m+"/internal/"))
}

// sdkWorkflowFunc reports whether fn is the workflow-package function name
// of either SDK.
func sdkWorkflowFunc(fn *types.Func, names ...string) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	m := sdkModule(path)
	if m == "" || path != m+"/workflow" {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// A stdlibRule says which members of a standard library package break
// determinism in workflow code.
type stdlibRule struct {
	hint string
	// only, when set, lists the flagged members ("Func" or "Type.Method")
	// with an optional hint of their own; otherwise every package-level
	// function is flagged except those in except.
	only   map[string]string
	except []string
	// methods and vars flag every method of the package's types and every
	// package-level variable (except sentinel errors) as well.
	methods, vars bool
}

const (
	hintIO      = "do I/O in an activity"
	hintLogger  = "use workflow.GetLogger, which does not log again on replay"
	hintSync    = "workflow coroutines never run in parallel: use workflow.NewMutex, workflow.NewWaitGroup or workflow.NewSemaphore to wait, or plain variables"
	hintTimer   = "use workflow.NewTimer or workflow.Sleep"
	hintMapKeys = "iterate over workflow.DeterministicKeys(m) or slices.Sorted(maps.Keys(m))"
)

var ioPackage = stdlibRule{hint: hintIO, methods: true, vars: true}

var stdlibRules = map[string]stdlibRule{
	"time": {only: map[string]string{
		"Now":          "use workflow.Now",
		"Since":        "use workflow.Now(ctx).Sub",
		"Until":        "use t.Sub(workflow.Now(ctx))",
		"Sleep":        "use workflow.Sleep",
		"After":        hintTimer,
		"AfterFunc":    hintTimer,
		"NewTimer":     hintTimer,
		"Tick":         hintTimer,
		"NewTicker":    hintTimer,
		"Timer.Reset":  hintTimer,
		"Timer.Stop":   hintTimer,
		"Ticker.Reset": hintTimer,
		"Ticker.Stop":  hintTimer,
	}},
	"context": {only: map[string]string{
		"WithTimeout":       hintTimer,
		"WithTimeoutCause":  hintTimer,
		"WithDeadline":      hintTimer,
		"WithDeadlineCause": hintTimer,
		"AfterFunc":         hintTimer,
	}},
	"math/rand": {
		hint:   "draw a seed with workflow.SideEffect and use rand.New(rand.NewSource(seed))",
		except: []string{"New", "NewSource", "NewZipf"},
	},
	"math/rand/v2": {
		hint:   "draw a seed with workflow.SideEffect and use rand.New(rand.NewPCG(seed1, seed2))",
		except: []string{"New", "NewPCG", "NewChaCha8", "NewZipf"},
	},
	"crypto/rand":  {hint: "call it inside workflow.SideEffect", methods: true, vars: true},
	"hash/maphash": {hint: "its seeds are random: use hash/fnv or hash/crc32", methods: true},
	"sync":         {hint: hintSync, methods: true},
	"sync/atomic":  {hint: hintSync, methods: true},
	"maps": {only: map[string]string{
		"Keys":   hintMapKeys,
		"Values": hintMapKeys,
		"All":    hintMapKeys,
	}},
	"reflect": {only: map[string]string{
		"Value.MapKeys":  "sort the keys",
		"Value.MapRange": "sort the keys",
	}},
	"fmt": {only: map[string]string{
		"Print":   hintLogger,
		"Printf":  hintLogger,
		"Println": hintLogger,
		"Scan":    hintIO,
		"Scanf":   hintIO,
		"Scanln":  hintIO,
	}},
	"log": {hint: hintLogger, except: []string{"New"}}, // a Logger writes where it is told
	"log/slog": {hint: hintLogger, only: map[string]string{
		"Debug": "", "DebugContext": "", "Info": "", "InfoContext": "",
		"Warn": "", "WarnContext": "", "Error": "", "ErrorContext": "",
		"Log": "", "LogAttrs": "", "Default": "", "SetDefault": "",
	}},
	"io": {hint: hintIO, only: map[string]string{
		"ReadAll": "", "ReadFull": "", "ReadAtLeast": "", "Copy": "",
		"CopyN": "", "CopyBuffer": "", "WriteString": "", "Pipe": "",
	}},
	"path/filepath": {hint: hintIO, only: map[string]string{
		"Abs": "", "EvalSymlinks": "", "Glob": "", "Walk": "", "WalkDir": "",
	}},
	"os":           ioPackage,
	"io/ioutil":    ioPackage,
	"syscall":      ioPackage,
	"net":          ioPackage,
	"database/sql": ioPackage,
	"log/syslog":   ioPackage,
	"plugin":       ioPackage,
	"expvar":       ioPackage,
}

// stdlibPrefixRules cover whole trees of packages.
var stdlibPrefixRules = map[string]stdlibRule{
	"os/":           ioPackage,
	"net/http":      ioPackage,
	"net/rpc":       ioPackage,
	"net/smtp":      ioPackage,
	"database/sql/": ioPackage,
	"runtime/pprof": ioPackage,
	"runtime/trace": ioPackage,
}

func lookupStdlibRule(pkgPath string) (stdlibRule, bool) {
	if r, ok := stdlibRules[pkgPath]; ok {
		return r, true
	}
	for prefix, r := range stdlibPrefixRules {
		if pkgPath == prefix || strings.HasPrefix(pkgPath, strings.TrimSuffix(prefix, "/")+"/") {
			return r, true
		}
	}
	return stdlibRule{}, false
}

// stdlibFuncFinding says whether calling fn, a function or method of the
// standard library, breaks determinism, and what to do instead.
func stdlibFuncFinding(fn *types.Func) (hint string, flagged bool) {
	rule, ok := lookupStdlibRule(fn.Pkg().Path())
	if !ok {
		return "", false
	}
	member := fn.Name()
	recv := fn.Type().(*types.Signature).Recv()
	if recv != nil {
		named := receiverNamed(recv.Type())
		if named == nil {
			return "", false
		}
		member = named.Obj().Name() + "." + fn.Name()
	}
	if rule.only != nil {
		h, ok := rule.only[member]
		if !ok {
			return "", false
		}
		if h == "" {
			h = rule.hint
		}
		return h, true
	}
	if recv != nil {
		return rule.hint, rule.methods
	}
	for _, e := range rule.except {
		if e == member {
			return "", false
		}
	}
	return rule.hint, true
}

// stdlibVarFinding says whether reading v, a package-level variable of the
// standard library, breaks determinism (os.Stdout, crypto/rand.Reader).
// Sentinel errors are fine to compare against.
func stdlibVarFinding(v *types.Var) (hint string, flagged bool) {
	rule, ok := lookupStdlibRule(v.Pkg().Path())
	if !ok || !rule.vars {
		return "", false
	}
	if types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		return "", false
	}
	return rule.hint, true
}

// receiverNamed returns the named type of a method receiver (through a
// pointer), or nil.
func receiverNamed(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// trustList matches import paths against entries that are exact paths or
// end in "/..." to include every package below.
type trustList []string

func (l trustList) matches(pkgPath string) bool {
	for _, e := range l {
		if tree, ok := strings.CutSuffix(e, "/..."); ok {
			if pkgPath == tree || strings.HasPrefix(pkgPath, tree+"/") {
				return true
			}
		} else if pkgPath == e {
			return true
		}
	}
	return false
}
