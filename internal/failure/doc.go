// Package failure holds the SDK's error types (application, canceled,
// timeout, panic, activity, child workflow ...) and their conversion to and
// from the wire's failure.v1.Failure. Package temporal exposes them.
package failure
