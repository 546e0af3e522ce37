package parser

import (
	"bytes"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
)

// TestTransportErrorNotes: samples-outage's recorder notes each request
// the load balancer refused with a `# transport error: ...` line after
// it. Each is the request's outcome, not a body that fails to parse: the
// request's session keeps the note and has no status, and the capture
// has no diagnostic. Without the note read so, each was a bad-json
// problem (966 over the fleet).
func TestTransportErrorNotes(t *testing.T) {
	path := filepath.Join(testsample.Recording(t, "samples-outage"), "c000-bookmarks.ts.http")
	data := testsample.Read(t, path)
	want := bytes.Count(data, []byte("Z # transport error: "))
	if want == 0 {
		t.Fatalf("%s notes no transport error", path)
	}
	r := NewReader(bytes.NewReader(data), Options{})
	for r.Next() {
	}
	if d := r.Diagnostics(); len(d) > 0 {
		t.Errorf("diagnostics %+v, want none", d)
	}
	noted := 0
	for _, s := range r.Sessions() {
		if s.TransportError == "" {
			continue
		}
		noted++
		if s.Request == nil || s.HTTPStatus != 0 || s.Events != 0 {
			t.Errorf("session %d noted %q with request %v, status %d, %d events: want a request with no response", s.Index, s.TransportError, s.Request, s.HTTPStatus, s.Events)
		}
		if s.TransportError != "dial tcp 127.0.0.1:17600: connect: connection refused" && s.TransportError != "net/http: TLS handshake timeout" {
			t.Errorf("session %d noted %q", s.Index, s.TransportError)
		}
	}
	if noted != want {
		t.Errorf("%d sessions note a transport error, want the capture's %d", noted, want)
	}
}
