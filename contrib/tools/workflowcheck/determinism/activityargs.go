package determinism

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// checkActivityArgs reports the calls of workflow.ExecuteActivity and
// ExecuteLocalActivity (of either SDK) whose arguments do not fit the
// activity function they name: too many or too few, or one whose type is
// not assignable to its parameter's. Neither SDK refuses such an
// ExecuteActivity: the activity is scheduled, drops the extra arguments,
// takes zero values for the missing ones, and fails when it cannot decode
// one into its parameter's type. A local activity's call fails at once.
// An argument of an interface type, whose dynamic type is unknown here, is
// not checked, nor a call that spreads a slice (args...).
func (a *pkgAnalysis) checkActivityArgs() {
	info := a.pass.TypesInfo
	for _, file := range a.pass.Files {
		if a.sdkAPI && !a.isTestFile(file.Pos()) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 || call.Ellipsis.IsValid() {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || !sdkWorkflowFunc(fn, "ExecuteActivity", "ExecuteLocalActivity") || a.ignores.covers(call.Pos()) {
				return true
			}
			activity := info.TypeOf(call.Args[1])
			if activity == nil {
				return true
			}
			sig, ok := activity.Underlying().(*types.Signature)
			if !ok {
				return true // an activity given by name
			}
			if msg := activityArgsMismatch(info, sig, types.ExprString(call.Args[1]), call.Args[2:]); msg != "" {
				a.pass.Report(analysis.Diagnostic{Pos: call.Pos(), Message: fn.Name() + ": " + msg})
			}
			return true
		})
	}
}

// activityArgsMismatch says how args do not fit the parameters of the
// activity function named name, of signature sig; "" when they fit.
func activityArgsMismatch(info *types.Info, sig *types.Signature, name string, args []ast.Expr) string {
	var params []types.Type
	for i := range sig.Params().Len() {
		p := sig.Params().At(i).Type()
		if i == 0 && isContextLike(p) {
			continue // the activity's context, which the SDK passes
		}
		params = append(params, p)
	}
	variadic := sig.Variadic()
	if !variadic && len(args) != len(params) {
		return fmt.Sprintf("activity %s takes %d argument(s) %s, but %d are given; it is scheduled all the same, and drops the extra arguments or takes zero values for the missing ones",
			name, len(params), typeList(params), len(args))
	}
	for i, arg := range args {
		if i >= len(params) || (variadic && i >= len(params)-1) {
			break
		}
		tv, ok := info.Types[arg]
		if !ok || tv.IsNil() || types.IsInterface(tv.Type) {
			continue
		}
		if t := types.Default(tv.Type); !types.AssignableTo(t, params[i]) {
			return fmt.Sprintf("argument %d is %s, but activity %s's parameter is %s; the activity decodes it into %s, and fails if it cannot",
				i+1, t, name, params[i], params[i])
		}
	}
	return ""
}

// isContextLike reports a type with the methods of context.Context, which
// the SDKs take an activity's first parameter to be.
func isContextLike(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for _, m := range []string{"Deadline", "Done", "Err", "Value"} {
		if ms.Lookup(nil, m) == nil {
			return false
		}
	}
	return true
}

func typeList(ts []types.Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return "(" + strings.Join(names, ", ") + ")"
}
