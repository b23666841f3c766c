package activity

import "github.com/durable-go/sdk/internal"

// RegisterOptions configure worker.Worker.RegisterActivityWithOptions.
//
//   - Name: the activity type to register under. Default: the function's
//     name (without its package). For a struct, whose exported methods are
//     each registered as an activity, Name is a prefix put before each
//     method's name.
//   - DisableAlreadyRegisteredCheck: register even when the name is
//     taken, replacing the earlier registration, instead of panicking.
//   - SkipInvalidStructFunctions: for a struct, skip exported methods that
//     cannot be activities (wrong parameters or results) instead of
//     panicking.
type RegisterOptions = internal.RegisterActivityOptions

// DynamicRegisterOptions configure
// worker.Worker.RegisterDynamicActivity. There are no options yet; the
// type exists so that options can be added without changing the method.
type DynamicRegisterOptions = internal.DynamicRegisterActivityOptions
