package timeline

import "strconv"

// The event table is stored column by column in fixed-size chunks: a
// capture of millions of events then never needs one huge contiguous
// allocation (wasm memory grows in place and never shrinks, and append's
// doubling would briefly hold two copies of a slice of hundreds of MB).

const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// column is an append-only array split into chunks of chunkSize elements.
type column[T any] struct {
	chunks [][]T
	n      int
}

func (c *column[T]) add(v T) {
	if c.n&chunkMask == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkSize))
	}
	last := len(c.chunks) - 1
	c.chunks[last] = append(c.chunks[last], v)
	c.n++
}

func (c *column[T]) at(i int) T { return c.chunks[i>>chunkBits][i&chunkMask] }

func (c *column[T]) set(i int, v T) { c.chunks[i>>chunkBits][i&chunkMask] = v }

// permute returns a new column holding c[order[0]], c[order[1]], ...
func (c *column[T]) permute(order []int32) column[T] {
	var out column[T]
	for _, i := range order {
		out.add(c.at(int(i)))
	}
	return out
}

// Per-event flag bits.
const (
	flagRVValid    = 1 << iota // RV parsed as uint64
	flagInitial                // inside the initial burst of a sendInitialEvents stream
	flagInitialEnd             // the bookmark with k8s.io/initial-events-end
	flagTimed                  // instant measured (arrival time), not estimated
)

// eventTable holds every event of every file, about 38 bytes per event.
// After Build it is in time order (files merged on one clock).
type eventTable struct {
	t      column[int64]  // instant, Unix ns
	rv     column[uint64] // parsed resourceVersion (valid when flagRVValid)
	lane   column[int32]  // lane index, -1 for bookmarks and errors
	sess   column[int32]  // global session index
	seq    column[int32]  // 0-based ordinal inside its file (parser Event.Seq)
	off    column[int64]  // byte offset in the decompressed stream
	length column[uint32] // byte length (saturated)
	typ    column[uint8]  // parser.EventType
	flags  column[uint8]
}

func (e *eventTable) len() int { return e.t.n }

func (e *eventTable) permute(order []int32) eventTable {
	return eventTable{
		t: e.t.permute(order), rv: e.rv.permute(order), lane: e.lane.permute(order),
		sess: e.sess.permute(order), seq: e.seq.permute(order), off: e.off.permute(order),
		length: e.length.permute(order), typ: e.typ.permute(order), flags: e.flags.permute(order),
	}
}

// rvString is event i's resourceVersion as sent: odd holds the ones that
// are not plain numbers (the table keeps numbers only).
func (t *eventTable) rvString(odd map[int]string, i int) string {
	if s, ok := odd[i]; ok {
		return s
	}
	if t.flags.at(i)&flagRVValid != 0 {
		return strconv.FormatUint(t.rv.at(i), 10)
	}
	return ""
}
