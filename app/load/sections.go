package load

import (
	"io"
	"sync"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// joined reads the files of one load through one reading worker as if
// they were one file: each file read on its own costs two round trips to
// the worker (its first slice, then its end), and over the lab's
// hundreds of small files those would leave the page idle between them
// for much of its load. The
// parser reads each file as a section of the whole, never past its end.
type joined struct {
	// mu: a parser that stops early may leave a goroutine reading ahead
	// (parser's prefetch); its last read and the next file's first are
	// taken one at a time, and the section keeps count of both.
	mu sync.Mutex
	// blob is the files' Blobs joined, r its reader from where the read
	// went on (see section.finish), and end where the last section
	// given out ends in it.
	blob goapp.Value
	r    *jsrt.BlobReader
	end  int64
	err  error // the first read error: the files after it are read alone
	skip []byte
}

// joinSources makes one Blob of the sources' Blobs, which the browser
// does without copying their bytes.
func joinSources(sources []Source) *joined {
	parts := goapp.Window().Get("Array").New()
	for _, s := range sources {
		parts.Call("push", s.Blob)
	}
	blob := goapp.Window().Get("Blob").New(parts)
	return &joined{blob: blob, r: jsrt.NewBlobReader(goappjs.Unwrap(blob))}
}

// section is one file of a joined read: its next size bytes, which end
// at end in the joined Blob.
type section struct {
	j    *joined
	left int64
	end  int64
	done bool
}

func (j *joined) next(size int64) *section {
	j.end += size
	return &section{j: j, left: size, end: j.end}
}

func (s *section) Read(p []byte) (int, error) {
	s.j.mu.Lock()
	defer s.j.mu.Unlock()
	if s.done || s.left <= 0 {
		return 0, io.EOF
	}
	if s.j.err != nil {
		return 0, s.j.err
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.j.r.Read(p)
	s.left -= int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // the Blob ended before its files did
	}
	if err != nil {
		s.j.err = err
	}
	return n, err
}

// skipAtMost is the most of a file the parser left that finish reads
// through to pass over: past it the read starts again at the next file
// with a new reader, whose worker must start first (jsrt's
// spareWorker), where reading a large file's rest costs a slice of the
// worker's reading and a copy into Go per 16 MiB of it. A small file
// after the page's limit, stopped at its first event, stays in the one
// read.
const skipAtMost = 1 << 20

// finish passes over what the parser left of the file (it stopped at an
// error or at the page's limit of events), so that the next section
// starts at its own file's first byte, and says whether the joined read
// can go on. A little is read through; more is passed over without a
// read, by reading on from a slice of the joined Blob that begins at the
// next file (a slice of a Blob copies no byte), so that files stopped at
// the page's limit do not read gigabytes only to pass over them.
func (s *section) finish() bool {
	s.j.mu.Lock()
	defer s.j.mu.Unlock()
	s.done = true
	if s.left > skipAtMost && s.j.err == nil {
		s.j.r.Close()
		s.j.r = jsrt.NewBlobReader(goappjs.Unwrap(s.j.blob.Call("slice", s.end)))
		s.left = 0
	}
	for s.left > 0 && s.j.err == nil {
		if s.j.skip == nil {
			s.j.skip = make([]byte, 64<<10)
		}
		n, err := s.j.r.Read(s.j.skip[:min(int64(len(s.j.skip)), s.left)])
		s.left -= int64(n)
		if err != nil {
			s.j.err = err
		}
	}
	return s.j.err == nil
}

// close ends the read: one more Read, at the Blob's end, hands the
// reading worker back for the next load (see jsrt.BlobReader); a read
// ended early ends its worker.
func (j *joined) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		var b [1]byte
		if _, err := j.r.Read(b[:]); err == io.EOF {
			return
		}
	}
	j.r.Close()
}
