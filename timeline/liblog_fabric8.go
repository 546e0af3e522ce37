package timeline

import (
	"slices"

	"watchlens/parser"
)

// fabric8 informers of one path.
//
// fabric8's Reflector names an informer by its path only ("Listing items
// (2) for v1/namespaces/lab/configmaps at v336"); two informers of one
// namespace and resource with different selectors write the same words.
// What tells them apart, in this order: the watch manager's URL, which
// names the selector ("Watching https://...?labelSelector=shard%3Ds17...");
// the line's thread, the informer's own executor, on which its
// Reflector lists, starts its watcher and sends its watch within a
// millisecond (`Reflector.java` l.181–267: "[pool-2-thread-1]"); and,
// for a line of neither (a thread the URLs never name, or a layout
// without threads), the informer's requests, which never overlap: the
// Reflector lists and starts its watcher just before its watch request
// goes out, so those lines are of the informer whose URL comes next,
// and a 410 (logged on OkHttp's thread) is of the informer whose watch
// was open and that lists next (libClients).

// fabric8Informers returns a fabric8 log's lines with each Reflector line
// of a path that more than one informer watches named after its informer
// (its path and selectors), as told above; a path one informer watches
// names it.
func fabric8Informers(lines []parser.LibLine) []parser.LibLine {
	keys := map[string][]string{} // path -> the informers' keys, as the URLs name them
	for _, ln := range lines {
		if ln.Kind == parser.LibRequest && ln.Request != nil && !slices.Contains(keys[ln.Request.Path], ln.Client) {
			keys[ln.Request.Path] = append(keys[ln.Request.Path], ln.Client)
		}
	}
	out := make([]parser.LibLine, len(lines))
	copy(out, lines)
	for i := range out {
		ln := &out[i]
		ks := keys[ln.Client]
		switch {
		case ln.Kind == parser.LibRequest, len(ks) == 0:
		case len(ks) == 1:
			ln.Client = ks[0]
		default:
			ln.Client = fabric8Informer(out, i)
		}
	}
	return out
}

// fabric8Informer names the informer of the line at i, of a path that
// several informers watch: the one whose URL its thread sends next (or,
// past its last, sent last); else, for a list or a watch about to start,
// the one whose URL comes next within libWatchLag; else none ("": a 410
// then goes to the informer that lists next).
func fabric8Informer(lines []parser.LibLine, i int) string {
	ln := &lines[i]
	isURL := func(k int) bool {
		return lines[k].Kind == parser.LibRequest && lines[k].Request != nil && lines[k].Request.Path == ln.Client
	}
	if ln.Thread != "" {
		for k := i + 1; k < len(lines); k++ {
			if isURL(k) && lines[k].Thread == ln.Thread {
				return lines[k].Client
			}
		}
		for k := i - 1; k >= 0; k-- {
			if isURL(k) && lines[k].Thread == ln.Thread {
				return lines[k].Client
			}
		}
	}
	if ln.Kind == parser.LibListed || ln.Kind == parser.LibWatchStart {
		for k := i + 1; k < len(lines) && lines[k].Time-ln.Time <= libWatchLag; k++ {
			if isURL(k) {
				return lines[k].Client
			}
		}
	}
	return ""
}
