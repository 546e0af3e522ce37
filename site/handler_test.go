package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlerHeaders: every response of `serve` carries nosniff and the
// policy that forbids framing (nosniff came with 404s alone), and no
// folder is listed (/web/ listed the assets and samples).
func TestHandlerHeaders(t *testing.T) {
	webDir := t.TempDir()
	writeFile(t, filepath.Join(webDir, "app.wasm"), "not really wasm")
	dir := t.TempDir()
	if _, err := Build(dir, "/", webDir, true); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for path, code := range map[string]int{
		"/": 200, "/index.html": 301, "/web/app.css": 200, "/web/app.wasm": 200, "/web/samples/MANIFEST.tsv": 200,
		"/web/": 404, "/web": 404, "/web/samples/": 404, "/nothing-here": 404,
	} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, code)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q", path, got)
		}
		if got := resp.Header.Get("Content-Security-Policy"); !strings.Contains(got, "frame-ancestors 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", path, got)
		}
		if strings.Contains(string(body), `<a href="samples/">`) || strings.Contains(string(body), `<a href="app.css">`) {
			t.Errorf("GET %s lists a folder:\n%.300s", path, body)
		}
	}
}
