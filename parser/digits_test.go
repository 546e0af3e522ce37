package parser

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
)

// FuzzCopyDecimal holds copyDecimal to strconv: the number and the
// bytes copied where every byte is a digit, false where one is not,
// whatever follows the digits in their word.
func FuzzCopyDecimal(f *testing.F) {
	for _, s := range []string{"0", "7", "12345678", "123456789", "1234567890123456", "99999999",
		"9999999999999999", "1000000000000000", "12a4", "1234567/", "12345678:", "123456789012345 ",
		"\x80\x81", "-1", "0000000000000009"} {
		f.Add(s, "\"}xxxxxxxxxxxxxxxxxx")
	}
	f.Fuzz(func(t *testing.T, s, after string) {
		if len(s) == 0 || len(s) > 16 {
			return
		}
		in := append([]byte(s), after...)
		v := in[: len(s) : len(s)+len(after)]
		if cap(v) < 16 {
			return
		}
		dst := make([]byte, 16)
		got, ok := copyDecimal(dst, v)
		digits := true
		for _, c := range []byte(s) {
			digits = digits && c >= '0' && c <= '9'
		}
		if ok != digits {
			t.Fatalf("copyDecimal(%q) says %v", s, ok)
		}
		if !ok {
			return
		}
		want, err := strconv.ParseUint(s, 10, 64)
		if err != nil || got != want || !bytes.Equal(dst[:len(s)], v) {
			t.Fatalf("copyDecimal(%q) = %d, copied %q; want %d (%v)", s, got, dst[:len(s)], want, err)
		}
	})
}

// TestCopyDecimalEveryLength reads a number of each length from 1 to 16
// digits, each digit 0 to 9 in every place, and the bytes around the
// digits' range in every place.
func TestCopyDecimalEveryLength(t *testing.T) {
	for n := 1; n <= 16; n++ {
		for d := range byte(10) {
			for at := range n {
				b := bytes.Repeat([]byte("9"), n+16)
				for k := range n {
					b[k] = '0' + byte(k*7+int(d))%10
				}
				b[at] = '0' + d
				v := b[:n]
				want, _ := strconv.ParseUint(string(v), 10, 64)
				dst := make([]byte, 16)
				if got, ok := copyDecimal(dst, v); !ok || got != want || string(dst[:n]) != string(v) {
					t.Fatalf("copyDecimal(%q) = %d %v, copied %q; want %d", v, got, ok, dst[:n], want)
				}
				for _, c := range []byte{'/', ':', 0x80 | '0', 0xff, 0} {
					b[at] = c
					if _, ok := copyDecimal(dst, v); ok {
						t.Fatalf("copyDecimal(%q) says it is a number", v)
					}
				}
			}
		}
	}
}

// TestLongResourceVersionsFillTheirBlock reads events whose
// resourceVersions have 17 and 18 digits, longer than a word pair reads:
// 240 of 17 digits leave their shared block 16 bytes, less than the next
// one needs, which must then start a block of its own.
func TestLongResourceVersionsFillTheirBlock(t *testing.T) {
	for _, digits := range []int{17, 18} {
		var in bytes.Buffer
		first := uint64(1)
		for range digits - 1 {
			first *= 10
		}
		const n = 600
		for i := range uint64(n) {
			fmt.Fprintf(&in, `{"type":"MODIFIED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm-%d","namespace":"ns","uid":"u-%d","resourceVersion":"%d"}}}`+"\n", i, i, first+i)
		}
		c, err := ReadAll(bytes.NewReader(in.Bytes()), Options{})
		if err != nil {
			t.Fatalf("%d digits: %v", digits, err)
		}
		if len(c.Events) != n {
			t.Fatalf("%d digits: %d events read, want %d", digits, len(c.Events), n)
		}
		for i, ev := range c.Events {
			if want := first + uint64(i); !ev.RVValid || ev.RVNum != want || ev.RV != strconv.FormatUint(want, 10) {
				t.Fatalf("%d digits: event %d has RV %q (%d, valid %v), want %d", digits, i, ev.RV, ev.RVNum, ev.RVValid, want)
			}
		}
	}
}
