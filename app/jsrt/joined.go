package jsrt

import (
	"io"
	"sync"
)

// JoinedFiles reads the files of one load through one reading worker, as
// sections of one Blob of them all (the browser joins Blobs without
// copying their bytes): each file read on its own costs round trips to
// its worker (its first slice, then its end), and over the hundreds of
// small files of a recording those leave the reader idle for seconds.
// The files are read in order, each never past its end, and each is
// closed once read, which passes over what its reader left. Once the
// joined read fails, each file after it is read alone, and says its own
// reason.
type JoinedFiles struct {
	// mu: a parser that stops early may leave a goroutine reading ahead
	// (parser's prefetch); its last read and the next file's first are
	// taken one at a time, and the section keeps count of both.
	mu sync.Mutex
	// blob is the files joined, r its reader from where the read went on
	// (see FileSection.Close), and end where the last section given out
	// ends in it.
	blob  Value
	r     *BlobReader
	end   int64
	err   error       // the first read error of the joined Blob
	alone *BlobReader // the file read alone now, after err
	pause func()      // each reader's Pause
	skip  []byte
}

// skipAtMost is the most of a file its reader left that Close reads
// through to pass over: past it the read starts again at the next file
// with a new reader, whose worker must start first (spareWorker), where
// reading a large file's rest costs a slice of the worker's reading and
// a copy into Go per slice (blobSlice) of it. A small file after the
// page's limit, stopped at its first event, stays in the one read.
const skipAtMost = 1 << 20

// JoinFiles joins files, a JS Array of Blobs (Files), into one Blob to
// read as sections. pause is each reader's Pause (see BlobReader).
func JoinFiles(files Value, pause func()) *JoinedFiles {
	j := &JoinedFiles{blob: joinBlobs(files), pause: pause}
	j.r = j.reader(j.blob)
	return j
}

func (j *JoinedFiles) reader(blob Value) *BlobReader {
	r := NewBlobReader(blob)
	r.Pause = j.pause
	return r
}

// Start has the reading worker begin to read the files now
// (BlobReader.Start).
func (j *JoinedFiles) Start() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.r.Start()
}

// Next is the next file of the joined Blob: file, size bytes.
func (j *JoinedFiles) Next(file Value, size int64) *FileSection {
	j.end += size
	return &FileSection{j: j, file: file, left: size, size: size, end: j.end}
}

// Close ends the read and its reading worker.
func (j *JoinedFiles) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closeAlone()
	j.r.Close()
}

// HandBack ends the read: one more Read, at the Blob's end, hands the
// reading worker back for the next read (see BlobReader); a read ended
// early ends its worker.
func (j *JoinedFiles) HandBack() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closeAlone()
	if j.err == nil {
		var b [1]byte
		if _, err := j.r.Read(b[:]); err == io.EOF {
			return
		}
	}
	j.r.Close()
}

func (j *JoinedFiles) closeAlone() {
	if j.alone != nil {
		j.alone.Close()
		j.alone = nil
	}
}

// FileSection is one file's bytes in the joined Blob: the next size
// bytes of it, which end at end.
type FileSection struct {
	j          *JoinedFiles
	file       Value
	left, size int64
	end        int64
	alone      *BlobReader // the file read alone, after the joined read failed
	done       bool
}

func (s *FileSection) Read(p []byte) (int, error) {
	j := s.j
	j.mu.Lock()
	defer j.mu.Unlock()
	if s.done {
		return 0, io.EOF
	}
	if s.alone == nil && j.err != nil && s.left == s.size {
		j.closeAlone()
		s.alone = j.reader(s.file)
		j.alone = s.alone
	}
	if s.alone != nil {
		return s.alone.Read(p)
	}
	if s.left <= 0 {
		return 0, io.EOF
	}
	if j.err != nil {
		return 0, j.err
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := j.r.Read(p)
	s.left -= int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // the Blob ended before its files did
	}
	if err != nil {
		j.err = err
	}
	return n, err
}

// Close passes over what the file's reader left of it (it stopped at an
// error or at a limit of events), so that the next section starts at its
// own file's first byte. A little is read through; more is passed over
// without a read, by reading on from a slice of the joined Blob that
// begins at the next file (a slice of a Blob copies no byte), so that
// files stopped at a limit do not read gigabytes only to pass over them.
func (s *FileSection) Close() error {
	j := s.j
	j.mu.Lock()
	defer j.mu.Unlock()
	s.done = true
	if s.alone != nil {
		if j.alone == s.alone {
			j.alone = nil
		}
		return s.alone.Close()
	}
	if s.left > skipAtMost && j.err == nil {
		j.r.Close()
		j.r = j.reader(sliceBlob(j.blob, s.end))
		s.left = 0
	}
	for s.left > 0 && j.err == nil {
		if j.skip == nil {
			j.skip = make([]byte, 64<<10)
		}
		n, err := j.r.Read(j.skip[:min(int64(len(j.skip)), s.left)])
		s.left -= int64(n)
		if err != nil {
			j.err = err
		}
	}
	return nil
}
