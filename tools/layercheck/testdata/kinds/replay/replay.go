// Package replay is a library that imports test machinery.
package replay

import "example.com/kinds/kit"

// Main replays.
func Main() { kit.Check() }
