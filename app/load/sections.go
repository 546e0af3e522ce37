package load

import (
	"io"
	"sync"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// joined reads the files of one load through one reading worker as if
// they were one file: each file read on its own cost two round trips to
// the worker (its first slice, then its end), and the lab's 233 small
// files left the page idle between them for seconds of its load. The
// parser reads each file as a section of the whole, never past its end.
type joined struct {
	// mu: a parser that stops early may leave a goroutine reading ahead
	// (parser's prefetch); its last read and the next file's first are
	// taken one at a time, and the section keeps count of both.
	mu   sync.Mutex
	r    *jsrt.BlobReader
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
	return &joined{r: jsrt.NewBlobReader(goappjs.Unwrap(goapp.Window().Get("Blob").New(parts)))}
}

// section is one file of a joined read: its next size bytes.
type section struct {
	j    *joined
	left int64
	done bool
}

func (j *joined) next(size int64) *section { return &section{j: j, left: size} }

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

// finish passes over what the parser left of the file (it stopped at an
// error or at the page's limit of events), so that the next section
// starts at its own file's first byte, and says whether the joined read
// can go on.
func (s *section) finish() bool {
	s.j.mu.Lock()
	defer s.j.mu.Unlock()
	s.done = true
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
