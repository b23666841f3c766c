//go:build race

package internal

const raceEnabled = true
