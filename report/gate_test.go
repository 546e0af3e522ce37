package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestGateSaysWhatTheServersAnsweredFirst: in samples-outage the servers
// refused 74 reconnects, and the models, judging each from the evidence
// before it, refuse fewer (they put some only at risk): --fail-on 410
// says the records' count first, then the models'.
func TestGateSaysWhatTheServersAnsweredFirst(t *testing.T) {
	r := New(loadRecording(t, "samples-outage", "*.ts.http", "audit-*.log", "prometheus/*.txt.gz").Analyze(realServer()), nil)
	if r.Gones <= r.WhatIf.RelistsWithBookmarks {
		t.Fatalf("%d 410s in the records, the models refuse %d reconnects: the sample no longer shows the models refusing fewer", r.Gones, r.WhatIf.RelistsWithBookmarks)
	}
	want := fmt.Sprintf("the records show %d 410 Gone, and the models, judging each reconnect from the evidence before it, refuse %d of the %d reconnects as recorded",
		r.Gones, r.WhatIf.RelistsWithBookmarks, r.WhatIf.Reconnects)
	if why := r.Refused(); why != want {
		t.Errorf("--fail-on 410 says %q, want %q", why, want)
	}
	if !strings.HasPrefix(want, "the records show 74 ") {
		t.Errorf("the outage's records show 74 410s (its README); the gate says %q", want)
	}
}
