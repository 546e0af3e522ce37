//go:build js && wasm

package main

import (
	"io"
	"syscall/js"

	"watchlens/app/jsrt"
)

// joined reads a load's Files as sections of one Blob of them all, as
// the page does (app/load's sections.go): each reader of the reading
// worker costs a round trip to it before its first bytes, and over the
// hundreds of small files of a recording those round trips are most of
// the read; joined, there is one. The engine reads
// the files in order and closes each (engine.Source.Data), which passes
// over what it left. Once the joined read fails, each file after it is
// read alone, and says its own reason.
type joined struct {
	blob js.Value
	r    *jsrt.BlobReader
	end  int64 // where the last section handed out ends
	err  error // the first read error of the joined Blob
	skip []byte
}

// skipAtMost is the most a section's Close reads through to pass over
// what the engine left of a file; past it the read starts again at the
// next file.
const skipAtMost = 1 << 20

// joinFiles joins files, a JS Array of File objects, into one Blob.
func joinFiles(files js.Value) *joined {
	blob := js.Global().Get("Blob").New(files)
	r := jsrt.NewBlobReader(blob)
	r.Pause = nil // this thread is the engine's own
	return &joined{blob: blob, r: r}
}

// section is the next file of the joined Blob, size bytes.
func (j *joined) section(file js.Value, size int64) *section {
	j.end += size
	return &section{j: j, file: file, left: size, size: size, end: j.end}
}

// close ends the joined read.
func (j *joined) close() { j.r.Close() }

// section is one file's bytes in the joined Blob.
type section struct {
	j          *joined
	file       js.Value
	left, size int64
	end        int64
	alone      *jsrt.BlobReader // the file read alone, after the joined read failed
	done       bool
}

func (s *section) Read(p []byte) (int, error) {
	if s.alone == nil && s.j.err != nil && s.left == s.size {
		s.alone = jsrt.NewBlobReader(s.file)
		s.alone.Pause = nil
	}
	if s.alone != nil {
		return s.alone.Read(p)
	}
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

// Close passes over what the engine left of the file, so that the next
// one starts at its own first byte: reading through a little, or reading
// again from the next file on.
func (s *section) Close() error {
	s.done = true
	if s.alone != nil {
		return s.alone.Close()
	}
	j := s.j
	if s.left > skipAtMost && j.err == nil {
		j.r.Close()
		j.r = jsrt.NewBlobReader(j.blob.Call("slice", s.end))
		j.r.Pause = nil
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
