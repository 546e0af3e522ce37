package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"watchlens/parser"
)

// runRecord copies stdin to a file (or stdout) with each line's arrival
// time before it, so a live `kubectl get --raw` or `curl -N` capture keeps
// the times the watch protocol itself does not send.
func runRecord(args []string) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: watchlens record [-o FILE]")
		fmt.Fprintln(fs.Output(), "Copies standard input to FILE (or standard output), each line prefixed with its arrival time (RFC 3339 nano, UTC) and a space.")
		fs.PrintDefaults()
	}
	outPath := fs.String("o", "", "write to `FILE` instead of standard output")
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return flagErrorCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	out := os.Stdout
	if *outPath != "" {
		f, err := os.Create(*outPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "watchlens record:", err)
			return 1
		}
		out = f
	}
	err := record(out, os.Stdin)
	if out != os.Stdout {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "watchlens record:", err)
		return 1
	}
	return 0
}

func record(out io.Writer, in io.Reader) error {
	tw := parser.NewTimestampWriter(out, time.Now)
	// io.Copy hands over each read as it arrives; a pipe read returns what
	// is there, so every line is stamped and written when it comes in.
	if _, err := io.Copy(tw, in); err != nil {
		return err
	}
	return tw.Close()
}
