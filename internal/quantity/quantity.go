// Package quantity says counts and sizes as a person reads them, in the
// report, the summary and the page alike.
package quantity

import (
	"fmt"
	"strconv"
	"strings"
)

// Bytes says a size in bytes as a person reads it: "1.5 MiB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}

// Plural says "1 event" or "3 events".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	// "watches", "passes": a sibilant takes -es.
	for _, end := range []string{"ch", "sh", "s", "x", "z"} {
		if strings.HasSuffix(noun, end) {
			return strconv.Itoa(n) + " " + noun + "es"
		}
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Listed says the first shown of names, and how many more there are,
// as a sentence does: "a and b", "a, b and c", "a, b, c and 5 more".
func Listed(names []string, shown int) string {
	if len(names) <= shown {
		if len(names) < 2 {
			return strings.Join(names, "")
		}
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}
