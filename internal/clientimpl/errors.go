package clientimpl

import (
	"fmt"

	"go.temporal.io/api/serviceerror"
)

// wrapCallError says which call failed and on what. An error the server
// returned stays the typed serviceerror it is, unwrapped, as
// go.temporal.io/sdk returns it: ported code that type-asserts
// (err.(*serviceerror.NotFound)) must keep working. A nil err gives nil.
func wrapCallError(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	if _, fromServer := err.(serviceerror.ServiceError); fromServer {
		return err
	}
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
