package timeline

import "testing"

func TestSessionRVRange(t *testing.T) {
	for _, tc := range []struct {
		first, last string
		a, z        uint64
		ok          bool
	}{
		{"389", "1411", 389, 1411, true},
		{"", "", 0, 0, false},
		{"389", "abc", 0, 0, false},
		{"18446744073709551615", "18446744073709551615", NoRV, NoRV, true},
	} {
		a, z, ok := Session{FirstRV: tc.first, LastRV: tc.last}.RVRange()
		if ok != tc.ok || ok && (a != tc.a || z != tc.z) {
			t.Errorf("%q..%q: %d..%d %v", tc.first, tc.last, a, z, ok)
		}
	}
}
