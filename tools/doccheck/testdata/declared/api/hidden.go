//go:build ignore

package api

// Stop is in a file the build ignores: the parser sees it, go doc does not.
func (o *Options) Stop() {}
