package parser

import "fmt"

// Diagnostic is one problem found in the input. The reader records it and
// reads on from the next event it can find.
type Diagnostic struct {
	// Offset is the byte offset in the decompressed stream (raw file offset
	// for compression errors). For a problem inside a Content-Encoding-
	// encoded response body it is that of the piece of encoded bytes whose
	// decoding showed it, and Line that piece's line; Msg then tells where
	// in the decoded body.
	Offset int64
	Line   int            // 1-based line in the decompressed stream, 0 when unknown
	Kind   DiagnosticKind // short, stable identifier of the problem
	Msg    string         // plain message for a person
}

func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("offset %d (line %d): %s: %s", d.Offset, d.Line, d.Kind, d.Msg)
	}
	return fmt.Sprintf("offset %d: %s: %s", d.Offset, d.Kind, d.Msg)
}

// DiagnosticKind names the kind of a Diagnostic. Its text is part of the
// report's JSON contract (report/REPORT.md), so a kind's text never
// changes. The kinds the analysis adds are timeline's.
type DiagnosticKind string

// The kinds of problem the readers find.
const (
	// DiagTooMany stands for the problems past the list's bound: from it on
	// they are counted, not listed.
	DiagTooMany DiagnosticKind = "too-many"
	// DiagEmpty is an input with nothing to read: no event, line or record.
	DiagEmpty DiagnosticKind = "empty"
	// DiagUTF16 is input in UTF-16, read as UTF-8 (offsets count UTF-8 bytes).
	DiagUTF16 DiagnosticKind = "utf-16"
	// DiagUTF32 is input in UTF-32, read as UTF-8 (offsets count UTF-8 bytes).
	DiagUTF32 DiagnosticKind = "utf-32"
	// DiagBadCompression is a gzip or zstd file cut short or damaged.
	DiagBadCompression DiagnosticKind = "bad-compression"
	// DiagTooBig is data expanding beyond Options.MaxDecompressed (a
	// decompression bomb) or an export beyond the bytes kept.
	DiagTooBig DiagnosticKind = "too-big"
	// DiagTooManyEvents is where reading stopped because the analysis
	// keeps no more: its events, audit-logged requests or audit-log
	// clients (ReadAuditClients).
	DiagTooManyEvents DiagnosticKind = "too-many-events"
	// DiagTooLong is a log line longer than Options.MaxEventSize.
	DiagTooLong DiagnosticKind = "too-long"
	// DiagTruncated is input that ends inside a response body, a line or a
	// record.
	DiagTruncated DiagnosticKind = "truncated"

	// DiagBadChunk is a chunked response whose chunk size is wrong.
	DiagBadChunk DiagnosticKind = "bad-chunk"
	// DiagEncodedBody is a response body in a Content-Encoding not decoded.
	DiagEncodedBody DiagnosticKind = "encoded-body"
	// DiagBadEncoding is a Content-Encoding-encoded body that is damaged.
	DiagBadEncoding DiagnosticKind = "bad-encoding"
	// DiagBadTime is a time that does not read or lies out of range.
	DiagBadTime DiagnosticKind = "bad-time"

	// DiagBadJSON is bytes that are not the JSON expected.
	DiagBadJSON DiagnosticKind = "bad-json"
	// DiagCutEvent is an event that breaks off before it closes.
	DiagCutEvent DiagnosticKind = "cut-event"
	// DiagEventTooBig is an event larger than Options.MaxEventSize.
	DiagEventTooBig DiagnosticKind = "event-too-big"
	// DiagNestedArrays is arrays inside arrays where events saved as a
	// JSON array have one.
	DiagNestedArrays DiagnosticKind = "nested-arrays"
	// DiagNullObject is an event whose object is null.
	DiagNullObject DiagnosticKind = "null-object"
	// DiagNotObject is an event whose object is not a JSON object.
	DiagNotObject DiagnosticKind = "not-object"
	// DiagNoType is an event with an object but no type.
	DiagNoType DiagnosticKind = "no-type"
	// DiagNotEvent is a value that is neither a watch event nor a
	// Kubernetes object.
	DiagNotEvent DiagnosticKind = "not-event"
	// DiagBadType is an event of an unknown type.
	DiagBadType DiagnosticKind = "bad-type"
	// DiagNoObject is an event without an object.
	DiagNoObject DiagnosticKind = "no-object"
	// DiagBadRV is an event whose resourceVersion does not read; the event
	// is kept without one.
	DiagBadRV DiagnosticKind = "bad-rv"
	// DiagBadList is a list whose items are not an array or not valid JSON.
	DiagBadList DiagnosticKind = "bad-list"
	// DiagCutList is a list that ends before it closes.
	DiagCutList DiagnosticKind = "cut-list"
	// DiagBigList is a list larger than Options.MaxEventSize, read item by
	// item.
	DiagBigList DiagnosticKind = "big-list"
	// DiagBadListItem is a list item that is not an object or malformed.
	DiagBadListItem DiagnosticKind = "bad-list-item"
	// DiagBadProtobuf is a malformed protobuf event or object.
	DiagBadProtobuf DiagnosticKind = "bad-protobuf"
	// DiagResync is where reading goes on after a bad protobuf frame.
	DiagResync DiagnosticKind = "resync"

	// DiagNotKlog is a line that is neither klog nor a JSON log record.
	DiagNotKlog DiagnosticKind = "not-klog"
	// DiagBadHeader is a klog header that does not read.
	DiagBadHeader DiagnosticKind = "bad-header"
	// DiagNotLog is a JSON log record without a msg.
	DiagNotLog DiagnosticKind = "not-log"
	// DiagNoTime is a client library's log line without a time.
	DiagNoTime DiagnosticKind = "no-time"
	// DiagNoZone is a client library's log whose times name no zone.
	DiagNoZone DiagnosticKind = "no-zone"
	// DiagNotAudit is a JSON object that is not an audit event.
	DiagNotAudit DiagnosticKind = "not-audit"
	// DiagBadAudit is an audit record without an auditID or a
	// stageTimestamp.
	DiagBadAudit DiagnosticKind = "bad-audit"
	// DiagStageOrder is audit requests with a stage after their
	// ResponseComplete.
	DiagStageOrder DiagnosticKind = "stage-order"

	// DiagNotMetrics is input that is no Prometheus or Grafana export.
	DiagNotMetrics DiagnosticKind = "not-metrics"
	// DiagTooManyPoints is an export with more points than are kept.
	DiagTooManyPoints DiagnosticKind = "too-many-points"
	// DiagQueryFailed is a Prometheus answer whose query failed.
	DiagQueryFailed DiagnosticKind = "query-failed"
	// DiagNotSeries is a Prometheus answer whose result is not series.
	DiagNotSeries DiagnosticKind = "not-series"
	// DiagBadResult is a Prometheus answer without a result array.
	DiagBadResult DiagnosticKind = "bad-result"
	// DiagBadSeries is a Prometheus series without a metric or values.
	DiagBadSeries DiagnosticKind = "bad-series"
	// DiagBadPoint is a point whose time or value does not read.
	DiagBadPoint DiagnosticKind = "bad-point"
	// DiagHistogram is native histogram samples, which are not read.
	DiagHistogram DiagnosticKind = "histogram"
	// DiagBadSample is a text exposition line that is not a sample.
	DiagBadSample DiagnosticKind = "bad-sample"
	// DiagBadDate is a scrape's Date header that is not an HTTP date.
	DiagBadDate DiagnosticKind = "bad-date"
	// DiagNoDate is a scrape that says no instant.
	DiagNoDate DiagnosticKind = "no-date"
	// DiagBadCSV is a Grafana CSV panel or row that does not read.
	DiagBadCSV DiagnosticKind = "bad-csv"
	// DiagBadValue is a Grafana cell that is not a number.
	DiagBadValue DiagnosticKind = "bad-value"
	// DiagLocalTime is a Grafana export whose times have no zone.
	DiagLocalTime DiagnosticKind = "local-time"
	// DiagBadFrame is a Grafana data frame that does not read.
	DiagBadFrame DiagnosticKind = "bad-frame"
)
