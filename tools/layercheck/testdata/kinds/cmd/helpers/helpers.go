// Package helpers is a library in the program row.
package helpers

// Name is something a user's code could import.
const Name = "helpers"
