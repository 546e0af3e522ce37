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
