package report

import (
	"bytes"
	"fmt"
	"slices"
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

// TestNeverSyncedRowSaysItsWholeReads: samples-watchlist's clients that
// never synced and did not ask for bookmarks made no relist, but each
// reconnect read their whole selection again, which their "had it not"
// counts: their row's relists cell says so, in the text and Markdown,
// for each of the 48.
func TestNeverSyncedRowSaysItsWholeReads(t *testing.T) {
	r := New(loadRecording(t, "samples-watchlist", "*.ts.http").Analyze(timeline.DefaultParams()), nil)
	var want []string
	for _, c := range r.Fleet.Rows {
		if c.NeverSynced && !c.Bookmarks && c.Without > len(c.Relists) {
			want = append(want, fmt.Sprintf("%d (and %d whole reads)", len(c.Relists), c.Without-len(c.Relists)))
		}
	}
	if len(want) != 48 {
		t.Fatalf("%d clients never synced without bookmarks and reread, want 48", len(want))
	}
	for _, md := range []bool{false, true} {
		var b bytes.Buffer
		if err := r.write(&b, md); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range slices.Compact(slices.Sorted(slices.Values(want))) {
			n += strings.Count(b.String(), w)
		}
		if n != len(want) {
			t.Errorf("md %v: %d rows say their whole reads, want %d", md, n, len(want))
		}
	}
}
