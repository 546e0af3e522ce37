package site

import (
	"io/fs"
	"net/http"
	"path"
)

// Handler serves the site built into dir, as `serve` does, with the
// headers a page cannot carry itself: the part of its security policy
// that forbids framing it, and nosniff on every response, so that a
// browser never runs a sample or an asset as another type than the one
// it is served as (Go's file server sent nosniff with its 404s alone).
// A folder is not listed: one without an index.html is not found.
func Handler(dir string) http.Handler {
	files := http.FileServer(unlisted{http.Dir(dir)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", frameAncestors)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}

// unlisted is a file system whose folders open only when they hold an
// index.html, which the file server then serves instead of a listing.
type unlisted struct{ fs http.FileSystem }

func (u unlisted) Open(name string) (http.File, error) {
	f, err := u.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.IsDir() {
		index, ierr := u.fs.Open(path.Join(name, "index.html"))
		if err != nil || ierr != nil {
			f.Close()
			return nil, fs.ErrNotExist
		}
		index.Close()
	}
	return f, nil
}
