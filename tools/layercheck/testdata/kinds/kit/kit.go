// Package kit is test machinery.
package kit

import "example.com/kinds/api"

// Check checks.
func Check() { api.Do() }
