// Package historyfuzz damages workflow histories for the fuzz targets of
// the engine, the replayer and the worker: it turns a fuzz input into
// edits of a recorded history (events dropped, duplicated, reordered,
// renumbered, retyped, stripped of attributes or fields, their payloads
// corrupted, history cut short), and checks what every target promises
// whatever the damage: it ends in bounded time, in a result or an error
// that names its event, leaving no goroutine behind.
//
// It is used by tests only.
package historyfuzz
