package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/internal/commands"
)

// Marker names and detail keys, as go.temporal.io/sdk writes them, so that
// histories replay across the two SDKs.
const (
	MarkerSideEffect        = "SideEffect"
	MarkerVersion           = "Version"
	MarkerLocalActivity     = "LocalActivity"
	MarkerMutableSideEffect = "MutableSideEffect"

	detailSideEffectID       = "side-effect-id"
	detailData               = "data"
	detailChangeID           = "change-id"
	detailVersion            = "version"
	detailVersionSAUpdated   = "version-search-attribute-updated"
	detailMutableCallCounter = "mutable-side-effect-call-counter"

	// ChangeVersionSearchAttribute lists a run's GetVersion choices.
	ChangeVersionSearchAttribute = "TemporalChangeVersion"
	// changeVersionSizeLimit: larger values are not upserted, as the server
	// would refuse them.
	changeVersionSizeLimit = 2048
	// DefaultVersion is GetVersion's answer for code that ran before the
	// change existed.
	DefaultVersion = -1
)

// markerState is what markers in history told the run, and the counters
// that name side effects. Its maps are made when first written: most runs
// never need them, and a cached run keeps them for its whole life.
type markerState struct {
	sideEffectSeq int64
	sideEffects   map[int64]*commonpb.Payloads // recorded results not yet consumed
	versions      map[string]int               // change ID -> chosen version

	mutableCalls    map[string]int                        // calls per ID so far
	mutableValues   map[string]map[int]*commonpb.Payloads // ID -> call count -> value
	mutableRecorded map[string]bool                       // "ID_seq" recorded in history

}

// put sets m[k] = v, making the map first if it is nil.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = v
}

// skipsMatching reports marker events that replay does not match to
// commands (version and mutable side effect markers).
func (x *Run) skipsMatching(ev *historypb.HistoryEvent) bool {
	name := ev.GetMarkerRecordedEventAttributes().GetMarkerName()
	x.afterVersionMarker = name == MarkerVersion
	return name == MarkerVersion || name == MarkerMutableSideEffect
}

// isChangeVersionUpsert reports the search attribute upsert that follows a
// version marker; it is skipped like the marker.
func (x *Run) isChangeVersionUpsert(ev *historypb.HistoryEvent) bool {
	after := x.afterVersionMarker
	x.afterVersionMarker = false
	_, ok := ev.GetUpsertWorkflowSearchAttributesEventAttributes().GetSearchAttributes().GetIndexedFields()[ChangeVersionSearchAttribute]
	return after && ok
}

// preload reads a marker that the task being replayed recorded.
func (m *markerState) preload(x *Run, ev *historypb.HistoryEvent) error {
	a := ev.GetMarkerRecordedEventAttributes()
	d := a.GetDetails()
	dc := x.dc
	need := func(key string) (*commonpb.Payloads, error) {
		p, ok := d[key]
		if !ok {
			return nil, fmt.Errorf("%s marker at event %d lacks the %q detail", a.GetMarkerName(), ev.GetEventId(), key)
		}
		return p, nil
	}
	decode := func(key string, into ...any) error {
		p, err := need(key)
		if err != nil {
			return err
		}
		if err := dc.FromPayloads(p, into...); err != nil {
			return fmt.Errorf("%s marker at event %d: decoding %q: %w", a.GetMarkerName(), ev.GetEventId(), key, err)
		}
		return nil
	}
	switch a.GetMarkerName() {
	case MarkerSideEffect:
		var id int64
		if err := decode(detailSideEffectID, &id); err != nil {
			return err
		}
		data, err := need(detailData)
		if err != nil {
			return err
		}
		put(&m.sideEffects, id, data)
	case MarkerVersion:
		var changeID string
		var version int
		if err := decode(detailChangeID, &changeID); err != nil {
			return err
		}
		if err := decode(detailVersion, &version); err != nil {
			return err
		}
		upserted := true // markers written before the key existed always upserted
		if _, ok := d[detailVersionSAUpdated]; ok {
			if err := decode(detailVersionSAUpdated, &upserted); err != nil {
				return err
			}
		}
		put(&m.versions, changeID, version)
		x.book.ExpectVersionMarker(ev.GetEventId(), upserted)
	case MarkerMutableSideEffect:
		var idWithSeq, id string
		var value commonpb.Payloads
		if err := decode(detailSideEffectID, &idWithSeq); err != nil {
			return err
		}
		if err := decode(detailData, &id, &value); err != nil {
			return err
		}
		call := m.mutableCalls[id] // old markers carry no call count
		if _, ok := d[detailMutableCallCounter]; ok {
			if err := decode(detailMutableCallCounter, &call); err != nil {
				return err
			}
		}
		m.putMutable(id, call, &value)
		put(&m.mutableRecorded, idWithSeq, true)
	}
	return nil
}

// mustEncode encodes marker details; the values are the engine's own
// (numbers, strings, payloads), so failure is a broken converter.
func (x *Run) mustEncode(values ...any) *commonpb.Payloads {
	p, err := x.dc.ToPayloads(values...)
	if err != nil {
		panic(fmt.Errorf("the data converter cannot encode marker details %v: %w", values, err))
	}
	return p
}

func markerCommand(name string, details map[string]*commonpb.Payloads) *commandpb.Command {
	return &commandpb.Command{
		CommandType: enumspb.COMMAND_TYPE_RECORD_MARKER,
		Attributes: &commandpb.Command_RecordMarkerCommandAttributes{RecordMarkerCommandAttributes: &commandpb.RecordMarkerCommandAttributes{
			MarkerName: name, Details: details,
		}},
	}
}

// SideEffect runs f once, the first time the code reaches it, records its
// result in history, and returns the recorded result on every replay.
func (x *Run) SideEffect(f func() (*commonpb.Payloads, error)) (*commonpb.Payloads, error) {
	m := &x.use().markers
	m.sideEffectSeq++
	id := m.sideEffectSeq
	var result *commonpb.Payloads
	if x.replaying {
		r, ok := m.sideEffects[id]
		if !ok {
			panic(x.located(&commands.NondeterminismError{Reason: fmt.Sprintf(
				"the workflow code called SideEffect (its call number %d), but history recorded no SideEffect marker for it in this workflow task (recorded: %v)",
				id, slices.Sorted(maps.Keys(m.sideEffects)))}))
		}
		delete(m.sideEffects, id)
		result = r
	} else {
		r, err := f()
		if err != nil {
			return nil, err
		}
		result = r
	}
	x.book.RecordMarker(&commandpb.RecordMarkerCommandAttributes{
		MarkerName: MarkerSideEffect,
		Details:    map[string]*commonpb.Payloads{detailSideEffectID: x.mustEncode(id), detailData: result},
	}, nil)
	return result, nil
}

// GetVersion returns the version of changeID this run uses: the one
// history recorded, DefaultVersion when replaying code that ran before the
// change, or maxSupported (recorded now) the first time.
func (x *Run) GetVersion(changeID string, minSupported, maxSupported int) int {
	return x.GetVersionPreferring(changeID, minSupported, maxSupported, nil)
}

// GetVersionPreferring is GetVersion that, the first time (not in replay),
// records the version prefer chooses instead of maxSupported (nil prefer:
// maxSupported).
func (x *Run) GetVersionPreferring(changeID string, minSupported, maxSupported int, prefer func() int) int {
	m := &x.use().markers
	version, known := m.versions[changeID]
	if !known {
		switch {
		case x.replaying:
			version = DefaultVersion
		case prefer != nil:
			version = prefer()
			x.recordVersion(changeID, version)
		default:
			version = maxSupported
			x.recordVersion(changeID, version)
		}
	}
	if version < minSupported {
		panic(x.located(&commands.NondeterminismError{Reason: fmt.Sprintf(
			"GetVersion(%q): history recorded version %d, but the code supports only versions %d to %d; keep support for version %d while runs that used it may replay",
			changeID, version, minSupported, maxSupported, version)}))
	}
	if version > maxSupported {
		panic(x.located(&commands.NondeterminismError{Reason: fmt.Sprintf(
			"GetVersion(%q): history recorded version %d, but the code supports only versions %d to %d: this worker runs code older than the code that wrote the history",
			changeID, version, minSupported, maxSupported)}))
	}
	put(&m.versions, changeID, version)
	return version
}

func (x *Run) recordVersion(changeID string, version int) {
	m := &x.use().markers
	list := []string{changeID + "-" + strconv.Itoa(version)}
	for _, id := range slices.Sorted(maps.Keys(m.versions)) {
		list = append(list, id+"-"+strconv.Itoa(m.versions[id]))
	}
	data, _ := json.Marshal(list) // a []string always encodes
	upsert := !(x.TryUseFlag(FlagLimitChangeVersionSASize) && len(data) >= changeVersionSizeLimit)
	details := map[string]*commonpb.Payloads{
		detailChangeID: x.mustEncode(changeID),
		detailVersion:  x.mustEncode(version),
	}
	if !upsert {
		details[detailVersionSAUpdated] = x.mustEncode(false)
		if x.opts.Logger != nil {
			x.opts.Logger.Warn("not recording the change version in the "+ChangeVersionSearchAttribute+" search attribute: it would exceed the size limit",
				"ChangeID", changeID, "Version", version)
		}
	}
	x.book.RecordUnmatched(markerCommand(MarkerVersion, details))
	if upsert {
		x.book.RecordUnmatched(&commandpb.Command{
			CommandType: enumspb.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
			Attributes: &commandpb.Command_UpsertWorkflowSearchAttributesCommandAttributes{UpsertWorkflowSearchAttributesCommandAttributes: &commandpb.UpsertWorkflowSearchAttributesCommandAttributes{
				SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
					ChangeVersionSearchAttribute: {Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: data},
				}},
			}},
		})
	}
}

// MutableSideEffect returns the value recorded for id, re-evaluating f on
// first execution and recording a new value whenever equal says it changed.
func (x *Run) MutableSideEffect(id string, f func() (*commonpb.Payloads, error), equal func(old *commonpb.Payloads) bool) (*commonpb.Payloads, error) {
	m := &x.use().markers
	call := m.mutableCalls[id] + 1
	put(&m.mutableCalls, id, call)
	if old := m.mutableLatest(id, call); old != nil {
		if x.replaying {
			if m.mutableRecorded[id+"_"+strconv.FormatInt(x.book.NextSeq(), 10)] {
				return x.recordMutable(id, call, old), nil
			}
			return old, nil
		}
		if equal(old) {
			return old, nil
		}
	} else if x.replaying {
		panic(x.located(&commands.NondeterminismError{Reason: fmt.Sprintf(
			"the workflow code called MutableSideEffect(%q), but history recorded no MutableSideEffect marker for it", id)}))
	}
	value, err := f()
	if err != nil {
		return nil, err
	}
	return x.recordMutable(id, call, value), nil
}

// mutableLatest is the value recorded for id at or before call, dropping
// older values that can no longer be asked for.
func (m *markerState) mutableLatest(id string, call int) *commonpb.Payloads {
	byCall := m.mutableValues[id]
	best := -1
	for c := range byCall {
		if c <= call && c > best {
			best = c
		}
	}
	if best < 0 {
		return nil
	}
	for c := range byCall {
		if c < best {
			delete(byCall, c)
		}
	}
	return byCall[best]
}

func (x *Run) recordMutable(id string, call int, value *commonpb.Payloads) *commonpb.Payloads {
	idWithSeq := id + "_" + strconv.FormatInt(x.book.NextSeq(), 10)
	x.book.RecordUnmatched(markerCommand(MarkerMutableSideEffect, map[string]*commonpb.Payloads{
		detailSideEffectID:       x.mustEncode(idWithSeq),
		detailData:               x.mustEncode(id, value),
		detailMutableCallCounter: x.mustEncode(call),
	}))
	x.use().markers.putMutable(id, call, value)
	return value
}

// putMutable keeps the value a mutable side effect had at a call.
func (m *markerState) putMutable(id string, call int, value *commonpb.Payloads) {
	if m.mutableValues[id] == nil {
		put(&m.mutableValues, id, make(map[int]*commonpb.Payloads))
	}
	m.mutableValues[id][call] = value
}
