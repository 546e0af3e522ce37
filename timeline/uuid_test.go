package timeline

import "testing"

// TestAppendUUID reads a UUID's canonical text as its 16 bytes and back,
// and keeps as text any uid that is not one: a byte other than a
// lowercase hex digit at any digit's place, or a hyphen misplaced.
func TestAppendUUID(t *testing.T) {
	const uid = "0a1b2c3d-4e5f-6789-abcd-ef0123456789"
	u, ok := appendUUID(nil, uid)
	if !ok || len(u) != uuidBytes || u[0] != 0x0a || u[15] != 0x89 {
		t.Fatalf("appendUUID(%q) = %x, %v", uid, u, ok)
	}
	if back := formatUUID(u); back != uid {
		t.Errorf("formatUUID gives %q, want %q", back, uid)
	}
	for i := range len(uid) {
		for c := range 256 {
			b := []byte(uid)
			b[i] = byte(c)
			want := b[i] == uid[i] || uid[i] != '-' && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f')
			if _, ok := appendUUID(nil, string(b)); ok != want {
				t.Fatalf("%q: a UUID %v, want %v", b, ok, want)
			}
		}
	}
	if _, ok := appendUUID(nil, uid+"0"); ok {
		t.Error("a 37-byte uid read as a UUID")
	}
}
