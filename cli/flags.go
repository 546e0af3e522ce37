package cli

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// flagErrorCode is the exit status for a flag parsing error: -h asked for
// the usage, which is no failure; anything else is a usage error.
func flagErrorCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// byteSize is a flag of a size in bytes: a number, with KiB, MiB or GiB
// after it or not ("256MiB").
type byteSize int64

// maxByteSize bounds a byteSize flag: the parser keeps a whole event
// or list of that size in memory, and a protobuf frame's length has
// 32 bits.
const maxByteSize = 4<<30 - 1

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	num, unit := strings.TrimSpace(s), int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, unit = strings.TrimSpace(rest), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > maxByteSize/unit {
		return fmt.Errorf("want a size from 1 byte to 4GiB, e.g. 256MiB")
	}
	*b = byteSize(n * unit)
	return nil
}

// flagSet says whether the command line gave flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
