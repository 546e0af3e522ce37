package timeline

// A uid the apiserver made is a UUID in its canonical text, 36 bytes of
// lowercase hex and hyphens: the lane table keeps such a uid as its 16
// bytes, and any other uid as it came.

const (
	uuidText  = 36
	uuidBytes = 16
	hexDigits = "0123456789abcdef"
)

// appendUUID appends the 16 bytes of s to b when s is a UUID in its
// canonical text, and says whether it was; b is unchanged when not.
func appendUUID(b []byte, s string) ([]byte, bool) {
	if len(s) != uuidText || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return b, false
	}
	// A table, not comparisons: every new object's uid is read so, and
	// as wasm the branches were most of a lane's making.
	var u [uuidBytes]byte
	var bad byte
	for k, i := range uuidDigits {
		hi, lo := hexValues[s[i]], hexValues[s[i+1]]
		bad |= hi | lo
		u[k] = hi<<4 | lo
	}
	if bad > 15 {
		return b, false
	}
	return append(b, u[:]...), true
}

// uuidDigits are where each byte's two digits start in a UUID's text.
var uuidDigits = [uuidBytes]uint8{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34}

// hexValues is the value of each lowercase hex digit, and 16 for any
// other byte (the canonical text is lowercase, so formatUUID gives back
// the uid it was made of).
var hexValues = func() (v [256]byte) {
	for c := range v {
		v[c] = 16
	}
	for i := range len(hexDigits) {
		v[hexDigits[i]] = byte(i)
	}
	return v
}()

// formatUUID is the canonical text of the 16 bytes u.
func formatUUID(u []byte) string {
	var s [uuidText]byte
	i := 0
	for k, c := range u[:uuidBytes] {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			s[i] = '-'
			i++
		}
		s[i], s[i+1] = hexDigits[c>>4], hexDigits[c&15]
		i += 2
	}
	return string(s[:])
}
