package engine

import "sync"

// Names keeps one copy of each name that the runs of a worker repeat:
// their task queue's and their workflow type's. Each run decodes its
// names from its first task, and a cached run that kept those strings
// would keep a copy of its own (with as many objects in the heap). Set
// Options.Names to share them. It is safe for concurrent use; a nil *Names
// keeps nothing.
type Names struct {
	mu    sync.RWMutex
	names map[string]string
}

// maxNames bounds what a Names keeps: past it, names are used as they
// come, so that a stream of distinct names (a workflow type per run)
// cannot grow it without end.
const maxNames = 1024

// Intern returns the copy of s that n keeps, keeping s if n has none.
func (n *Names) Intern(s string) string {
	if n == nil || s == "" {
		return s
	}
	n.mu.RLock()
	kept, ok := n.names[s]
	n.mu.RUnlock()
	if ok {
		return kept
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if kept, ok := n.names[s]; ok {
		return kept
	}
	if len(n.names) >= maxNames {
		return s
	}
	if n.names == nil {
		n.names = make(map[string]string)
	}
	n.names[s] = s
	return s
}

// sameString returns s, or the first of known that equals it, so that a
// run keeps one copy of a string its events repeat (the run ID as the
// original and the first run's ID).
func sameString(s string, known ...string) string {
	for _, k := range known {
		if k == s {
			return k
		}
	}
	return s
}

// SameString is sameString for package internal, which builds
// workflow.Info from the start event.
func SameString(s string, known ...string) string { return sameString(s, known...) }
