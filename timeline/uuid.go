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
	var u [uuidBytes]byte
	for i, k := 0, 0; k < uuidBytes; i, k = i+2, k+1 {
		if s[i] == '-' {
			i++
		}
		hi, lo := hexValue(s[i]), hexValue(s[i+1])
		if hi > 15 || lo > 15 {
			return b, false
		}
		u[k] = hi<<4 | lo
	}
	return append(b, u[:]...), true
}

// hexValue is the value of a lowercase hex digit, 16 or more for any
// other byte (the canonical text is lowercase, so formatUUID gives back
// the uid it was made of).
func hexValue(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return 16
}

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
