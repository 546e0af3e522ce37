package timeline

import (
	"math/rand"
	"testing"
	"time"
)

// simCache is a watch cache's ring as watch_cache.go keeps it
// (evidence.md §3.2): it grows ×2 when full and its oldest event is
// younger than the fresh duration, shrinks ÷2 (keeping the newest) when
// full and the event a quarter from the newest end is older, evicts the
// oldest when still full.
type simCache struct {
	capacity int
	rvs      []uint64
	times    []int64
	listRV   uint64
	evicted  bool
}

func (c *simCache) add(rv uint64, t int64) {
	if len(c.rvs) == c.capacity {
		switch {
		case t-c.times[0] < eventFresh && c.capacity < 102400:
			c.capacity *= 2
		case t-c.times[len(c.times)-c.capacity/4] > eventFresh && c.capacity > lowerBoundCapacity:
			c.capacity /= 2
			drop := len(c.rvs) - c.capacity
			c.rvs, c.times = c.rvs[drop:], c.times[drop:]
			c.evicted = true
		}
	}
	if len(c.rvs) == c.capacity {
		c.rvs, c.times = c.rvs[1:], c.times[1:]
		c.evicted = true
	}
	c.rvs, c.times = append(c.rvs, rv), append(c.times, t)
}

// refusesBelow is the RV below which the cache refuses a watch.
func (c *simCache) refusesBelow() uint64 {
	if !c.evicted || len(c.rvs) == 0 {
		return c.listRV
	}
	return c.rvs[0] - 1
}

// simulatedScrapes runs a simulated cache under rates that grow and
// shrink it, scraped every second: its metrics, the instants asked (mid
// second), the RV below which it refused at each, and every change it
// received as a watch of the whole type would see them.
func simulatedScrapes() (m *Metrics, asked []int64, truth map[int64]uint64, changes *changeIndex) {
	rng := rand.New(rand.NewSource(3301))
	const step = int64(time.Second)
	start := int64(1_800_000_000) * int64(time.Second)
	c := &simCache{capacity: lowerBoundCapacity, listRV: 1000}
	rv, received := uint64(1000), 0
	head, recv, capac, inits := &metricPoints{lookback: 2 * step}, &metricPoints{lookback: 2 * step}, &metricPoints{lookback: 2 * step}, &metricPoints{lookback: 2 * step}
	truth = map[int64]uint64{}
	changes = &changeIndex{spanFrom: []uint64{rv}}
	cacheRV := rv
	for sec := int64(0); sec < 900; sec++ {
		// Bursts grow the ring, quiet stretches shrink it.
		rate := 1.0
		switch {
		case sec%200 < 40:
			rate = 8
		case sec%200 < 120:
			rate = 3
		}
		for k := 0; k < 1000; k++ {
			t := start + sec*step + int64(k)*int64(time.Millisecond)
			if rng.Float64() < 0.005 {
				rv++ // another resource's write
			}
			if rng.Float64() < rate/1000 {
				rv++
				c.add(rv, t)
				changes.rv = append(changes.rv, rv)
				received++
				cacheRV = rv
			}
			if k == 500 {
				truth[t] = c.refusesBelow()
				asked = append(asked, t)
			}
		}
		at := start + (sec+1)*step
		head.t, head.v = append(head.t, at), append(head.v, float64(cacheRV))
		recv.t, recv.v = append(recv.t, at), append(recv.v, float64(received))
		capac.t, capac.v = append(capac.t, at), append(capac.v, float64(c.capacity))
		inits.t, inits.v = append(inits.t, at), append(inits.v, 1)
	}
	sr := serverResource{"a", "configmaps"}
	m = &Metrics{Servers: []string{"a"}, head: map[serverResource]*metricPoints{sr: head}, recv: map[serverResource]*metricPoints{sr: recv},
		cap: map[serverResource]*metricPoints{sr: capac}, inits: map[serverResource][]*metricPoints{sr: {inits}}, serverResets: map[string][]counterReset{}}
	changes.spanTo = []uint64{rv}
	return m, asked, truth, changes
}

// The metrics' bounds hold for a simulated cache under rates that grow
// and shrink it, scraped every second: never a refusal below what it
// held, nor a hold above what it refused.
func TestCacheBoundsHoldForSimulatedCache(t *testing.T) {
	m, asked, truth, _ := simulatedScrapes()
	decided := 0
	for _, at := range asked {
		b := m.cacheBounds("a", "configmaps", -1, 0, at, nil, nil)
		want := truth[at]
		if b.refusedBelow > want {
			t.Errorf("at %s: the metrics say every RV below %d was refused, the cache refused below %d", FormatInstant(at, time.UTC), b.refusedBelow, want)
		}
		if b.held && b.heldFrom < want {
			t.Errorf("at %s: the metrics say every RV from %d was held, the cache refused below %d", FormatInstant(at, time.UTC), b.heldFrom, want)
		}
		if b.doubt == "" && b.refusedBelow > 0 && b.held && b.heldFrom-b.refusedBelow < 100 {
			decided++
		}
	}
	t.Logf("the bounds are within 100 RVs (10 to 20 s of changes) of each other at %d of %d instants", decided, len(asked))
	if decided < len(asked)/3 {
		t.Errorf("the bounds are that close at %d of %d instants, want at least a third", decided, len(asked))
	}
}

// Located in the changes a watch of the whole type saw, the simulated
// cache's bounds still hold, and close to within a few changes at many
// more instants than the counts alone allow: between two scrapes the
// head moves, not the count's guess of which change is the oldest.
func TestLocatedRingHoldsForSimulatedCache(t *testing.T) {
	m, asked, truth, changes := simulatedScrapes()
	tight := func(ch *changeIndex) (n, located int) {
		for _, at := range asked {
			b := m.cacheBounds("a", "configmaps", -1, 0, at, ch, nil)
			want := truth[at]
			if b.refusedBelow > want {
				t.Errorf("at %s: located, every RV below %d was refused (%s), the cache refused below %d", FormatInstant(at, time.UTC), b.refusedBelow, b.locatedLow.words(time.UTC), want)
			}
			if b.held && b.heldFrom < want {
				t.Errorf("at %s: located, every RV from %d was held (%s), the cache refused below %d", FormatInstant(at, time.UTC), b.heldFrom, b.locatedHigh.words(time.UTC), want)
			}
			if b.locatedLow.how != placedNone || b.locatedHigh.how != placedNone {
				located++
			}
			if b.doubt == "" && b.refusedBelow > 0 && b.held && b.heldFrom-b.refusedBelow < 20 {
				n++
			}
		}
		return n, located
	}
	counted, _ := tight(nil)
	n, located := tight(changes)
	t.Logf("within 20 RVs at %d of %d instants from the counts, %d located in the changes (%d where the changes bounded it)", counted, len(asked), n, located)
	if located == 0 || n < counted+len(asked)/10 {
		t.Errorf("located in the changes, the bounds are within 20 RVs at %d instants, from the counts at %d: want a tenth of the %d instants more", n, counted, len(asked))
	}
}
