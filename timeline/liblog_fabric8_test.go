package timeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

// TestFabric8InformersOfOnePath: fabric8's log with its two informers on
// one path (the secrets informer's lines moved to ConfigMaps: shard s17
// and shard s01, whose Reflector lines read alike) holds two clients,
// each with its own selector, lists, 410s and error: told apart by the
// thread each informer's lines name, and in a layout without threads by
// the URL that follows each list and by which informer lists after each
// 410 and error.
func TestFabric8InformersOfOnePath(t *testing.T) {
	log := strings.NewReplacer("v1/namespaces/lab/secrets", "v1/namespaces/lab/configmaps", "/lab/secrets?", "/lab/configmaps?").
		Replace(string(testsample.Read(t, filepath.Join("..", "parser", "testdata", "fabric8-informer.log"))))
	const s17, s01 = "/api/v1/namespaces/lab/configmaps labelSelector=shard=s17", "/api/v1/namespaces/lab/configmaps labelSelector=shard=s01"
	for _, c := range []struct{ name, log string }{
		{"threads", log},
		{"no threads", regexp.MustCompile(`(?m)^(\S+ \S+) \[[^\]]*\] `).ReplaceAllString(log, "$1 ")},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "fabric8-one-path.log")
			if err := os.WriteFile(p, []byte(c.log), 0o644); err != nil {
				t.Fatal(err)
			}
			b := NewBuilder()
			addFiles(t, b, p)
			tl := b.Build()
			got := map[string][3]int{} // lists, 410s, errors
			for _, f := range tl.Files {
				var n [3]int
				for _, g := range f.Sessions {
					s := &tl.Sessions[g]
					switch {
					case s.isList():
						n[0]++
					case s.Error != nil && s.Error.Code == 410:
						n[1]++
					case s.Error != nil:
						n[2]++
					}
				}
				got[f.Client] = n
				if f.Filtered != "filtered" {
					t.Errorf("%s: filtered %q, its URLs name its selector", f.Client, f.Filtered)
				}
			}
			// c097's TRUTH.tsv for s17 (3 lists, 2 410s); s01's log: 2
			// lists and the watch that failed between them.
			if want := map[string][3]int{s17: {3, 2, 0}, s01: {2, 0, 1}}; len(got) != 2 || got[s17] != want[s17] || got[s01] != want[s01] {
				t.Errorf("clients %v, want %v", got, want)
			}
		})
	}
}
