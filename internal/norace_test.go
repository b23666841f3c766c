//go:build !race

package internal

// raceEnabled: the tests run with the race detector.
const raceEnabled = false
