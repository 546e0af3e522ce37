package parser

import (
	"bytes"
	"testing"
)

// TestEqualBytes differs two slices, and equalStrings two strings, at
// every position, for lengths across the word and block sizes that
// equalBytes compares by under wasm.
func TestEqualBytes(t *testing.T) {
	for n := 0; n <= 80; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('a' + i%26)
		}
		b := bytes.Clone(a)
		if !equalBytes(a, b) || !equalStrings(string(a), string(b)) {
			t.Fatalf("len %d: equal slices compared unequal", n)
		}
		if n > 0 && equalBytes(a, b[:n-1]) {
			t.Fatalf("len %d: slices of different lengths compared equal", n)
		}
		for i := range n {
			b[i] ^= 0x80
			if equalBytes(a, b) || equalStrings(string(a), string(b)) {
				t.Fatalf("len %d: a difference at %d went unseen", n, i)
			}
			b[i] ^= 0x80
		}
	}
}

// TestCommonPrefix differs two slices at every position, for lengths
// across the runs that equalRuns compares by, natively and under wasm,
// and the words after them.
func TestCommonPrefix(t *testing.T) {
	for n := 0; n <= 200; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('a' + i%26)
		}
		b := bytes.Clone(a)
		if got := commonPrefix(a, b); got != n {
			t.Fatalf("len %d: equal slices share %d bytes", n, got)
		}
		if n > 0 {
			if got := commonPrefix(a, b[:n-1]); got != n-1 {
				t.Fatalf("len %d: a slice and its prefix of %d share %d bytes", n, n-1, got)
			}
		}
		for i := range n {
			b[i] ^= 0x80
			if got := commonPrefix(a, b); got != i {
				t.Fatalf("len %d: differing at %d, they share %d bytes", n, i, got)
			}
			b[i] ^= 0x80
		}
	}
}

// TestMetadataKey tells each key of metadata that the fast path reads,
// and the same key with any one byte changed or one byte more or less,
// as metadataKey's comparisons by words under wasm must.
func TestMetadataKey(t *testing.T) {
	keys := map[string]int{"name": mName, "namespace": mNamespace, "uid": mUID, "resourceVersion": mRV,
		"creationTimestamp": mCreation, "deletionTimestamp": mDeletion, "annotations": mAnnotations,
		"managedFields": mManagedFields, "labels": mLabels, "ownerReferences": mOwners}
	for k, want := range keys {
		if got := metadataKey([]byte(k)); got != want {
			t.Fatalf("metadataKey(%q) = %d, want %d", k, got, want)
		}
		for _, other := range []string{k[1:], k[:len(k)-1], k + "s", "x" + k} {
			if got := metadataKey([]byte(other)); got != mOther {
				t.Fatalf("metadataKey(%q) = %d, want %d (another key)", other, got, mOther)
			}
		}
		b := []byte(k)
		for i := range b {
			b[i] ^= 0x20
			if got := metadataKey(b); got != mOther {
				t.Fatalf("metadataKey(%q) = %d, want %d (another key)", b, got, mOther)
			}
			b[i] ^= 0x20
		}
	}
}
