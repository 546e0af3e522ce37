package cli

import (
	"flag"
	"io"
	"os"
	"strings"
)

// flagsFirst reorders a command's arguments so that flag.FlagSet.Parse,
// which stops at the first argument that is not a flag, sees every flag:
// `analyze capture.log --format json` works, as kubectl's commands do. A
// flag's value is the argument after it, unless the flag is boolean or
// written -name=value; "--" ends the flags, and "-" is an argument
// (standard input).
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			// What follows is arguments, some perhaps like flags. A flag
			// before "--" has its value (the "--" itself at worst), so
			// "--" cannot become the value of the last flag here.
			return append(append(append(flags, "--"), rest...), args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return append(flags, rest...)
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// stdinName is the name the reports give the capture read from "-".
const stdinName = "stdin"

// stdin is what the file name "-" reads; tests replace it.
var stdin io.Reader = os.Stdin

// openInput opens a capture to analyse: "-" is standard input.
func openInput(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(name)
}
