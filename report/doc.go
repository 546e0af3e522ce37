// Package report is what the timeline knows, in the forms people and other
// tools read: the report that `watchlens analyze` prints and the page
// exports (its JSON form is a stable contract, documented in REPORT.md),
// as text, Markdown and JSON, the summary an engineer pastes into a
// postmortem, and the Perfetto trace. It reads the timeline's public API
// only. The types ending in Report are that contract's objects, each
// built from the model's value in one place (REPORT.md, "The Go types of
// the contract"), not copies of the model's types.
package report
