package report

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/timeline"
)

// TestUnstampedClientGo: samples-outage's clients send client-go's
// default User-Agent of a build with no version stamp
// ("fleet/v0.0.0 (linux/amd64) kubernetes/$Format"). The text's and the
// Markdown's fleet tables name their library in words, not as a release
// v0.0.0, and the JSON keeps the version the User-Agent gives.
func TestUnstampedClientGo(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "*.ts.http").Analyze(timeline.DefaultParams()), nil)
	unstamped := 0
	for _, c := range r.Fleet.Rows {
		if c.Library == "client-go" && c.LibraryVersion == "v0.0.0" {
			unstamped++
		}
	}
	if unstamped == 0 {
		t.Fatal("no client of samples-outage has client-go's unstamped User-Agent")
	}
	for _, md := range []bool{false, true} {
		var b bytes.Buffer
		if err := r.write(&b, md); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "client-go, version not stamped"); n != unstamped || strings.Contains(b.String(), "client-go v0.0.0") {
			t.Errorf("md %v: the report names %d clients' library \"client-go, version not stamped\", want %d, and none \"client-go v0.0.0\"", md, n, unstamped)
		}
	}
}
