package load

import (
	"io"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// sourceReaders gives the engine each source's bytes, sizes[i] of
// sources[i]: the files of a load of more than one are read through one
// reading worker, as sections of one Blob of them all
// (jsrt.JoinedFiles), where each file read on its own cost two round
// trips to its worker and the lab's 233 small files left the page idle
// between them. end ends what is still reading, so that a read that
// panics (see Safely) does not leave its worker running; a joined read
// that got to its end hands its worker to the next load.
func sourceReaders(sources []Source, sizes []int64) (data []io.Reader, end func()) {
	data = make([]io.Reader, len(sources))
	if len(sources) == 1 {
		r := jsrt.NewBlobReader(goappjs.Unwrap(sources[0].Blob))
		data[0] = r
		return data, func() { r.Close() }
	}
	parts := goapp.Window().Get("Array").New()
	for _, s := range sources {
		parts.Call("push", s.Blob)
	}
	all := jsrt.JoinFiles(goappjs.Unwrap(parts), jsrt.YieldIfHeld)
	for i, s := range sources {
		data[i] = all.Next(goappjs.Unwrap(s.Blob), sizes[i])
	}
	return data, all.HandBack
}
