// Package registry keeps the workflow and activity functions a worker or
// replayer knows, under the names they are started by, and calls them with
// arguments decoded from payloads.
package registry

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/wfctx"
)

// Func is a registered workflow or activity function.
type Func struct {
	Name string
	Fn   reflect.Value
	// HasContext: the first parameter is a context (always, for workflows).
	HasContext bool
	// Dynamic: the function stands in for a type nothing else is
	// registered under; it takes the arguments undecoded, as one
	// converter.EncodedValues.
	Dynamic bool

	direct *directCall // see CallWithContext; nil for other signatures
}

// WorkflowFunc is the Func of a function whose first parameter is the
// workflow context (a workflow function, an update handler), which
// CallWithContext calls.
func WorkflowFunc(name string, fn any) *Func {
	return &Func{Name: name, Fn: reflect.ValueOf(fn), HasContext: true, direct: directCallOf(fn)}
}

// Type is the function's type.
func (f *Func) Type() reflect.Type { return f.Fn.Type() }

// Params are the types of the arguments callers pass (after the context).
func (f *Func) Params() []reflect.Type {
	t := f.Fn.Type()
	var ps []reflect.Type
	start := 0
	if f.HasContext {
		start = 1
	}
	for i := start; i < t.NumIn(); i++ {
		ps = append(ps, t.In(i))
	}
	return ps
}

// Registry holds a worker's workflows and activities.
type Registry struct {
	mu         sync.RWMutex
	workflows  map[string]*Func
	activities map[string]*Func
	// dynamicWorkflow and dynamicActivity run the types not registered by
	// name, when set.
	dynamicWorkflow, dynamicActivity reflect.Value
	dynamicWorkflowCall              *directCall
	// workflowAliases and activityAliases map the function name of a
	// function registered under another name to that name, so that
	// workflow code calling it by function finds it (nil: aliasing off).
	workflowAliases, activityAliases map[string]string
}

// New returns an empty Registry.
func New() *Registry {
	return &Registry{workflows: make(map[string]*Func), activities: make(map[string]*Func),
		workflowAliases: map[string]string{}, activityAliases: map[string]string{}}
}

// DisableAliasing stops names given at registration from standing in for
// function names (worker.Options.DisableRegistrationAliasing): a function
// registered under another name is then called by its name only. Call it
// before registering.
func (r *Registry) DisableAliasing() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workflowAliases, r.activityAliases = nil, nil
}

// WorkflowTypeOf is the workflow type a workflow is started by: a string
// as it is, a function by the name it was registered under here (as in
// go.temporal.io/sdk, where a function registered with a name is called by
// that name), else by its function name.
func (r *Registry) WorkflowTypeOf(fn any) string {
	return r.typeOf(fn, func() map[string]string { return r.workflowAliases })
}

// ActivityTypeOf is WorkflowTypeOf for activities.
func (r *Registry) ActivityTypeOf(fn any) string {
	return r.typeOf(fn, func() map[string]string { return r.activityAliases })
}

// ActivityName is the type name an activity given as a function or a
// name is scheduled by (workflow.ExecuteActivity, ExecuteLocalActivity,
// and the test environment's), with an error for an empty name, nil, or
// a value that is neither.
func (r *Registry) ActivityName(activity any) (string, error) {
	switch a := activity.(type) {
	case string:
		if a == "" {
			return "", errors.New("ExecuteActivity: the activity name is empty")
		}
		return a, nil
	case nil:
		return "", errors.New("ExecuteActivity: the activity is nil; pass a function or an activity type name")
	}
	name := r.ActivityTypeOf(activity)
	if name == "" {
		return "", fmt.Errorf("ExecuteActivity: %T is not an activity; pass a function or an activity type name", activity)
	}
	return name, nil
}

func (r *Registry) typeOf(fn any, aliases func() map[string]string) string {
	name := FunctionName(fn)
	if _, isName := fn.(string); isName || name == "" {
		return name
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if alias, ok := aliases()[name]; ok {
		return alias
	}
	return name
}

var (
	encodedValuesType   = reflect.TypeFor[converter.EncodedValues]()
	workflowContextType = reflect.TypeFor[wfctx.Context]()
	contextType         = reflect.TypeFor[context.Context]()
	errorType           = reflect.TypeFor[error]()
)

// FunctionName is the name a function is registered and started by when
// no name is given: its bare name, without package or receiver ("Charge"
// for main.Charge and for (*Billing).Charge).
func FunctionName(fn any) string {
	if s, ok := fn.(string); ok {
		return s
	}
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return ""
	}
	full := runtime.FuncForPC(v.Pointer()).Name()
	short := full[strings.LastIndexByte(full, '.')+1:]
	return strings.TrimSuffix(short, "-fm") // method values carry -fm
}

// RegisterWorkflow adds a workflow function under name (its function name
// when empty).
func (r *Registry) RegisterWorkflow(fn any, name string, allowReplace bool) error {
	v := reflect.ValueOf(fn)
	if err := checkWorkflowFunc(v); err != nil {
		return fmt.Errorf("cannot register workflow %s: %w", describeFunc(fn), err)
	}
	funcName := FunctionName(fn)
	if name == "" {
		name = funcName
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.workflows[name]; dup && !allowReplace {
		return fmt.Errorf("workflow type %q is already registered; register it once, or set DisableAlreadyRegisteredCheck to replace it", name)
	}
	r.workflows[name] = WorkflowFunc(name, fn)
	if name != funcName && r.workflowAliases != nil {
		r.workflowAliases[funcName] = name
	}
	return nil
}

// RegisterActivity adds an activity function, or every exported method of
// a struct (pointer) as activities named prefix+method.
func (r *Registry) RegisterActivity(fn any, name string, allowReplace, skipInvalidMethods bool) error {
	v := reflect.ValueOf(fn)
	if v.Kind() == reflect.Func {
		if err := checkActivityFunc(v.Type()); err != nil {
			return fmt.Errorf("cannot register activity %s: %w", describeFunc(fn), err)
		}
		funcName := FunctionName(fn)
		if name == "" {
			name = funcName
		}
		if err := r.addActivity(name, v, allowReplace); err != nil {
			return err
		}
		if name != funcName {
			r.mu.Lock()
			if r.activityAliases != nil {
				r.activityAliases[funcName] = name
			}
			r.mu.Unlock()
		}
		return nil
	}
	if v.Kind() != reflect.Pointer && v.Kind() != reflect.Struct {
		return fmt.Errorf("cannot register activity: want a function or a struct whose methods are activities, got %T", fn)
	}
	t := v.Type()
	registered := 0
	for i := range t.NumMethod() {
		m := t.Method(i)
		if !m.IsExported() {
			continue
		}
		mv := v.Method(i)
		if err := checkActivityFunc(mv.Type()); err != nil {
			if skipInvalidMethods {
				continue
			}
			return fmt.Errorf("cannot register method %s of %s as an activity: %w (set SkipInvalidStructFunctions to skip such methods)", m.Name, t, err)
		}
		if err := r.addActivity(name+m.Name, mv, allowReplace); err != nil {
			return err
		}
		registered++
	}
	if registered == 0 {
		return fmt.Errorf("cannot register activities of %s: it has no exported method that can be an activity", t)
	}
	return nil
}

func (r *Registry) addActivity(name string, v reflect.Value, allowReplace bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.activities[name]; dup && !allowReplace {
		return fmt.Errorf("activity type %q is already registered; register it once, or set DisableAlreadyRegisteredCheck to replace it", name)
	}
	r.activities[name] = &Func{Name: name, Fn: v, HasContext: v.Type().NumIn() > 0 && v.Type().In(0) == contextType}
	return nil
}

// ActivityFunc wraps an activity function that was not registered (a
// local activity given as a function) the way registered ones are.
func ActivityFunc(name string, fn any) (*Func, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return nil, fmt.Errorf("activity %s: want a function, got %T", name, fn)
	}
	if err := checkActivityFunc(v.Type()); err != nil {
		return nil, fmt.Errorf("activity %s: %w", describeFunc(fn), err)
	}
	return &Func{Name: name, Fn: v, HasContext: v.Type().NumIn() > 0 && v.Type().In(0) == contextType}, nil
}

// RegisterDynamicWorkflow sets the workflow that runs every workflow type
// not registered by name: func(workflow.Context, converter.EncodedValues)
// returning (result, error) or error.
func (r *Registry) RegisterDynamicWorkflow(fn any) error {
	v := reflect.ValueOf(fn)
	if err := checkWorkflowFunc(v); err != nil {
		return fmt.Errorf("cannot register dynamic workflow %s: %w", describeFunc(fn), err)
	}
	if err := checkDynamic(v.Type(), "workflow.Context"); err != nil {
		return fmt.Errorf("cannot register dynamic workflow %s: %w", describeFunc(fn), err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dynamicWorkflow.IsValid() {
		return errors.New("a dynamic workflow is already registered: a worker has at most one")
	}
	r.dynamicWorkflow, r.dynamicWorkflowCall = v, directCallOf(fn)
	return nil
}

// RegisterDynamicActivity sets the activity that runs every activity type
// not registered by name: func(context.Context, converter.EncodedValues)
// returning (result, error) or error.
func (r *Registry) RegisterDynamicActivity(fn any) error {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return fmt.Errorf("cannot register dynamic activity: want a function, got %T", fn)
	}
	if err := checkActivityFunc(v.Type()); err != nil {
		return fmt.Errorf("cannot register dynamic activity %s: %w", describeFunc(fn), err)
	}
	if err := checkDynamic(v.Type(), "context.Context"); err != nil {
		return fmt.Errorf("cannot register dynamic activity %s: %w", describeFunc(fn), err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dynamicActivity.IsValid() {
		return errors.New("a dynamic activity is already registered: a worker has at most one")
	}
	r.dynamicActivity = v
	return nil
}

// checkDynamic checks a dynamic function's parameters: a context, then
// converter.EncodedValues.
func checkDynamic(t reflect.Type, context string) error {
	if t.NumIn() != 2 || t.In(1) != encodedValuesType {
		return fmt.Errorf("a dynamic function takes (%s, converter.EncodedValues), it takes %d parameters", context, t.NumIn())
	}
	if context == "context.Context" && t.In(0) != contextType {
		return fmt.Errorf("its first parameter must be context.Context, it is %s", firstParam(t))
	}
	return nil
}

// Workflow returns the workflow registered under name, or the dynamic
// workflow standing in for it.
func (r *Registry) Workflow(name string) (*Func, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if f, ok := r.workflows[name]; ok {
		return f, nil
	}
	if r.dynamicWorkflow.IsValid() {
		return &Func{Name: name, Fn: r.dynamicWorkflow, HasContext: true, Dynamic: true, direct: r.dynamicWorkflowCall}, nil
	}
	return nil, fmt.Errorf("workflow type %q is not registered with this worker (registered: %s); register it with RegisterWorkflow",
		name, listNames(r.workflows))
}

// Activity returns the activity registered under name, or the dynamic
// activity standing in for it.
func (r *Registry) Activity(name string) (*Func, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if f, ok := r.activities[name]; ok {
		return f, nil
	}
	if r.dynamicActivity.IsValid() {
		return &Func{Name: name, Fn: r.dynamicActivity, HasContext: true, Dynamic: true}, nil
	}
	return nil, fmt.Errorf("activity type %q is not registered with this worker (registered: %s); register it with RegisterActivity",
		name, listNames(r.activities))
}

// IsRegistered reports whether a workflow or activity function of that
// name is registered by name (dynamic functions aside): kind is
// "workflow" or "activity".
func (r *Registry) IsRegistered(kind, name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if kind == "workflow" {
		return r.workflows[name] != nil
	}
	return r.activities[name] != nil
}

// HasWorkflows and HasActivities report whether anything would run a
// workflow or activity task: a registration by name, or a dynamic one.
func (r *Registry) HasWorkflows() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.workflows) > 0 || r.dynamicWorkflow.IsValid()
}

func (r *Registry) HasActivities() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.activities) > 0 || r.dynamicActivity.IsValid()
}

// WorkflowNames and ActivityNames list what is registered, sorted.
func (r *Registry) WorkflowNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.workflows)
}

// ActivityNames lists the registered activity types, sorted.
func (r *Registry) ActivityNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return sortedKeys(r.activities)
}

func sortedKeys(m map[string]*Func) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func listNames(m map[string]*Func) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(sortedKeys(m), ", ")
}

func describeFunc(fn any) string {
	if name := FunctionName(fn); name != "" {
		return name
	}
	return fmt.Sprintf("%T", fn)
}

func checkWorkflowFunc(v reflect.Value) error {
	if v.Kind() != reflect.Func {
		return fmt.Errorf("want a function, got %s", v.Kind())
	}
	t := v.Type()
	if t.NumIn() < 1 || t.In(0) != workflowContextType {
		return fmt.Errorf("its first parameter must be workflow.Context, it is %s", firstParam(t))
	}
	return checkResults(t)
}

func checkActivityFunc(t reflect.Type) error {
	for i := 0; i < t.NumIn() && i < 2; i++ {
		if t.In(i) == workflowContextType {
			return fmt.Errorf("an activity takes context.Context, not workflow.Context")
		}
	}
	return checkResults(t)
}

func checkResults(t reflect.Type) error {
	switch {
	case t.NumOut() == 0 || t.NumOut() > 2:
		return fmt.Errorf("it must return (result, error) or error, it returns %d values", t.NumOut())
	case t.Out(t.NumOut()-1) != errorType:
		return fmt.Errorf("its last result must be error, it is %s", t.Out(t.NumOut()-1))
	case t.NumOut() == 2 && (t.Out(0).Kind() == reflect.Func || t.Out(0).Kind() == reflect.Chan):
		return fmt.Errorf("its result type %s cannot be serialized", t.Out(0))
	}
	return nil
}

func firstParam(t reflect.Type) string {
	if t.NumIn() == 0 {
		return "missing"
	}
	return t.In(0).String()
}
