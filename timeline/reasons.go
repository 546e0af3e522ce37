package timeline

import (
	"fmt"
	"math"
)

// reason explains a model's verdict at instant at in words, with the
// numbers, from the evidence observed before the instant before (the
// bound the verdict was judged with, see seenBy).
func (a *Analysis) reason(m Model, o Outcome, file int, on serverRef, rv uint64, since, at, before int64) string {
	p := a.Params
	if o == Unknown {
		return m.String() + ": the capture has no clock"
	}
	switch m {
	case ModelCacheTime:
		age := FormatDuration(at - since)
		stale, risk := a.staleFrom(file, rv, since)
		what := fmt.Sprintf("last current %s before", age)
		switch {
		case stale > at:
			what = "last current " + age + " before and not yet stale (a watch of the whole type saw no change past it) at"
		case stale > since:
			what = fmt.Sprintf("last current %s and stale for %s (a watch of the whole type saw no change past it until then) before", age, FormatDuration(at-stale))
		}
		if o == Accepted && at-stale >= int64(p.CacheWindow) && at < risk {
			return fmt.Sprintf("watch cache (time): cursor %d %s the reconnect, longer than the %s of history the cache is sure to keep, but the cache lets the change past it go only as another change comes after that, and none had come", rv, what, p.CacheWindow)
		}
		if o == Accepted {
			return fmt.Sprintf("watch cache (time): cursor %d %s the reconnect, less than the %s of history the cache is sure to keep", rv, what, p.CacheWindow)
		}
		return fmt.Sprintf("watch cache (time): cursor %d %s the reconnect, past the %s of history the cache is sure to keep; it keeps more while its capacity allows, so the server may or may not still have it", rv, what, p.CacheWindow)
	case ModelEtcd:
		age := FormatDuration(at - since)
		switch o {
		case Accepted:
			return fmt.Sprintf("etcd: cursor %d last current %s before, less than the %s compaction interval", rv, age, p.EtcdInterval)
		case AtRisk:
			return fmt.Sprintf("etcd compaction: cursor %d last current %s before the reconnect, not less than the %s compaction interval (compacted at the worst phase)", rv, age, p.EtcdInterval)
		}
		return fmt.Sprintf("etcd compaction: cursor %d last current %s before the reconnect, at least twice the %s compaction interval (compacted at any phase)", rv, age, p.EtcdInterval)
	case ModelRestart:
		if on.server >= 0 {
			return a.restartReason(on.server, a.TL.Files[file].Kind, rv)
		}
		r, ok := p.restartAfter(since)
		if !ok || o == Accepted {
			return "restart: no restart after the cursor was last current"
		}
		if o == AtRisk {
			return fmt.Sprintf("API server restart (new process serving at %s): cursor %d was last current before it; with %d servers a reconnect that lands on the restarted one is refused, one that lands on another is not", a.instant(r.To), rv, a.ServerCount())
		}
		return fmt.Sprintf("API server restart from %s (the only server; new process serving at %s): its cache starts at its fresh LIST RV, and cursor %d was last current before it", a.instant(r.From), a.instant(r.To), rv)
	case ModelCalibration:
		if o == Accepted {
			if len(a.TL.Servers) > 1 && on.server >= 0 {
				return fmt.Sprintf("calibration: no too-old error observed from server %s refuses it", a.TL.Servers[on.server].Name)
			}
			return "calibration: no observed too-old error refuses it"
		}
		return a.calibrationReason(o, file, on.server, rv)
	case ModelServerCache:
		if from, ok := a.refusedEarlier(file, on.server, rv, at); ok && o == Refused {
			return a.refusedEarlierReason(file, on.server, rv, from, at)
		}
		if on.server < 0 && o == Accepted && a.holds(file, on.server, rv, since, at) {
			return a.everyServerHeldReason(file, rv, at)
		}
		return a.serverCacheReason(file, on, rv, at)
	case ModelEveryServer:
		return a.everyServerReason(o, file, on.server, rv, since, at, before)
	case ModelCacheCapacity:
		c := a.capacity[a.TL.Files[file].Kind]
		if o == Accepted || c == nil {
			return "watch cache (capacity): the replayed cache still holds it"
		}
		if o == AtRisk {
			if c.contradicted != "" {
				return c.reason(rv, a.Params.Zone) + "; but " + c.contradicted + ", so it may still hold this one"
			}
			if a.ServerCount() > 1 {
				return c.reason(rv, a.Params.Zone) + fmt.Sprintf("; with %d servers, each cache grew with its own history, so another may still hold it", a.ServerCount())
			}
		}
		// With one server the replay refuses from the instant it puts at
		// risk (a horizon's risk reason is asked at that instant).
		return c.reason(rv, a.Params.Zone)
	case ModelCacheCount:
		if o == Accepted {
			return fmt.Sprintf("watch cache (count): fewer than %d changes of %s after it", p.CacheCount, a.TL.Files[file].Kind)
		}
		s := fmt.Sprintf("watch cache (count): more than %d changes of %s after RV %d, so the buffer's oldest entry is past it", p.CacheCount, a.TL.Files[file].Kind, rv+1)
		if sr := a.TL.series[a.TL.Files[file].Kind]; sr != nil && !sr.exact {
			s += " (approximate: the captures do not see the whole resource type, so they undercount)"
		}
		return s
	}
	return m.String()
}

// calibrationReason explains a calibration verdict other than accepted:
// the too-old error that decided it, and which server answered it.
func (a *Analysis) calibrationReason(o Outcome, file, server int, rv uint64) string {
	tl := a.TL
	refusing, risky := a.floorsOf(file, server)
	f := refusing
	if o == AtRisk && risky != nil {
		f = risky
	}
	k := f.floor(rv, math.MaxInt64)
	if k < 0 {
		return ModelCalibration.String()
	}
	t, st, session := tl.floorError(f.ev[k])
	// The 410's instant, formatted once for the reasons that name it.
	instant := a.instant(t)
	at := "an unknown time"
	if tl.Files[file].Clock != ClockNone {
		at = instant
	}
	from := "a server not known"
	if n := tl.ServerName(session); n != "" {
		from = "server " + n
	}
	switch {
	case len(tl.Servers) <= 1 && o == AtRisk && a.ServerCount() > 1:
		return fmt.Sprintf("calibration: %q observed at %s from one of the %d servers, which refuses every RV below %d from then; the reconnect may land on another, whose own history may still hold it", st.Message, at, a.ServerCount(), f.y[k])
	case len(tl.Servers) <= 1:
		return fmt.Sprintf("calibration: %q observed at %s: every RV below %d refused from then", st.Message, at, f.y[k])
	case server >= 0:
		return fmt.Sprintf("calibration: %s's own 410 at %s (%q) said it kept nothing older than RV %d, and it refuses every RV below that from then", from, instant, st.Message, f.y[k])
	case o == AtRisk:
		return fmt.Sprintf("calibration: %q observed at %s from %s, which refuses every RV below %d from then; the reconnect may land on it: which server it reaches would decide (the audit log holding the reconnect's Audit-Id names it)", st.Message, at, from, f.y[k])
	}
	// The step rose when the last server to answer one did, which may be
	// after the error that set its floor, the lowest server's.
	if tl.Files[file].Clock != ClockNone {
		at = a.instant(f.t[k])
	}
	return fmt.Sprintf("calibration: by %s each of the %d servers had answered a too-old error, none keeping an RV below %d (%q from %s)", at, len(tl.Servers), f.y[k], st.Message, from)
}
