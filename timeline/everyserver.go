package timeline

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A reconnect whose server is not known goes to one of the servers, the
// load balancer's choice. Each server's own evidence (its metrics, its
// own 410s, its restarts) decides for a reconnect that reaches it; when
// every server's refuses the cursor, the reconnect is refused whichever
// the load balancer picks, and when some server's does, it is at risk.
// Over a client's connection, which no load balancer picks, only the
// former holds. ModelEveryServer says so, as a threshold like the other models, so
// that a verdict at one instant, the zones, the horizons and the fleet's
// counts built on them give the same answer.

// everyServer says whether ModelEveryServer applies: every server the
// analysis counts is known by name, and there are several.
func (a *Analysis) everyServer() bool {
	n := len(a.TL.Servers)
	return n > 1 && n >= a.ServerCount()
}

// serverRefusal is when one server's own evidence refuses a cursor
// value, by Model: from From on it refuses it or serves nothing (a
// reconnect goes to another), from Serving on it serves and refuses it
// (never when it does not).
type serverRefusal struct {
	From, Serving int64
	Model         Model
}

// refuses adds model m's refusal, from from on, serving from serving
// on: From and Serving are each the earliest, Model the one of From.
func (r *serverRefusal) refuses(m Model, from, serving int64) {
	if from < r.From {
		r.From, r.Model = from, m
	}
	r.Serving = min(r.Serving, serving)
}

// serverRefusals are, per server, when its own evidence refuses a
// cursor at rv last current at since (calibration uses only the errors
// observed before the instant before).
func (a *Analysis) serverRefusals(file int, rv uint64, since, before int64) []serverRefusal {
	out := make([]serverRefusal, len(a.TL.Servers))
	models := a.applicable(file)
	for s := range out {
		out[s] = a.serverRefusal(file, s, models, rv, since, before)
	}
	return out
}

// serverRefusal is when server s's own evidence, by the models that
// apply to the file, refuses a cursor at rv last current at since.
func (a *Analysis) serverRefusal(file, s int, models []Model, rv uint64, since, before int64) serverRefusal {
	r := serverRefusal{From: never, Serving: never}
	for _, m := range models {
		switch m {
		case ModelRestart:
			// The new process that never held rv refuses it; until
			// it serves, the server takes no new request, and a
			// reconnect goes to another: refusing from the old
			// process's closing.
			if k, _ := a.restartRefusing(s, a.TL.Files[file].Kind, rv); k > 0 {
				incs := a.TL.Servers[s].Incarnations
				r.refuses(m, incs[k-1].closedFrom(), incs[k].From)
			}
		case ModelCalibration:
			// A process not known: the instant its own 410s refuse
			// it, whichever process serves then.
			if _, refused, ok := a.threshold(m, file, serverRef{s, -1}, rv, since, before); ok {
				r.refuses(m, refused, refused)
			}
		case ModelServerCache:
			from := a.cacheRefusalsOf(file, s).refusedFrom(rv)
			r.refuses(m, from, from)
		}
	}
	return r
}

// everyServerThreshold is ModelEveryServer's threshold: at risk once
// one serving server's own evidence refuses the cursor, refused once
// every server's does or it serves nothing.
func (a *Analysis) everyServerThreshold(file int, rv uint64, since, before int64) (risk, refused int64) {
	ps := a.passOf(file)
	if ps == nil || before != never {
		return a.findEveryServerThreshold(file, rv, since, before)
	}
	t := ps.everyServer.of(rv, since, func() [2]int64 {
		risk, refused := a.findEveryServerThreshold(file, rv, since, before)
		return [2]int64{risk, refused}
	})
	return t[0], t[1]
}

// findEveryServerThreshold is everyServerThreshold, worked out.
func (a *Analysis) findEveryServerThreshold(file int, rv uint64, since, before int64) (risk, refused int64) {
	risk, refused = never, int64(0)
	models := a.applicable(file)
	for s := range a.TL.Servers {
		r := a.serverRefusal(file, s, models, rv, since, before)
		risk, refused = min(risk, r.Serving), max(refused, r.From)
	}
	return risk, refused
}

// everyServerReason explains ModelEveryServer's verdict at instant at,
// judged with the evidence observed before the instant before: which
// servers refuse the cursor, each with its own evidence's reason, and
// which the load balancer cannot pick (pickable), with why its new
// process refuses it once it can; on is the server of the client's
// connection, -1 for none.
func (a *Analysis) everyServerReason(o Outcome, file, on int, rv uint64, since, at, before int64) string {
	rs := a.serverRefusals(file, rv, since, before)
	var refusing, holding, why []string
	var notTaking []int
	var backAt []string  // when each of them serves again, where it refuses rv then
	refusesLater := true // every server not taking requests refuses rv once it does
	for s, r := range rs {
		name := a.TL.Servers[s].Name
		_, pickable := a.pickable(s, at)
		switch {
		case !pickable:
			// What its old process held no longer matters: a new one
			// refuses it, or nothing it holds is told.
			notTaking = append(notTaking, s)
			k, _ := a.restartRefusing(s, a.TL.Files[file].Kind, rv)
			later := k > 0 && a.TL.Servers[s].Incarnations[k].From > at
			if refusesLater = refusesLater && later; !later {
				continue
			}
			// Said with its instant: the new process is a record later
			// than the reconnect asked about.
			backAt = append(backAt, a.instant(a.TL.Servers[s].Incarnations[k].From))
			r.Model = ModelRestart
		case r.From > at:
			holding = append(holding, name)
			continue
		default:
			refusing = append(refusing, name)
		}
		on, when := serverRef{s, -1}, at
		if r.Model == ModelServerCache {
			// The bounds at the instant, as the server's own answer then
			// gives them (ResumeAtServers); those that first refused it,
			// of the process serving then, where the instant's do not (a
			// scrape gap, a restart in the metrics, a process not yet
			// serving).
			if inc := a.TL.Servers[s].serving(at); inc < 0 || !a.serverCache(file, serverRef{s, inc}, at).refuses(rv) {
				when = r.From
			}
			on.incarnation = a.TL.Servers[s].serving(when)
		}
		why = append(why, a.reason(r.Model, Refused, file, on, rv, since, when, before))
	}
	gone := ""
	switch {
	case len(notTaking) == 0:
	case !refusesLater:
		gone = fmt.Sprintf(" (%s, cannot be picked)", a.notTakingWords(notTaking, at))
	case len(notTaking) == 1:
		gone = fmt.Sprintf(" (%s, cannot be picked, and its new process, serving from %s, refuses it)", a.notTakingWords(notTaking, at), backAt[0])
	default:
		// Each instant with its server: the words group the servers by
		// why they take no request, not in this order.
		from := make([]string, len(notTaking))
		for i, s := range notTaking {
			from[i] = a.TL.Servers[s].Name + "'s from " + backAt[i]
		}
		gone = fmt.Sprintf(" (%s, cannot be picked, and their new processes, serving %s, refuse it)", a.notTakingWords(notTaking, at), joinWords(from))
	}
	who, each := "every API server", ""
	if len(notTaking) > 0 {
		who = "every API server that could answer"
	}
	if len(refusing) > 1 {
		each = "each of "
	}
	picks := "whichever the load balancer picks"
	if on >= 0 {
		// Over a client's connection no load balancer picks.
		picks = fmt.Sprintf("over the client's connection to %s as through the load balancer", a.TL.Servers[on].Name)
	}
	switch {
	case o == Refused && len(notTaking) == 0:
		return fmt.Sprintf("every API server: each one's own evidence refuses RV %d, so a reconnect is refused %s: %s", rv, picks, strings.Join(why, "; "))
	case o == Refused && len(refusing) == 0:
		return fmt.Sprintf("every API server: none could be picked then (%s), and each one's own evidence refuses RV %d once it is: %s", a.notTakingWords(notTaking, at), rv, strings.Join(why, "; "))
	case o == Refused:
		return fmt.Sprintf("%s: the evidence of %s%s refuses RV %d%s, so a reconnect is refused %s: %s", who, each, joinWords(refusing), rv, gone, picks, strings.Join(why, "; "))
	case o == AtRisk && (len(refusing) == 0 || len(holding) == 0):
		// Decided by servers that cannot be picked then (their evidence
		// counts from before, or once they take requests again).
		return fmt.Sprintf("every API server: the evidence of some refuses RV %d, and a reconnect is refused if the load balancer picks one of those%s: %s", rv, gone, strings.Join(why, "; "))
	case o == AtRisk:
		return fmt.Sprintf("%s: the evidence of %s refuses RV %d, that of %s does not, so a reconnect is refused if the load balancer picks %s%s: %s",
			who, joinWords(refusing), rv, joinWords(holding), orWords(refusing), gone, strings.Join(why, "; "))
	}
	return fmt.Sprintf("every API server: no server's own evidence refuses RV %d", rv)
}

// refusedEarlier says whether server's cache refused rv before at by
// its metrics (from then), though its bounds at at do not say so (a
// scrape gap, a restart in the metrics): its oldest entry only moves
// forward, and a new process's list is newer still, so it still refuses
// it. false when the server is not known, or the bounds at at refuse it.
func (a *Analysis) refusedEarlier(file, server int, rv uint64, at int64) (from int64, ok bool) {
	if server < 0 || !a.TL.serverMetrics() {
		return never, false
	}
	from = a.cacheRefusalsOf(file, server).refusedFrom(rv)
	if from > at {
		return never, false
	}
	if a.serverCache(file, serverRef{server, a.TL.Servers[server].serving(at)}, at).refuses(rv) {
		return never, false
	}
	return from, true
}

// refusedEarlierReason explains refusedEarlier: the bounds that refused
// rv first, and why they still hold at at.
func (a *Analysis) refusedEarlierReason(file, server int, rv uint64, from, at int64) string {
	then := a.serverCacheReason(file, serverRef{server, a.TL.Servers[server].serving(from)}, rv, from)
	return fmt.Sprintf("%s; its metrics around %s do not show it again, but a cache's oldest change only moves forward, and a new process's list is newer still: it still refuses RV %d", then, a.instant(at), rv)
}

// cacheRefusals is, for one server's watch cache of one kind, the RV
// below which its metrics say it refused, at every instant its bounds
// may change, as it rose: a cache's oldest entry only moves forward, and
// a new process's or a re-initialised cache's list is newer still.
type cacheRefusals struct {
	t     []int64  // from t[k] on, its bounds then refuse below below[k]
	below []uint64 // rising
}

// refusedFrom is the first instant from which the cache refuses rv
// (never, when none does): that instant's bounds say so.
func (c *cacheRefusals) refusedFrom(rv uint64) int64 {
	k := sort.Search(len(c.below), func(i int) bool { return c.below[i] > rv })
	if k == len(c.below) {
		return never
	}
	return c.t[k]
}

// cacheRefusalsKey is a kind's cache on one server.
type cacheRefusalsKey struct {
	kind   string
	server int
}

// cacheRefusalsOf is the rising refusals of the file's kind's cache on
// server, built once per kind and server: every cursor of the kind asks
// them.
func (a *Analysis) cacheRefusalsOf(file, server int) *cacheRefusals {
	key := cacheRefusalsKey{a.TL.Files[file].Kind, server}
	if c, ok := a.cacheRefusals[key]; ok {
		return c
	}
	c := a.buildCacheRefusals(key.kind, a.resourceOf(file), server)
	if a.cacheRefusals == nil {
		a.cacheRefusals = map[cacheRefusalsKey]*cacheRefusals{}
	}
	a.cacheRefusals[key] = c
	return c
}

// buildCacheRefusals bounds the cache at each instant its bounds may
// rise (boundsRises) and keeps each rise of the RV below which it
// refuses.
func (a *Analysis) buildCacheRefusals(kind, resource string, server int) *cacheRefusals {
	c := &cacheRefusals{}
	srv := &a.TL.Servers[server]
	for _, t := range a.boundsRises(resource, server) {
		inc := srv.serving(t)
		if inc < 0 {
			continue
		}
		// Not kept in cacheAnswers: a reconnect asks few of these
		// instants again.
		b := a.boundCache(kind, resource, serverRef{server, inc}, t)
		if n := len(c.below); b.refusedBelow > 0 && (n == 0 || b.refusedBelow > c.below[n-1]) {
			c.t, c.below = append(c.t, t), append(c.below, b.refusedBelow)
		}
	}
	return c
}

// boundsRises are, in order, the instants at which the RV below which
// server's cache of resource refuses (cacheBounds, reinitialised) may
// rise: a scrape's instant (the last scrape at or before an instant
// moves on), two steps after it (so does the one the changes of a
// broad watch locate the ring from), a new process's start (its
// counters start again) and a re-initialisation its own log shows.
// Between them it may only fall: the first scrape two steps after the
// instant moves on, which allows more events held, or a scrape grows too
// old to bound anything.
func (a *Analysis) boundsRises(resource string, server int) []int64 {
	srv := &a.TL.Servers[server]
	var ts []int64
	for _, r := range a.TL.CacheReinits() {
		if r.Server == srv.Name && r.Resource == resource {
			ts = append(ts, r.T)
		}
	}
	for _, inc := range srv.Incarnations {
		ts = append(ts, inc.From)
	}
	if m := a.TL.Metrics; m != nil && srv.Metrics != "" {
		if head := m.head[serverResource{srv.Metrics, resource}]; head != nil {
			step := head.lookback / 2
			for _, t := range head.t {
				ts = append(ts, t, t+2*step)
			}
		}
		for _, r := range m.serverResets[srv.Metrics] {
			ts = append(ts, r.After)
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}
