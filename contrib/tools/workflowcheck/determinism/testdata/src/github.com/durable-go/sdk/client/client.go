// Package client stands in for the SDK's client package in the analyzer's
// tests.
package client

type Client interface{ Close() }

func Dial() (Client, error) { return nil, nil }
