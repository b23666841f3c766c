// Package base holds the helpers that both the client and the workflow
// side of package internal use, and that need nothing of it: request and
// workflow IDs (NewUUID), memo encoding (EncodeMemo), and the refusal of
// negative options (NegativeOptions). It imports no other package of the
// SDK but converter.
package base
