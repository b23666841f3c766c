// Package api is the API.
package api

// Do does.
func Do() {}
