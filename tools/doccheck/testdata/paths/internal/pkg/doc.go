// Package pkg names its files bare: file.go, and its neighbours from the
// root: internal/pkg/file.go, scripts/test.sh. The expression a/b is no
// path; internal/pkg/renamed.go is a broken one.
//
//   - a list item naming scripts/listed-missing.sh is text,
//     and so is its next line: internal/pkg/continued-missing.go.
//
// Code blocks show output, which is not checked:
//
//	internal/pkg/output.go:12: something
package pkg
