package timeline

import (
	"fmt"

	"watchlens/parser"
)

// The client log decides what the audit log cannot.
//
// Where the audit-log reader could not tell which of two informers of
// one group made a request (see splitInformers: samples-outage's
// clients with client-go's default User-Agent, two on each selector,
// whose watches the outage cut at once and which came back minutes
// later), the two could as well have each other's requests from there
// on. A client log given with the audit logs tells which: each of its
// clients is nearer one of the two ways (its WatchList synced after the
// one response started and before the other; its 410 names the RV of a
// watch of the one). The way whose best pair of the log's clients is
// the nearer by more than klogSwapMargin is taken; where neither is,
// the way whose pair keeps the order of the instants (the lesser
// spread, see klogJoinCost: samples-outage's shard=s31 pair, whose
// WatchLists synced 33 and 20 ms after their responses started, and 2
// and 51 ms the other way); where that ties too, or no client log is
// given, each informer says that it is a guess from there on.

// earlyKlogCandidates reads the clients of the client logs added, as
// the join will (see addKlogClients), before the audit logs' clients are
// made: not those of an API server's own log, nor of a log whose year is
// a guess (placed by the files the join is yet to make), nor those a
// capture is named after.
func (b *Builder) earlyKlogCandidates() []klogJoinCandidate {
	captures := b.capturesByStem()
	var out []klogJoinCandidate
	for _, kl := range b.klogs {
		if kl.log == nil || kl.log.YearFrom == "clock" || isServerLog(kl.log) {
			continue
		}
		out = append(out, klogCandidates(kl.log, func(c *klogClient) bool { return captures[c.name] != nil })...)
	}
	return out
}

// pairByLog takes, at each unsure pick of a group's split, the way the
// clients of the log say, and returns the picks they do not decide.
func pairByLog(k groupKey, chains [][]auditReq, unsure []unsurePick, cands []klogJoinCandidate) []unsurePick {
	if len(cands) == 0 {
		return unsure
	}
	var left []unsurePick
	for _, p := range unsure {
		x, px := chainHolding(chains, p.req)
		y, py := chainHolding(chains, p.mate)
		if x < 0 || y < 0 || x == y {
			continue // an earlier exchange made it moot
		}
		sx := append(append([]auditReq(nil), chains[x][:px]...), chains[y][py+1:]...)
		sy := append(append([]auditReq(nil), chains[y][:py+1]...), chains[x][px:]...)
		now, nowSpread := bestPairCost(cands, chainCalls(k, chains[x]), chainCalls(k, chains[y]))
		other, otherSpread := bestPairCost(cands, chainCalls(k, sx), chainCalls(k, sy))
		switch {
		case other+klogSwapMargin < now:
			chains[x], chains[y] = sx, sy
		case now+klogSwapMargin < other:
		case now < klogNoJoin && other < klogNoJoin && otherSpread < nowSpread:
			chains[x], chains[y] = sx, sy
		case now < klogNoJoin && other < klogNoJoin && nowSpread < otherSpread:
		default:
			left = append(left, p)
		}
	}
	return left
}

// chainHolding is the chain holding the request of an Audit-ID, and its
// place there; -1 when none does.
func chainHolding(chains [][]auditReq, id string) (int, int) {
	for c, reqs := range chains {
		for n := range reqs {
			if reqs[n].AuditID == id {
				return c, n
			}
		}
	}
	return -1, -1
}

// bestPairCost is the least cost of two distinct clients of the log
// being the two informers x and y, and the spread of that pair (the
// least, of the pairs that cost as little); klogNoJoin when no two can
// be.
func bestPairCost(cands []klogJoinCandidate, x, y auditCalls) (int64, float64) {
	cost, spread := klogJoinCosts(cands, []auditCalls{x, y})
	best, bestSpread := klogNoJoin, 0.0
	for i := range cost {
		for i2 := range cost {
			if i == i2 || cost[i][0] >= klogNoJoin || cost[i2][1] >= klogNoJoin {
				continue
			}
			c, sp := cost[i][0]+cost[i2][1], spread[i][0]+spread[i2][1]
			if c < best || c == best && sp < bestSpread {
				best, bestSpread = c, sp
			}
		}
	}
	return best, bestSpread
}

// unsureDiagnostics says, on each informer of a group, where its
// requests could from there on be another's (the unsure picks no client
// log decided).
func unsureDiagnostics(chains [][]auditReq, unsure []unsurePick) [][]parser.Diagnostic {
	out := make([][]parser.Diagnostic, len(chains))
	for _, p := range unsure {
		x, px := chainHolding(chains, p.req)
		y, py := chainHolding(chains, p.mate)
		if x < 0 || y < 0 || x == y {
			continue
		}
		why := fmt.Sprintf("the two informers' requests before it ended %s apart and it came %s after them, so the audit log cannot tell which of the two sent it", FormatDuration(p.apart), FormatDuration(p.after))
		say := func(c, at, other int) {
			q := &chains[c][at]
			out[c] = append(out[c], parser.Diagnostic{Offset: q.Offset, Line: q.Line, Kind: DiagUnsureSplit, Msg: fmt.Sprintf(
				"this client's requests may be informer %d's from this request on, and informer %d's requests may be this client's: %s", other+1, other+1, why)})
		}
		say(x, px, y)
		if py+1 < len(chains[y]) {
			say(y, py+1, x)
		}
	}
	return out
}
