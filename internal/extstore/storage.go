package extstore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/proxy"
	"google.golang.org/protobuf/proto"
)

// Defaults of ExternalStorage's zero fields, go.temporal.io/sdk's.
const (
	DefaultPayloadSizeThreshold    = 256 * 1024
	DefaultMaxDriverOperations     = 64
	DefaultMaxOperationsPerMessage = 8
)

// Storage stores and retrieves the payloads of whole messages, as one
// ExternalStorage configures it. A nil *Storage does nothing.
type Storage struct {
	drivers    map[string]StorageDriver
	selector   StorageDriverSelector
	threshold  int
	perMessage int
	// operations holds a token for each driver operation running, of all
	// messages.
	operations chan struct{}
}

// New checks opts and returns the storage they configure, or nil when
// they name no driver.
func New(opts ExternalStorage) (*Storage, error) {
	if opts.PayloadSizeThreshold < 0 {
		return nil, fmt.Errorf("ExternalStorage.PayloadSizeThreshold is %d: it must not be negative (0 is the default, %d bytes)", opts.PayloadSizeThreshold, DefaultPayloadSizeThreshold)
	}
	if opts.Concurrency.MaxDriverOperations < 0 || opts.Concurrency.MaxOperationsPerMessage < 0 {
		return nil, fmt.Errorf("ExternalStorage.Concurrency: MaxDriverOperations (%d) and MaxOperationsPerMessage (%d) must not be negative (0 is the default)",
			opts.Concurrency.MaxDriverOperations, opts.Concurrency.MaxOperationsPerMessage)
	}
	if len(opts.Drivers) == 0 {
		if opts.DriverSelector != nil {
			return nil, errors.New("ExternalStorage.DriverSelector is set but Drivers is empty: list every driver the selector may return in Drivers")
		}
		return nil, nil
	}
	s := &Storage{
		drivers:    make(map[string]StorageDriver, len(opts.Drivers)),
		selector:   opts.DriverSelector,
		threshold:  positiveOr(opts.PayloadSizeThreshold, DefaultPayloadSizeThreshold),
		perMessage: positiveOr(opts.Concurrency.MaxOperationsPerMessage, DefaultMaxOperationsPerMessage),
		operations: make(chan struct{}, positiveOr(opts.Concurrency.MaxDriverOperations, DefaultMaxDriverOperations)),
	}
	for i, d := range opts.Drivers {
		if d == nil {
			return nil, fmt.Errorf("ExternalStorage.Drivers[%d] is nil", i)
		}
		if _, dup := s.drivers[d.Name()]; dup {
			return nil, fmt.Errorf("ExternalStorage.Drivers: two drivers are named %q: each needs its own name, which its references record", d.Name())
		}
		s.drivers[d.Name()] = d
	}
	if s.selector == nil {
		if len(opts.Drivers) > 1 {
			return nil, errors.New("ExternalStorage: with more than one driver, DriverSelector must say which stores each payload")
		}
		s.selector = onlyDriver{opts.Drivers[0]}
	}
	return s, nil
}

func positiveOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// onlyDriver is the selector of a storage with one driver.
type onlyDriver struct{ driver StorageDriver }

func (o onlyDriver) SelectDriver(StorageDriverSelectContext, *commonpb.Payload) (StorageDriver, error) {
	return o.driver, nil
}

// WithOwnLimit returns s with a MaxDriverOperations limit of its own, of
// the same size: a worker's, as go.temporal.io/sdk gives each worker
// one apart from its client's.
func (s *Storage) WithOwnLimit() *Storage {
	if s == nil {
		return nil
	}
	own := *s
	own.operations = make(chan struct{}, cap(s.operations))
	return &own
}

// Threshold is the size from which a payload is stored outside.
func (s *Storage) Threshold() int { return s.threshold }

type targetKey struct{}

// WithTarget returns ctx naming the workflow or activity that the payloads
// of the request sent with it are stored for, where the request does not
// name it itself (a task's completion, which carries a task token).
func WithTarget(ctx context.Context, target StorageDriverTargetInfo) context.Context {
	return context.WithValue(ctx, targetKey{}, target)
}

// Store replaces, in msg, each payload at least the threshold long that
// the selector gives a driver by a reference to where that driver stored
// it. The payloads are stored for the target of ctx (WithTarget), or else
// the one msg names; a child workflow's start and a signal to another
// workflow, in a workflow task's commands, store for that workflow.
func (s *Storage) Store(ctx context.Context, msg proto.Message) error {
	if s == nil || proto.Size(msg) < s.threshold {
		return nil
	}
	target, _ := ctx.Value(targetKey{}).(StorageDriverTargetInfo)
	if target == nil {
		target = targetOf(msg)
	}
	ctx = context.WithValue(WithTarget(ctx, target), messageKey{}, make(chan struct{}, s.perMessage))
	return proxy.VisitPayloads(ctx, msg, proxy.VisitPayloadsOptions{
		Visitor:              s.storeGroup,
		SkipSearchAttributes: true,
		ContextHook:          commandTarget,
		ConcurrencyLimit:     s.perMessage,
	})
}

// Retrieve replaces, in msg, each reference by the payload its driver
// retrieves.
func (s *Storage) Retrieve(ctx context.Context, msg proto.Message) error {
	if s == nil {
		return nil
	}
	ctx = context.WithValue(ctx, messageKey{}, make(chan struct{}, s.perMessage))
	return proxy.VisitPayloads(ctx, msg, proxy.VisitPayloadsOptions{
		Visitor:              s.retrieveGroup,
		SkipSearchAttributes: true,
		ConcurrencyLimit:     s.perMessage,
	})
}

// StorePayloads stores, as Store does in a message, the payloads of one
// group that reach the threshold, for no target; a nil storage returns
// them as they are.
func (s *Storage) StorePayloads(ctx context.Context, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if s == nil || len(payloads) == 0 {
		return payloads, nil
	}
	ctx = context.WithValue(ctx, messageKey{}, make(chan struct{}, s.perMessage))
	return s.storeGroup(&proxy.VisitPayloadsContext{Context: ctx}, payloads)
}

// RetrievePayloads replaces the references among payloads by what they
// stand for; a nil storage refuses references, saying which driver they
// need.
func (s *Storage) RetrievePayloads(ctx context.Context, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if s == nil {
		for _, p := range payloads {
			if IsReference(p) {
				return nil, MissingStorage(p)
			}
		}
		return payloads, nil
	}
	if len(payloads) == 0 {
		return payloads, nil
	}
	ctx = context.WithValue(ctx, messageKey{}, make(chan struct{}, s.perMessage))
	return s.retrieveGroup(&proxy.VisitPayloadsContext{Context: ctx}, payloads)
}

// messageKey holds the tokens of one message's driver operations.
type messageKey struct{}

// batch is the payloads, or the claims, of one group that go to one
// driver, with their places in the group.
type batch[T any] struct {
	driver StorageDriver
	at     []int
	items  []T
}

// byDriver collects a group's items by driver, in the order drivers are
// first met.
type byDriver[T any] []*batch[T]

func (b *byDriver[T]) add(d StorageDriver, at int, item T) {
	for _, x := range *b {
		if x.driver.Name() == d.Name() {
			x.at, x.items = append(x.at, at), append(x.items, item)
			return
		}
	}
	*b = append(*b, &batch[T]{driver: d, at: []int{at}, items: []T{item}})
}

// each runs fn on every batch, concurrently when there are several, and
// returns the first error.
func (b byDriver[T]) each(fn func(*batch[T]) error) error {
	if len(b) == 1 {
		return fn(b[0])
	}
	errs := make([]error, len(b))
	var wg sync.WaitGroup
	for i, x := range b {
		wg.Go(func() { errs[i] = fn(x) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (s *Storage) storeGroup(vc *proxy.VisitPayloadsContext, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	target, _ := vc.Value(targetKey{}).(StorageDriverTargetInfo)
	var batches byDriver[*commonpb.Payload]
	for i, p := range payloads {
		if sizeOf(p) < s.threshold || IsReference(p) {
			continue
		}
		d, err := s.selectDriver(StorageDriverSelectContext{Context: vc.Context, Target: target}, p)
		if err != nil {
			return nil, err
		}
		if d != nil {
			batches.add(d, i, p)
		}
	}
	if len(batches) == 0 {
		return payloads, nil
	}
	out := append([]*commonpb.Payload(nil), payloads...)
	err := batches.each(func(b *batch[*commonpb.Payload]) error {
		limiter := s.limiter(vc.Context)
		claims, err := callStore(b.driver, StorageDriverStoreContext{Context: vc.Context, Target: target, Limiter: limiterOf[*commonpb.Payload]{limiter}}, b.items)
		if err != nil {
			return fmt.Errorf("external storage: driver %q (type %q) could not store %d payload(s): %w", b.driver.Name(), b.driver.Type(), len(b.items), err)
		}
		if len(claims) != len(b.items) {
			return fmt.Errorf("external storage: driver %q (type %q) returned %d claims for %d payloads", b.driver.Name(), b.driver.Type(), len(claims), len(b.items))
		}
		for j, claim := range claims {
			ref, err := newReference(b.driver.Name(), claim, b.items[j].Size())
			if err != nil {
				return err
			}
			out[b.at[j]] = ref
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Storage) selectDriver(ctx StorageDriverSelectContext, p *commonpb.Payload) (d StorageDriver, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("external storage: the driver selector panicked: %v", r)
		}
	}()
	d, err = s.selector.SelectDriver(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("external storage: the driver selector failed: %w", err)
	}
	if d == nil {
		return nil, nil
	}
	if registered, ok := s.drivers[d.Name()]; !ok || !sameDriver(registered, d) {
		return nil, fmt.Errorf("external storage: the driver selector returned driver %q, which is not one of ExternalStorage.Drivers", d.Name())
	}
	return d, nil
}

// sameDriver compares drivers by identity where their type allows it,
// by name otherwise.
func sameDriver(a, b StorageDriver) (same bool) {
	defer func() {
		if recover() != nil {
			same = a.Name() == b.Name()
		}
	}()
	return a == b
}

func (s *Storage) retrieveGroup(vc *proxy.VisitPayloadsContext, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	var batches byDriver[StorageDriverClaim]
	for i, p := range payloads {
		if !IsReference(p) {
			continue
		}
		name, claim, err := readReference(p)
		if err != nil {
			return nil, err
		}
		d, ok := s.drivers[name]
		if !ok {
			return nil, missingDriver(name, s)
		}
		batches.add(d, i, claim)
	}
	if len(batches) == 0 {
		return payloads, nil
	}
	out := append([]*commonpb.Payload(nil), payloads...)
	// A driver finds a payload by its claim alone: the reader's context
	// gives it nothing more than cancellation.
	err := batches.each(func(b *batch[StorageDriverClaim]) error {
		limiter := s.limiter(vc.Context)
		got, err := callRetrieve(b.driver, StorageDriverRetrieveContext{Context: vc.Context, Limiter: limiterOf[StorageDriverClaim]{limiter}}, b.items)
		if err != nil {
			return fmt.Errorf("external storage: driver %q (type %q) could not retrieve %d payload(s): %w", b.driver.Name(), b.driver.Type(), len(b.items), err)
		}
		if len(got) != len(b.items) {
			return fmt.Errorf("external storage: driver %q (type %q) returned %d payloads for %d claims", b.driver.Name(), b.driver.Type(), len(got), len(b.items))
		}
		for j, p := range got {
			if p == nil {
				return fmt.Errorf("external storage: driver %q (type %q) returned no payload for claim %v", b.driver.Name(), b.driver.Type(), b.items[j].ClaimData)
			}
			out[b.at[j]] = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MissingDriverError is the error of a reference whose driver the reader
// does not have.
type MissingDriverError struct {
	// Driver is the name the reference records.
	Driver string
	// Configured are the names of the reader's drivers.
	Configured []string
}

func (e *MissingDriverError) Error() string {
	if len(e.Configured) == 0 {
		return fmt.Sprintf("[TMPRL1105] a payload is stored externally by storage driver %q, but no storage driver is configured: set client.Options.ExternalStorage (worker.WorkflowReplayerOptions.ExternalStorage for a replayer) with a driver named %q of the type that stored it", e.Driver, e.Driver)
	}
	return fmt.Sprintf("a payload is stored externally by storage driver %q, which is not one of ExternalStorage.Drivers (%q): add a driver named %q of the type that stored it", e.Driver, e.Configured, e.Driver)
}

func missingDriver(name string, s *Storage) error {
	e := &MissingDriverError{Driver: name}
	if s != nil {
		for n := range s.drivers {
			e.Configured = append(e.Configured, n)
		}
	}
	return e
}

// MissingStorage is the error of a reference read with no storage
// configured at all, for a reader that checks a payload (p) itself.
func MissingStorage(p *commonpb.Payload) error {
	name, _, err := readReference(p)
	if err != nil {
		return err
	}
	return missingDriver(name, nil)
}

func callStore(d StorageDriver, ctx StorageDriverStoreContext, payloads []*commonpb.Payload) (claims []StorageDriverClaim, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return d.Store(ctx, payloads)
}

func callRetrieve(d StorageDriver, ctx StorageDriverRetrieveContext, claims []StorageDriverClaim) (payloads []*commonpb.Payload, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return d.Retrieve(ctx, claims)
}

// targetOf is the workflow a request names, or nil.
func targetOf(msg proto.Message) StorageDriverTargetInfo {
	r, ok := msg.(interface{ GetNamespace() string })
	if !ok {
		return nil
	}
	if m, ok := msg.(interface {
		GetActivityId() string
		GetActivityType() *commonpb.ActivityType
	}); ok && m.GetActivityId() != "" {
		info := StorageDriverActivityInfo{Namespace: r.GetNamespace(), ActivityType: m.GetActivityType().GetName(), ActivityID: m.GetActivityId()}
		if m, ok := msg.(interface{ GetRunId() string }); ok {
			info.RunID = m.GetRunId()
		}
		return info
	}
	info := StorageDriverWorkflowInfo{Namespace: r.GetNamespace()}
	if m, ok := msg.(interface{ GetWorkflowId() string }); ok {
		info.WorkflowID = m.GetWorkflowId()
	}
	if m, ok := msg.(interface {
		GetWorkflowExecution() *commonpb.WorkflowExecution
	}); ok {
		info.WorkflowID, info.RunID = m.GetWorkflowExecution().GetWorkflowId(), m.GetWorkflowExecution().GetRunId()
	}
	if m, ok := msg.(interface {
		GetExecution() *commonpb.WorkflowExecution
	}); ok {
		info.WorkflowID, info.RunID = m.GetExecution().GetWorkflowId(), m.GetExecution().GetRunId()
	}
	if m, ok := msg.(interface{ GetRunId() string }); ok && info.RunID == "" {
		info.RunID = m.GetRunId()
	}
	if m, ok := msg.(interface {
		GetWorkflowType() *commonpb.WorkflowType
	}); ok {
		info.WorkflowType = m.GetWorkflowType().GetName()
	}
	if info.WorkflowID == "" {
		return nil
	}
	return info
}

// commandTarget gives a workflow task's command that starts or signals
// another workflow that workflow as its payloads' target.
func commandTarget(ctx context.Context, msg proto.Message) (context.Context, error) {
	outer, _ := ctx.Value(targetKey{}).(StorageDriverWorkflowInfo)
	switch a := msg.(type) {
	case *commandpb.StartChildWorkflowExecutionCommandAttributes:
		return WithTarget(ctx, StorageDriverWorkflowInfo{Namespace: outer.Namespace,
			WorkflowType: a.GetWorkflowType().GetName(), WorkflowID: a.GetWorkflowId()}), nil
	case *commandpb.SignalExternalWorkflowExecutionCommandAttributes:
		return WithTarget(ctx, StorageDriverWorkflowInfo{Namespace: outer.Namespace,
			WorkflowID: a.GetExecution().GetWorkflowId(), RunID: a.GetExecution().GetRunId()}), nil
	}
	return ctx, nil
}
