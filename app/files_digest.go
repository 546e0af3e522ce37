package app

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// A link made on dropped files names them (?file=, one each), so that
// the page it opens can ask for them and restore the view once they are
// dropped again (Page.renderRestore). An incident's folder is hundreds
// of files: named one by one, its link is tens of kilobytes, too long to
// paste into a chat, and the browser spends tens of milliseconds taking
// every new URL of it while the view moves. Past maxNamedFiles the link
// carries the files' count and a digest of their names instead
// (?files=214-9f86d081884c7d65), which tells the same files dropped
// again, in any order, from others.

// maxNamedFiles is how many files a link names one by one.
const maxNamedFiles = 12

// filesDigestOf is the count and digest that stand for names in a link.
func filesDigestOf(names []string) string {
	sorted := slices.Sorted(slices.Values(names))
	h := fnv.New64a()
	for _, n := range sorted {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	return strconv.Itoa(len(names)) + "-" + strconv.FormatUint(h.Sum64(), 16)
}

// filesDigestCount is the count of files a link's digest stands for;
// false for a value no link writes.
func filesDigestCount(set string) (int, bool) {
	count, digest, ok := strings.Cut(set, "-")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n <= maxNamedFiles || digest == "" || len(digest) > 16 {
		return 0, false
	}
	if _, err := strconv.ParseUint(digest, 16, 64); err != nil {
		return 0, false
	}
	return n, true
}

// needsFiles says whether the view is of dropped files: named, or
// standing in a link's digest.
func (v viewState) needsFiles() bool { return len(v.files) > 0 || v.filesDigest != "" }

// sameFiles says whether a and b are of the same dropped files: the same
// names, or names whose digest is the other's.
func sameFiles(a, b viewState) bool {
	switch {
	case a.filesDigest != "" && b.filesDigest != "":
		return a.filesDigest == b.filesDigest
	case a.filesDigest != "":
		return len(b.files) > maxNamedFiles && filesDigestOf(b.files) == a.filesDigest
	case b.filesDigest != "":
		return len(a.files) > maxNamedFiles && filesDigestOf(a.files) == b.filesDigest
	}
	return slices.Equal(a.files, b.files)
}
