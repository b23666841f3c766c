package api

// Tested is declared by a test file, which is not the package's API.
type Tested struct{}
