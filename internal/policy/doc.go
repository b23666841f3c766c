// Package policy holds the retry policy, task priority and (deprecated)
// build-ID versioning intent types that package temporal exposes, and their
// conversion to and from the wire's common.v1 protos.
package policy
