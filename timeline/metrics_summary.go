package timeline

import (
	"fmt"
	"strings"
)

// metricsOnly is the summary of Prometheus exports given without any
// capture or audit log: what was read, the servers' restarts they show,
// and that no reconnect can be judged. ok false when there is a file to
// judge, or no export.
func (a *Analysis) metricsOnly() (SummaryLine, bool) {
	m := a.TL.Metrics
	if m == nil || len(a.TL.Files) > 0 {
		return SummaryLine{}, false
	}
	servers := fmt.Sprintf("%d servers (%s)", len(m.Servers), strings.Join(m.Servers, ", "))
	switch len(m.Servers) {
	case 0:
		servers = "no API server"
	case 1:
		servers = "1 server (" + m.Servers[0] + ")"
	}
	span := "with no instant"
	if m.To != 0 {
		span = fmt.Sprintf("from %s to %s", a.instant(m.From), a.instant(m.To))
	}
	// "API server a's new process starting at T1, b's at T2".
	var restarts []string
	for _, srv := range m.Servers {
		for _, t := range m.Restarts(srv) {
			who := srv + "'s at about "
			if len(restarts) == 0 {
				who = "API server " + srv + "'s new process starting at about "
			}
			restarts = append(restarts, who+FormatSecond(t, a.Params.Zone))
		}
	}
	shown := ""
	if len(restarts) > 0 {
		shown = "; they show " + joinWords(restarts)
	}
	return SummaryLine{Topic: "metrics", Text: fmt.Sprintf("Metrics only: %d series of %s %s%s; no watch or request to judge.", len(m.Series), servers, span, shown)}, true
}
