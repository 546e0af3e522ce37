package quantity

import "testing"

func TestListed(t *testing.T) {
	for _, tc := range []struct {
		names []string
		shown int
		want  string
	}{
		{nil, 3, ""},
		{[]string{"a"}, 3, "a"},
		{[]string{"a", "b"}, 3, "a and b"},
		{[]string{"a", "b", "c"}, 3, "a, b and c"},
		{[]string{"a", "b", "c", "d"}, 3, "a, b, c and 1 more"},
		{[]string{"a", "b", "c", "d", "e"}, 3, "a, b, c and 2 more"},
	} {
		if got := Listed(tc.names, tc.shown); got != tc.want {
			t.Errorf("Listed(%q, %d) = %q, want %q", tc.names, tc.shown, got, tc.want)
		}
	}
}

// TestPlural: a sibilant noun takes -es ("155 watches", not "watchs").
func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{{1, "watch", "1 watch"}, {155, "watch", "155 watches"}, {2, "client", "2 clients"}, {0, "relist", "0 relists"}, {3, "pass", "3 passes"}} {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
