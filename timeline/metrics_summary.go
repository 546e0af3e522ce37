package timeline

import (
	"fmt"
	"strings"
)

// metricsOnly is the summary of Prometheus exports given without any
// capture or audit log: what was read, and that nothing can be judged.
// ok false when there is a file to judge, or no export.
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
	return SummaryLine{Topic: "metrics", Text: fmt.Sprintf("Metrics only: %d series of %s %s; no watch or request to judge.", len(m.Series), servers, span)}, true
}
