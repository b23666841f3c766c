package worker

import "github.com/durable-go/sdk/internal"

// PreferredVersionProvider chooses the version a workflow.GetVersion call
// records when a run reaches it for the first time
// (Options.PreferredVersionProvider). It is not called in replay, nor once
// the run recorded a version of the change; a nil answer records
// maxSupported, as without a provider.
//
// It runs in the workflow's code and may read a file or a flag service:
// the version it chooses is recorded in history, and replays without it. A
// panic of the provider fails the workflow task, which the server retries.
// A rollout that adds a GetVersion call can use it: answer
// workflow.DefaultVersion while workers of the old code still run, so
// that new runs take the path those workers can replay, then the new
// version once every worker runs the new code:
//
//	Options{PreferredVersionProvider: func(in worker.PreferredVersionProviderInput) *worker.VersionPreference {
//		if in.ChangeID == "charge-via-new-api" && !rolledOut() {
//			return &worker.VersionPreference{Version: workflow.DefaultVersion}
//		}
//		return nil
//	}}
type PreferredVersionProvider = internal.PreferredVersionProvider

// PreferredVersionProviderInput is what a PreferredVersionProvider is
// asked about.
//
//   - WorkflowInfo: the run that calls GetVersion.
//   - ChangeID: GetVersion's change ID.
//   - MinSupported, MaxSupported: the versions GetVersion's code supports.
type PreferredVersionProviderInput = internal.PreferredVersionProviderInput

// VersionPreference is a PreferredVersionProvider's answer.
//
//   - Version: the version to record. Outside [MinSupported,
//     MaxSupported] it fails the workflow task, unless
//     ClampToSupportedRange is set.
//   - ClampToSupportedRange: record the nearest supported version instead
//     of failing the workflow task when Version is out of range.
type VersionPreference = internal.VersionPreference
