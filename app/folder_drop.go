package app

import (
	"slices"
	"strings"

	"watchlens/app/jsrt"
	"watchlens/app/jsrt/goappjs"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
)

// droppedFile is a file to open: one the user chose or dropped, or one
// found in a folder they dropped (found), which the load leaves out when
// it holds no watch record (timeline.Builder.LeaveOutUnread).
type droppedFile struct {
	name  string
	blob  goapp.Value
	found bool
}

// droppedEntries are the file-system entries of a drop's items (see
// web/drop.js), or nil when none is a folder, and the drop's plain file
// list is all there is.
func droppedEntries(all goapp.Value) []goapp.Value {
	var entries []goapp.Value
	folder := false
	for i := 0; i < all.Length(); i++ {
		e := all.Index(i)
		folder = folder || e.Get("isDirectory").Bool()
		entries = append(entries, e)
	}
	if !folder {
		return nil
	}
	return entries
}

// readDropped lists the files of dropped entries: a file as itself, a
// folder as every file under it, in the order of their paths and without
// the hidden ones (a name that starts with a dot), as the command line
// reads a folder. What the browser fails to hand over is said in
// problems. It waits on the browser's callbacks: call it from a
// goroutine.
func readDropped(entries []goapp.Value) (files []droppedFile, problems []string) {
	var walk func(e goapp.Value, found bool)
	walk = func(e goapp.Value, found bool) {
		path := strings.TrimPrefix(e.Get("fullPath").String(), "/")
		if !e.Get("isDirectory").Bool() {
			f, err := entryCall(e, "file")
			if err != "" {
				problems = append(problems, path+": "+err)
				return
			}
			files = append(files, droppedFile{name: path, blob: f, found: found})
			return
		}
		// readEntries gives a folder's entries a batch at a time, and an
		// empty batch at the end.
		reader := e.Call("createReader")
		var children []goapp.Value
		for {
			batch, err := entryCall(reader, "readEntries")
			if err != "" {
				problems = append(problems, path+": "+err)
				break
			}
			if batch.Length() == 0 {
				break
			}
			for i := 0; i < batch.Length(); i++ {
				if c := batch.Index(i); !strings.HasPrefix(c.Get("name").String(), ".") {
					children = append(children, c)
				}
			}
		}
		slices.SortFunc(children, func(a, b goapp.Value) int { return strings.Compare(a.Get("name").String(), b.Get("name").String()) })
		for _, c := range children {
			walk(c, true)
		}
	}
	for _, e := range entries {
		walk(e, false)
	}
	return files, problems
}

// entryCall calls a file-system entry's method that answers through a
// success and an error callback, and waits for its answer, or the
// error's message.
func entryCall(v goapp.Value, method string) (goapp.Value, string) {
	executor := goapp.FuncOf(func(_ goapp.Value, args []goapp.Value) any {
		v.Call(method, args[0], args[1])
		return nil
	})
	defer executor.Release()
	answer, err := jsrt.Await(goappjs.Unwrap(goapp.Window().Get("Promise").New(executor)))
	if err != nil {
		return nil, err.Error()
	}
	return goapp.ValueOf(answer), ""
}
