// Package pkg is the in: package of the snippet check's test.
package pkg

import "fmt"

// Order is what the snippets work on.
type Order struct{ ID string }

// Describe is replaced by a snippet that declares its own.
func Describe(order Order) string { return fmt.Sprint(order.ID) }

// Ship uses Describe, so a replacement must keep its signature.
func Ship(order Order) string { return "shipped " + Describe(order) }
