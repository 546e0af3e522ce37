package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// input is a file analyze reads: one the user named, or one found in a
// folder they named.
type input struct {
	name  string
	found bool
}

// inputs lists the files to read for the names given: a folder stands
// for every file under it, in the order of their paths, leaving out the
// hidden ones (a name that starts with a dot, as .git does), since the
// folder an incident left is what a user has, as the page takes a
// dropped folder. A folder that cannot be walked is said in errs, and the
// rest is read.
func inputs(names []string) (in []input, errs []error) {
	for _, name := range names {
		if name == "-" {
			in = append(in, input{name: name})
			continue
		}
		st, err := os.Stat(name)
		if err != nil || !st.IsDir() {
			// openInput says why a file cannot be opened.
			in = append(in, input{name: name})
			continue
		}
		// WalkDir goes in lexical order.
		err = filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if p != name && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if isFile(p, d) {
				in = append(in, input{name: p, found: true})
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return in, errs
}

// isFile says whether the entry p of a walk is a file to read: a regular
// file, or a link to one.
func isFile(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink != 0 {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular()
	}
	return d.Type().IsRegular()
}
