package timeline

import (
	"strings"
	"testing"
)

// outageDefaultUA is the User-Agent client-go sends for samples-outage's
// 20 "-defua" clients (its README): rest.DefaultKubernetesUserAgent() of
// the program "fleet", whose build carries no version stamp.
const outageDefaultUA = "fleet/v0.0.0 (linux/amd64) kubernetes/$Format"

// TestAuditProfiles: from samples-outage's audit logs alone, each
// client's profile is read from its requests' userAgent: those that send
// client-go's default are client-go of a build with no version stamp
// (v0.0.0) in "fleet", as many clients as
// the recording has (20), each its own row; the servers' own loopback
// clients are client-go in kube-apiserver; the rest ("fleet-c000/1.0",
// the rig's driver) name no library.
func TestAuditProfiles(t *testing.T) {
	tl := buildRecording(t, "samples-outage", "audit-*.log")
	fl := tl.Analyze(realServer()).Fleet()
	if fl == nil {
		t.Fatal("no fleet from the audit logs")
	}
	defaults, shaped := 0, 0
	for _, c := range fl.Clients {
		ua := tl.UserAgent(c.File)
		p := c.Profile
		switch {
		case ua == outageDefaultUA:
			defaults++
			if p.Library != LibraryClientGo || p.Words() != "client-go, version not stamped (in fleet)" || !p.AsksBookmarks {
				t.Errorf("%s (%q): profile %+v", c.Name, ua, p)
			}
		case strings.HasPrefix(ua, "kube-apiserver/"):
			if p.Words() != "client-go, version not stamped (in kube-apiserver)" {
				t.Errorf("%s (%q): profile %q", c.Name, ua, p.Words())
			}
		case strings.HasPrefix(ua, "fleet-"):
			shaped++
			if p.Library != LibraryClientGo || p.Version != "" || p.WatchList != WatchListUnknown || !strings.Contains(p.RecognisedBy, "timeout=") {
				t.Errorf("%s (%q): profile %+v, want client-go told by its watches' timeout", c.Name, ua, p)
			}
		case strings.HasPrefix(ua, "realapi-driver/"):
			if p.Library != LibraryUnknown {
				t.Errorf("%s (%q): profile %+v, from a User-Agent that names no library", c.Name, ua, p)
			}
		default:
			t.Errorf("%s: a User-Agent %q the recording's README does not list", c.Name, ua)
		}
	}
	if defaults != 20 {
		t.Errorf("%d clients with client-go's default User-Agent, want samples-outage's 20", defaults)
	}
	if shaped == 0 {
		t.Error("no client with a User-Agent of its own")
	}
}
