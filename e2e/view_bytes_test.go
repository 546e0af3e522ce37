//go:build !wasm

package e2e

import (
	"testing"

	"watchlens/app/engine"
)

// A frame question's view crosses to the engine's worker in its binary
// form (client.setView); the tests hand it to and read it from pages as
// the list of its bytes, which JSON carries as numbers.

// viewBytes is st's binary form as such a list.
func viewBytes(t testing.TB, st engine.ViewState) []int {
	t.Helper()
	b, err := st.AppendBinary(nil)
	must(t, err)
	ints := make([]int, len(b))
	for i, c := range b {
		ints[i] = int(c)
	}
	return ints
}

// viewOfBytes reads the view of such a list.
func viewOfBytes(t testing.TB, ints []int) engine.ViewState {
	t.Helper()
	b := make([]byte, len(ints))
	for i, c := range ints {
		b[i] = byte(c)
	}
	var st engine.ViewState
	if err := st.UnmarshalBinary(b); err != nil {
		t.Fatalf("a frame question's view of %d bytes: %v", len(b), err)
	}
	return st
}
