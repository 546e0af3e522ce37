package parser

import "io"

// Head is the decoded start of an input (gzip and zstd unwrapped, as the
// Reader does), as long as the longest of the sniffs that tell what kind
// of file it is needs: an input's kind is asked of one head rather than
// of a decoding of its start per sniff. Each sniff looks at no more of
// it than its own length, so that it answers as on its own.
type Head []byte

// headLen is the longest of the sniffs' lengths.
const headLen = max(metricsSniffLen, auditSniffLen, klogSniffLen, libSniffLen, looksLikeLen)

// SniffHead reads the head of r, and returns a reader that gives all of
// r's bytes again.
func SniffHead(r io.Reader) (Head, io.Reader) {
	head, r := sniffHead(r, headLen)
	return Head(head), r
}

// upTo is the head's first n bytes, or all of it when it is shorter.
func (h Head) upTo(n int) []byte { return h[:min(len(h), n)] }

// Metrics is IsMetrics of the head.
func (h Head) Metrics() MetricsFormat { return IsMetrics(h.upTo(metricsSniffLen)) }

// Audit is IsAuditLog of the head.
func (h Head) Audit() bool { return IsAuditLog(h.upTo(auditSniffLen)) }

// Klog is IsKlog of the head.
func (h Head) Klog() bool { return IsKlog(h.upTo(klogSniffLen)) }

// LibLog is IsLibLog of the head.
func (h Head) LibLog() LibLogLibrary { return IsLibLog(h.upTo(libSniffLen)) }

// LooksLike is LooksLike of the head.
func (h Head) LooksLike() string { return LooksLike(h.upTo(looksLikeLen)) }
