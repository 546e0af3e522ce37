package timeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"watchlens/internal/testsample"
	"watchlens/parser"
)

// An audit log reports its progress as a capture does, in bytes of its
// input up to its size (the page's bar stayed at "0 B" while it read
// one), and stops when Cancel says to.
func TestAuditLogProgress(t *testing.T) {
	name := filepath.Join(testsample.Recording(t, "samples-lab"), "audit-a-1.log")
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	read := func(cancelAfter int) ([]ReadProgress, error) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b := NewBuilder()
		var seen []ReadProgress
		b.Progress = func(p ReadProgress) { seen = append(seen, p) }
		b.Cancel = func() bool { return cancelAfter > 0 && len(seen) >= cancelAfter }
		err = b.AddReader("audit-a-1.log", f, parser.Options{})
		return seen, err
	}
	seen, err := read(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 || seen[len(seen)-1].Bytes != st.Size() {
		t.Fatalf("progress of a %d-byte audit log: %+v", st.Size(), seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].File != "audit-a-1.log" || seen[i].Bytes <= seen[i-1].Bytes {
			t.Errorf("report %d after %+v: %+v", i, seen[i-1], seen[i])
		}
	}
	if _, err := read(1); !errors.Is(err, ErrCancelled) {
		t.Errorf("cancelled after the first report: %v", err)
	}
}
