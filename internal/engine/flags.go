package engine

import "slices"

// SDK flags switch behaviours that changed over the Go SDK's life. A flag
// is used for new work and recorded in WorkflowTaskCompleted's sdk_metadata,
// so that a replay (by this SDK or go.temporal.io/sdk) of that history takes
// the same branch. The numbers are go.temporal.io/sdk's.
const (
	FlagLimitChangeVersionSASize     uint32 = 1
	FlagChildWorkflowErrorExecution  uint32 = 2
	FlagProtocolMessageCommand       uint32 = 3
	FlagPriorityUpdateHandling       uint32 = 4
	FlagBlockedSelectorSignalReceive uint32 = 5
	// FlagCancelAwaitTimer: Await starts no timer when the condition
	// already holds and cancels the timer when it comes true.
	// go.temporal.io/sdk keeps it off by default: it is used only when
	// history says so (see FlagInHistory).
	FlagCancelAwaitTimer              uint32 = 6
	FlagMemoUserDCEncode              uint32 = 7
	FlagWorkflowNewChannelLostMessage uint32 = 8
	FlagOrderedChildCancel            uint32 = 9
)

// sdkFlags tracks which flags history says were in use, and which this run
// started using and must report with its next completion.
type sdkFlags struct {
	inHistory flagSet
	fresh     []uint32
}

// flagSet is a set of flags: a bit each for the flags under 64 (all that
// exist), a map for any other a newer SDK may write.
type flagSet struct {
	low  uint64
	high map[uint32]bool
}

func (s *flagSet) add(flag uint32) {
	if flag < 64 {
		s.low |= 1 << flag
		return
	}
	if s.high == nil {
		s.high = make(map[uint32]bool)
	}
	s.high[flag] = true
}

func (s *flagSet) has(flag uint32) bool {
	if flag < 64 {
		return s.low&(1<<flag) != 0
	}
	return s.high[flag]
}

func (f *sdkFlags) setFromHistory(flags []uint32) {
	for _, fl := range flags {
		f.inHistory.add(fl)
	}
}

// takeNew returns the flags first used since the last call and records
// them as in use.
func (f *sdkFlags) takeNew() []uint32 {
	fresh := f.fresh
	f.fresh = nil
	f.setFromHistory(fresh)
	return fresh
}

// TryUseFlag reports whether the behaviour behind flag applies: always when
// history says it was used; when replaying a task recorded without it,
// never; otherwise it is used from now on, if the server records flags.
func (x *Run) TryUseFlag(flag uint32) bool {
	if x.flags.inHistory.has(flag) {
		return true
	}
	for _, fl := range x.flags.fresh {
		if fl == flag {
			return true
		}
	}
	if x.replaying || !x.opts.SDKMetadataSupported {
		return false
	}
	x.flags.fresh = append(x.flags.fresh, flag)
	return true
}

// FlagInHistory reports whether history recorded flag, without starting
// to use it: for behaviours go.temporal.io/sdk keeps off by default.
func (x *Run) FlagInHistory(flag uint32) bool { return x.flags.inHistory.has(flag) }

// flagUsed reports whether the run uses flag, from history or from now,
// without starting to use it.
func (x *Run) flagUsed(flag uint32) bool {
	return x.flags.inHistory.has(flag) || slices.Contains(x.flags.fresh, flag)
}

// sdkRecorded is the SDK that, as far as the run knows, completed its last
// workflow task: the sdk_name and sdk_version of that task's
// WorkflowTaskCompleted, or those this worker reported since.
type sdkRecorded struct{ name, version string }

// SDKToReport returns what the completion of a live task reports of the
// SDK that completes it: its name and its version, each only when it
// differs from what the run's last completed task recorded (else empty),
// and takes them as recorded from then on. go.temporal.io/sdk reports them
// so: on a run's first task, and on the first live task after a replay
// whose last task another SDK or version completed, or recorded none.
func (x *Run) SDKToReport(name, version string) (newName, newVersion string) {
	if x.sdk.name != name {
		newName, x.sdk.name = name, name
	}
	if x.sdk.version != version {
		newVersion, x.sdk.version = version, version
	}
	return newName, newVersion
}
