package timeline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// A known server's metrics decide a reconnect that reaches it: where they
// say its watch cache holds the cursor, the time model's estimate that
// puts it at risk cannot gainsay them. A reconnect over a client's open
// connection reaches that connection's server; one whose server is not
// known reaches whichever the load balancer picks among those it can
// pick (pickable), and is accepted where the metrics of every one of
// them hold the cursor. The verdict at an instant, the zones and the
// horizons ask the same pieces, so that they agree.

// heldPieces say, for one kind, from which RV up the cache of every
// server the load balancer can pick holds a cursor, and that of each
// server, piece by piece: between two instants at which any server's
// bounds may change (boundsChanges), what boundCache says of each server
// stays the same. Each piece's answer is worked out when first asked:
// only the instants a risk zone covers ask.
type heldPieces struct {
	t     []int64  // piece k is [t[k], t[k+1]), the last one runs on
	need  []uint64 // the lowest RV every server it can pick then holds, math.MaxUint64 for none
	asked []bool   // need[k] is worked out
	// servers are each server's own pieces, which decide a reconnect
	// over a connection to it (holds) and make up those above: most of
	// the pieces above are another server's, and leave its bounds as
	// they were.
	servers []serverHeld
}

// serverHeld is what one server's metrics say of its cache of the kind
// between two of its own boundsChanges, each piece worked out when first
// asked.
type serverHeld struct {
	t     []int64
	need  []uint64 // the lowest RV its cache then holds, math.MaxUint64 when its metrics do not say it holds one
	state []heldState
}

// heldState is whether a server's piece is worked out, and whether the
// load balancer can pick the server then.
type heldState uint8

const (
	heldUnasked    heldState = iota
	heldServing              // the load balancer can pick it
	heldUnpickable           // it cannot: shutting down or restarting
)

// heldPiecesOf is the file's kind's heldPieces, built once per kind.
func (a *Analysis) heldPiecesOf(file int) *heldPieces {
	ps := a.passOf(file)
	if ps != nil && ps.held != nil {
		return ps.held
	}
	kind := a.TL.Files[file].Kind
	if hp, ok := a.everyHeld[kind]; ok {
		if ps != nil {
			ps.held = hp
		}
		return hp
	}
	resource := a.resourceOf(file)
	hp := &heldPieces{servers: make([]serverHeld, len(a.TL.Servers))}
	for s := range a.TL.Servers {
		ts := a.boundsChanges(kind, resource, s)
		hp.servers[s] = serverHeld{t: ts, need: make([]uint64, len(ts)), state: make([]heldState, len(ts))}
		hp.t = append(hp.t, ts...)
	}
	slices.Sort(hp.t)
	hp.t = slices.Compact(hp.t)
	hp.need, hp.asked = make([]uint64, len(hp.t)), make([]bool, len(hp.t))
	if a.everyHeld == nil {
		a.everyHeld = map[string]*heldPieces{}
	}
	a.everyHeld[kind] = hp
	if ps != nil {
		ps.held = hp
	}
	return hp
}

// pieceAt is the piece of starts ts (in order) that holds instant t:
// the last that starts at or before it, -1 when none does.
func pieceAt(ts []int64, t int64) int {
	return sort.Search(len(ts), func(i int) bool { return ts[i] > t }) - 1
}

// needAt is piece k's lowest RV that the metrics of every server the
// load balancer can pick say its cache holds (math.MaxUint64 when one
// does not say so, or it can pick none).
func (a *Analysis) needAt(file int, hp *heldPieces, k int) uint64 {
	if hp.asked[k] {
		return hp.need[k]
	}
	need, serving := uint64(0), false
	for s := range hp.servers {
		n, st := a.serverNeed(file, hp, s, hp.t[k])
		if st == heldUnpickable {
			continue
		}
		serving = true
		if need = max(need, n); need == math.MaxUint64 {
			break
		}
	}
	if !serving {
		need = math.MaxUint64
	}
	hp.need[k], hp.asked[k] = need, true
	return need
}

// serverNeed is what server s's metrics say at instant t: the lowest RV
// its cache holds (math.MaxUint64 for none), and whether the load
// balancer can pick it (pickable). Its bounds at t are those at its own
// last boundsChanges instant at or before t.
func (a *Analysis) serverNeed(file int, hp *heldPieces, s int, t int64) (uint64, heldState) {
	j := pieceAt(hp.servers[s].t, t)
	if j < 0 {
		// Before its first: no scrape bounds anything yet.
		if _, ok := a.pickable(s, t); !ok {
			return math.MaxUint64, heldUnpickable
		}
		return math.MaxUint64, heldServing
	}
	return a.serverPiece(file, hp, s, j)
}

// serverPiece is serverNeed over server s's own piece j.
func (a *Analysis) serverPiece(file int, hp *heldPieces, s, j int) (uint64, heldState) {
	sh := &hp.servers[s]
	if sh.state[j] == heldUnasked {
		at := sh.t[j]
		sh.need[j], sh.state[j] = math.MaxUint64, heldUnpickable
		if inc, ok := a.pickable(s, at); ok {
			sh.state[j] = heldServing
			if inc >= 0 {
				if b := a.boundCache(a.TL.Files[file].Kind, a.resourceOf(file), serverRef{s, inc}, at); b.held {
					sh.need[j] = max(b.heldFrom, b.refusedBelow)
				}
			}
		}
	}
	return sh.need[j], sh.state[j]
}

// pickable says whether the load balancer can pick server s at instant
// t, and which of its processes serves then (-1 for one not known). A
// process shutting down takes no new request. Its records show no
// process between one's last record and the next one's first
// (restarting): where its audit log shows the new process, whose first
// record is among the first requests it served, none served then; where
// only its metrics show it, scraped every few seconds or more, the new
// process may already serve, holding nothing older than its list, unless
// its scrape then failed.
func (a *Analysis) pickable(s int, t int64) (inc int, ok bool) {
	srv := &a.TL.Servers[s]
	if inc = srv.accepting(t); inc >= 0 {
		return inc, true
	}
	if srv.serving(t) >= 0 {
		return -1, false
	}
	k := sort.Search(len(srv.Incarnations), func(i int) bool { return srv.Incarnations[i].From > t })
	if k < len(srv.Incarnations) && len(srv.Incarnations[k].Logs) > 0 {
		return -1, false
	}
	return -1, a.TL.Metrics == nil || !a.TL.Metrics.scrapeFailed(srv.Metrics, t)
}

// holds says whether a reconnect at instant at with rv, last current at
// since, is held by the metrics of the server it reaches, on (over a
// client's connection), which no evidence of its own refused before; or,
// on < 0, by those of every server the load balancer can pick, which no
// server's own evidence refused before: it is accepted whichever the
// load balancer picks.
func (a *Analysis) holds(file, on int, rv uint64, since, at int64) bool {
	if !a.heldApplies(file, on) || at >= a.heldCut(file, on, rv, since) {
		return false
	}
	hp := a.heldPiecesOf(file)
	k := pieceAt(hp.starts(on), at)
	return k >= 0 && rv >= a.pieceNeed(file, hp, on, k)
}

// heldApplies says whether holds may accept a reconnect of the file that
// reaches server on (every server the load balancer can pick, on < 0).
func (a *Analysis) heldApplies(file, on int) bool {
	if on < 0 {
		return a.everyServerHeldApplies(file)
	}
	return a.TL.serverMetrics() && !a.uncached(file)
}

// starts are the starts of the pieces that decide holds for a reconnect
// that reaches server on: its own (boundsChanges), or, on < 0, every
// server's.
func (hp *heldPieces) starts(on int) []int64 {
	if on < 0 {
		return hp.t
	}
	return hp.servers[on].t
}

// pieceNeed is the lowest RV held over piece k of starts(on),
// math.MaxUint64 for none.
func (a *Analysis) pieceNeed(file int, hp *heldPieces, on, k int) uint64 {
	if on < 0 {
		return a.needAt(file, hp, k)
	}
	need, _ := a.serverPiece(file, hp, on, k)
	return need
}

// everyServerHeldApplies says whether holds may accept a reconnect of
// the file whose server is not known: its watches read the watch caches
// (their metrics are evidence; ModelServerCache applies), and every
// server is known by name (ModelEveryServer applies).
func (a *Analysis) everyServerHeldApplies(file int) bool {
	return a.everyServer() && a.TL.serverMetrics() && !a.uncached(file)
}

// heldCut is the first instant from which server on (some server, on <
// 0) no longer holds rv, last current at since: its metrics refuse it
// (its cache's oldest entry only moves forward, so from then on it is
// not held there, whatever later bounds say), or its own evidence does
// (its own 410s, its restart; of one serving server: ModelEveryServer's
// risk). never when nothing does.
func (a *Analysis) heldCut(file, on int, rv uint64, since int64) int64 {
	ps := a.passOf(file)
	if ps == nil {
		return a.findHeldCut(file, on, rv, since)
	}
	return ps.cuts[on+1].of(rv, since, func() int64 { return a.findHeldCut(file, on, rv, since) })
}

// findHeldCut is heldCut, worked out.
func (a *Analysis) findHeldCut(file, on int, rv uint64, since int64) int64 {
	if on >= 0 {
		return a.serverRefusal(file, on, a.applicable(file), rv, since, never).From
	}
	cut, _ := a.everyServerThreshold(file, rv, since, never)
	for s := range a.TL.Servers {
		cut = min(cut, a.cacheRefusalsOf(file, s).refusedFrom(rv))
	}
	return cut
}

// eachUnheld calls fn with each stretch of drop instants in [from, to)
// whose reconnect, d later, holds does not accept for rv, last current
// at since, in order and merged: the rest of a risk zone. A drop's
// reconnect reaches the server of its connection's stint (stints, in
// drop instants), or one the load balancer picks.
func (a *Analysis) eachUnheld(file int, rv uint64, since, from, to, d int64, stints []connStint, fn func(from, to int64)) {
	open := from // the start of the stretch not held so far
	for t := from; t < to; {
		st := stintAt(stints, t)
		end, on := min(st.to, to), st.on.server
		if !a.heldApplies(file, on) {
			t = end
			continue
		}
		hp := a.heldPiecesOf(file)
		ts, cut := hp.starts(on), a.heldCut(file, on, rv, since) // held only before cut
		lo, hi := t+d, end+d
		for k := max(pieceAt(ts, lo), 0); k < len(ts) && ts[k] < min(hi, cut); k++ {
			e := hi
			if k+1 < len(ts) {
				e = min(e, ts[k+1])
			}
			s, e := max(ts[k], lo), min(e, cut)
			if s >= e || rv < a.pieceNeed(file, hp, on, k) {
				continue
			}
			if open < s-d {
				fn(open, s-d)
			}
			open = e - d
		}
		t = end
	}
	if open < to {
		fn(open, to)
	}
}

// firstUnheld is the first reconnect instant in [from, to) that holds
// does not accept, over the connection of stint st until it ends, to
// when there is none; end is where the stretch not held that begins
// there ends, and next where the one after it begins (to when none
// does): a horizon's risk, and where it lifts.
func (a *Analysis) firstUnheld(file int, rv uint64, since, from, to int64, st connStint) (first, end, next int64) {
	first, end, next = to, to, to
	stretches := 0
	a.eachUnheld(file, rv, since, from, to, 0, []connStint{st}, func(f, t int64) {
		switch stretches {
		case 0:
			first, end = f, t
		case 1:
			next = f
		}
		stretches++
	})
	return first, end, next
}

// heldSince is when the stretch began over which holds accepts rv on
// on up to the instant before at (it does): the first instant of the run
// of pieces that hold it, at the earliest from.
func (a *Analysis) heldSince(file, on int, rv uint64, from, at int64) int64 {
	hp := a.heldPiecesOf(file)
	ts := hp.starts(on)
	k := pieceAt(ts, at-1)
	for ; k > 0 && ts[k] > from && rv >= a.pieceNeed(file, hp, on, k-1); k-- {
	}
	if k < 0 {
		return from
	}
	return max(ts[k], from)
}

// heldUntilWords says, of a risk that begins at at though the model
// alone would have it begin earlier, why: the server a reconnect reached
// over its connection (on), or every server the load balancer could pick
// (on < 0), held rv by its metrics from an instant (heldSince, at the
// earliest from) until then.
func (a *Analysis) heldUntilWords(file, on int, rv uint64, from, at int64) string {
	since := a.heldSince(file, on, rv, from, at)
	if at-since < int64(time.Millisecond) {
		// Shown to the millisecond, the two instants read alike.
		return fmt.Sprintf("; for under a millisecond before %s %s", a.instant(at), a.heldWords(on, rv, ""))
	}
	return fmt.Sprintf("; from %s until %s %s", a.instant(since), a.instant(at), a.heldWords(on, rv, ""))
}

// heldWords says that the server a reconnect reached over its connection
// (on), or every server the load balancer could pick (on < 0), held rv by
// its metrics (again: "again"), so that the reconnect was accepted.
func (a *Analysis) heldWords(on int, rv uint64, again string) string {
	if on >= 0 {
		return fmt.Sprintf("%s held RV %d by its metrics%s, so a reconnect over it then was accepted", a.holder(on), rv, again)
	}
	return fmt.Sprintf("%s held RV %d by its metrics%s, so a reconnect then was accepted whichever the load balancer picked", a.holder(on), rv, again)
}

// holder names whose metrics decide holds for a reconnect that reaches
// server on: its connection's server, or every server (on < 0).
func (a *Analysis) holder(on int) string {
	if on >= 0 {
		return fmt.Sprintf("the API server its connection reached (%s)", a.TL.Servers[on].Name)
	}
	return "every API server that could answer"
}

// everyServerHeldReason explains an accepted verdict that
// holds decides of every server: the servers not taking requests then, and
// each other server's metrics.
func (a *Analysis) everyServerHeldReason(file int, rv uint64, at int64) string {
	var holding, why []string
	var notTaking []int
	for s := range a.TL.Servers {
		inc, _ := a.pickable(s, at)
		if inc < 0 {
			notTaking = append(notTaking, s)
			continue
		}
		holding = append(holding, a.TL.Servers[s].Name)
		why = append(why, a.serverCacheReason(file, serverRef{s, inc}, rv, at))
	}
	who := "every API server (" + joinWords(holding) + ")"
	if len(notTaking) > 0 {
		who = fmt.Sprintf("%s, the API servers that could answer (%s), each", joinWords(holding), a.notTakingWords(notTaking, at))
	}
	return fmt.Sprintf("%s holds RV %d by its metrics, so a reconnect is accepted whichever the load balancer picks: %s", who, rv, strings.Join(why, "; "))
}

// boundsChanges are, in order, every instant at which what boundCache
// says of server's cache of resource may change: boundsRises, and those
// at which it may only fall or the process serving changes: the scrape
// two steps after an instant moves on (t-2s+1), the last scrape before
// it grows too old (t+2s+1) and so does the one the changes locate the
// ring from (t+3s+1), the counters' restart begins (Before+1), a process
// stops taking new requests (Closing) or ends (To+1), its scrapes begin
// to fail or answer again (pickable), and the server's own answer to a
// watch counts (sharpen: from the instant after it).
func (a *Analysis) boundsChanges(kind, resource string, server int) []int64 {
	ts := a.boundsRises(resource, server)
	srv := &a.TL.Servers[server]
	for _, inc := range srv.Incarnations {
		ts = append(ts, inc.To+1)
		if inc.Closing != 0 {
			ts = append(ts, inc.Closing)
		}
	}
	if m := a.TL.Metrics; m != nil && srv.Metrics != "" {
		if head := m.head[serverResource{srv.Metrics, resource}]; head != nil {
			step := head.lookback / 2
			for _, t := range head.t {
				ts = append(ts, t-2*step+1, t+2*step+1, t+3*step+1)
			}
		}
		for _, r := range m.serverResets[srv.Metrics] {
			ts = append(ts, r.Before+1)
		}
		ts = append(ts, m.upChanges(srv.Metrics)...)
	}
	for _, o := range a.observed[floorKey{kind, server}] {
		ts = append(ts, o.t+1)
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}
