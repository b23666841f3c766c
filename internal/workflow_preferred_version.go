package internal

import "fmt"

// PreferredVersionProvider chooses the version a GetVersion call records
// when a run reaches it for the first time (worker.PreferredVersionProvider,
// set in WorkerOptions.PreferredVersionProvider). It is not called in
// replay, nor once the run recorded a version of the change. Nil, or a nil
// answer, records maxSupported, as without a provider.
//
// It runs in the workflow's code, so it may read a file or a flag service:
// the version it chooses is recorded in history and replays without it. A
// panic of the provider fails the workflow task, which the server retries.
//
// A rollout that adds a GetVersion call can use it: while workers of the
// old code still run, answer DefaultVersion, so that the runs stay on the
// old path the old workers can replay; once all workers run the new code,
// answer the new version (or nil).
type PreferredVersionProvider func(PreferredVersionProviderInput) *VersionPreference

// PreferredVersionProviderInput is what a PreferredVersionProvider is
// asked about.
type PreferredVersionProviderInput struct {
	// WorkflowInfo describes the run that calls GetVersion.
	WorkflowInfo *WorkflowInfo
	// ChangeID is GetVersion's change ID.
	ChangeID string
	// MinSupported and MaxSupported are the versions GetVersion's code
	// supports.
	MinSupported Version
	// MaxSupported: see MinSupported.
	MaxSupported Version
}

// VersionPreference is a PreferredVersionProvider's answer.
type VersionPreference struct {
	// Version is the version to record. Outside GetVersion's range
	// [MinSupported, MaxSupported], it fails the workflow task, unless
	// ClampToSupportedRange is set.
	Version Version
	// ClampToSupportedRange records the nearest supported version instead
	// of failing the workflow task when Version is out of range.
	ClampToSupportedRange bool
}

// preferredVersion is the version a run records the first time it reaches
// GetVersion for in.ChangeID: provider's choice, or MaxSupported.
func preferredVersion(provider PreferredVersionProvider, in PreferredVersionProviderInput) Version {
	pref := provider(in)
	switch {
	case pref == nil:
		return in.MaxSupported
	case pref.Version >= in.MinSupported && pref.Version <= in.MaxSupported:
		return pref.Version
	case !pref.ClampToSupportedRange:
		panic(fmt.Errorf("GetVersion(%q): the worker's PreferredVersionProvider chose version %d, but the code supports only versions %d to %d; return a supported version, or set ClampToSupportedRange",
			in.ChangeID, pref.Version, in.MinSupported, in.MaxSupported))
	case pref.Version < in.MinSupported:
		return in.MinSupported
	default:
		return in.MaxSupported
	}
}
