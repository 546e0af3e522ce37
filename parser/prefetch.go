package parser

import "io"

// prefetchReader decompresses ahead in its own goroutine, so that
// decompression and parsing overlap instead of taking turns. It holds at
// most prefetchBlocks blocks.
type prefetchReader struct {
	full  chan prefetchBlock
	free  chan []byte
	stop  chan struct{}
	cur   []byte
	buf   []byte // the block cur is in, to give back
	err   error
	ended bool
}

type prefetchBlock struct {
	b   []byte
	err error
}

// Blocks of 1 MiB, four of them: with smaller blocks the hand-offs between
// the goroutines cost as much as they save, and more blocks gain nothing
// (docs/performance.md has the decompression figures).
const (
	prefetchBlocks    = 4
	prefetchBlockSize = 1 << 20
)

func newPrefetchReader(r io.Reader) *prefetchReader {
	p := &prefetchReader{
		full: make(chan prefetchBlock, prefetchBlocks),
		free: make(chan []byte, prefetchBlocks),
		stop: make(chan struct{}),
	}
	for range prefetchBlocks - 1 {
		p.free <- make([]byte, prefetchBlockSize)
	}
	go prefetch(r, p.full, p.free, p.stop)
	return p
}

// prefetch fills free blocks from r until r fails or stop is closed. It
// must not refer to the Reader, whose cleanup closes stop.
func prefetch(r io.Reader, full chan<- prefetchBlock, free <-chan []byte, stop <-chan struct{}) {
	for {
		var buf []byte
		select {
		case buf = <-free:
		case <-stop:
			return
		}
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var k int
			k, err = r.Read(buf[n:])
			n += k
		}
		select {
		case full <- prefetchBlock{buf[:n], err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func (p *prefetchReader) Read(dst []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.ended {
			return 0, p.err
		}
		p.load()
	}
	n := copy(dst, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// load gives back the block read last and waits for the next one.
func (p *prefetchReader) load() {
	if p.buf != nil {
		p.free <- p.buf[:cap(p.buf)]
		p.buf = nil
	}
	blk := <-p.full
	p.buf, p.cur = blk.b, blk.b
	if blk.err != nil {
		p.ended, p.err = true, blk.err
	}
}

// peek returns up to n of the next bytes without taking them: the first
// ones of a block, which are enough to sniff the stream's start.
func (p *prefetchReader) peek(n int) []byte {
	for len(p.cur) == 0 && !p.ended {
		p.load()
	}
	return p.cur[:min(n, len(p.cur))]
}

// nextBlock returns the unread rest of the current block, or the next
// block, to be read in place: it stays valid until the following call,
// which gives it back. At the end it returns nil and the error that ended
// the stream (io.EOF at a clean end). Reading in place saves the parser a
// copy of every byte, a large part of its time.
func (p *prefetchReader) nextBlock() ([]byte, error) {
	for len(p.cur) == 0 {
		if p.ended {
			return nil, p.err
		}
		p.load()
	}
	b := p.cur
	p.cur = nil
	return b, nil
}

// close stops the goroutine of a Reader given up before the end.
func (p *prefetchReader) close() { close(p.stop) }
