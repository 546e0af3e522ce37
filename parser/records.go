package parser

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// What the readers of whole logs share (audit logs, client logs,
// Prometheus exports): a bounded list of diagnostics, the strings they
// intern, and how a read of lines ended.

// addDiagnostic appends d to list, up to maxDiagnostics: the last one
// kept says that more were not listed.
func addDiagnostic(list []Diagnostic, d Diagnostic) []Diagnostic {
	switch n := len(list); {
	case n < maxDiagnostics-1:
		return append(list, d)
	case n == maxDiagnostics-1:
		d.Kind = DiagTooMany
		d.Msg = fmt.Sprintf("more than %d problems: from here on they are no longer listed, but reading goes on", maxDiagnostics-1)
		return append(list, d)
	}
	return list
}

// interner keeps one copy of each string a log repeats (user agents,
// resources, label names).
type interner map[string]string

func (in interner) str(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// keep is str for s in bytes read into a buffer used again: the string
// kept is a copy.
func (in interner) keep(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	s = strings.Clone(s)
	in[s] = s
	return s
}

// linesEnd says how a read of lines from src ended: a diagnostic for a
// decompression that stopped (a bomb, a corrupt or truncated stream),
// or the source's read error, which the reader returns.
func linesEnd(cr *countingReader, src source, lines *lineReader, opts Options, diag func(Diagnostic)) error {
	switch err := lines.err; {
	case cr.err != nil:
		return cr.err
	case err == nil:
	case err == errTooBig:
		diag(Diagnostic{Offset: lines.base + int64(lines.end), Kind: DiagTooBig,
			Msg: fmt.Sprintf("the %s data expands beyond %d bytes (Options.MaxDecompressed), which looks like a decompression bomb; reading stopped there and only what came before was read", src.codec, opts.MaxDecompressed)})
	case src.codec != "":
		diag(*compressionDiag(cr, src.codec, err))
	default:
		return err
	}
	return nil
}

// readLogLines reads r (compressed or not) as lines of a log named what
// ("audit", "log"), handing each whole line to each: a line longer than
// Options.MaxEventSize is diagnosed and skipped. The error is the
// source's read error only.
func readLogLines(r io.Reader, opts Options, what string, diag func(Diagnostic), each func(line)) error {
	if opts.MaxDecompressed <= 0 {
		opts.MaxDecompressed = defaultMaxDecompressed
	}
	if opts.MaxEventSize <= 0 {
		opts.MaxEventSize = defaultMaxEventSize
	}
	cr := &countingReader{r: r}
	src, d := openSource(cr, opts.MaxDecompressed, false)
	if d != nil {
		diag(*d)
	}
	if src.wide != "" {
		diag(wideDiag(src.wide, "the "+what+" log"))
	}
	lines := newLineReader(src.r, opts.MaxEventSize)
	skipping := false // inside a line too long to keep
	for {
		ln, ok := lines.next()
		if !ok {
			break
		}
		if !ln.start || skipping {
			skipping = !bytes.HasSuffix(ln.b, []byte("\n"))
			continue
		}
		// A line comes in pieces of at most MaxEventSize: one that long
		// without its end is longer.
		if len(ln.b) > opts.MaxEventSize || len(ln.b) == opts.MaxEventSize && !bytes.HasSuffix(ln.b, []byte("\n")) {
			diag(Diagnostic{Offset: ln.raw, Line: ln.no, Kind: DiagTooLong,
				Msg: fmt.Sprintf("a line of the %s log longer than %d bytes (Options.MaxEventSize) is skipped", what, opts.MaxEventSize)})
			skipping = !bytes.HasSuffix(ln.b, []byte("\n"))
			continue
		}
		each(ln)
	}
	if src.close != nil {
		src.close()
	}
	return linesEnd(cr, src, lines, opts, diag)
}

// sniffHead reads the decoded start of r (gzip and zstd unwrapped, as the
// Reader does), at most n bytes, and returns it and a reader that gives
// all of r's bytes again.
func sniffHead(r io.Reader, n int) ([]byte, io.Reader) {
	var raw bytes.Buffer
	d := Decoded(io.TeeReader(r, &raw))
	head := make([]byte, n)
	k, _ := io.ReadFull(d, head)
	return head[:k], io.MultiReader(&raw, r)
}
