// Package cli is watchlens's command line: serve and build the app, analyze
// captures for reports in CI and postmortems, record a watch's arrival times.
package cli

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"watchlens/site"
)

const usage = `usage: watchlens <command> [flags]

commands:
  serve   [-addr 127.0.0.1:8000] [-web DIR]   serve the app for local use
  build   -o DIR [-base /sub/path] [-web DIR]  write the static site
  analyze [flags] FILE...                      report on one or more captures (- is standard input)
  record  [-o FILE]                            copy stdin, prefixing each line with its arrival time

Flags may come before or after other arguments; -- ends them.
Run "watchlens <command> -h" for a command's flags.
`

// Main dispatches a subcommand and returns the process exit code: 0 on
// success, 1 when the command failed, 2 for a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "build":
		return runBuild(args[1:], stdout, stderr)
	case "analyze":
		return runAnalyze(args[1:], stdout, stderr)
	case "record":
		return runRecord(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "watchlens: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

// webFlagUsage is build's and serve's -web.
const webFlagUsage = "directory holding the built app.wasm, its other files replacing the built-in assets (default: ./web when it exists, as in a clone)"

// webDir is the -web folder: the one given, else ./web when there is one
// (in a clone, where `make wasm` builds into it), else none, and the
// binary's own files serve.
func webDir(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if st, err := os.Stat("web"); err == nil && st.IsDir() {
		return "web"
	}
	return ""
}

func runBuild(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("build", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("o", "", "output directory (required)")
	base := fl.String("base", "/", "URL path the site is hosted under, e.g. /watchlens")
	web := fl.String("web", "", webFlagUsage)
	if err := fl.Parse(flagsFirst(fl, args)); err != nil {
		return flagErrorCode(err)
	}
	if *out == "" || fl.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: watchlens build -o DIR [-base /sub/path] [-web DIR]")
		return 2
	}
	version, err := site.Build(*out, *base, webDir(*web), false)
	if err != nil {
		fmt.Fprintln(stderr, "watchlens build:", err)
		return 1
	}
	fmt.Fprintf(stdout, "static site written to %s (version %s, base %s)\n", *out, version, *base)
	return 0
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:8000", "address to listen on")
	web := fl.String("web", "", webFlagUsage)
	if err := fl.Parse(flagsFirst(fl, args)); err != nil {
		return flagErrorCode(err)
	}
	if fl.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: watchlens serve [-addr 127.0.0.1:8000] [-web DIR]")
		return 2
	}
	dir, err := os.MkdirTemp("", "watchlens-serve-")
	if err != nil {
		fmt.Fprintln(stderr, "watchlens serve:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Serving a fresh build of the same static site keeps `serve` and
	// `build` one code path; only the service worker differs.
	if _, err := site.Build(dir, "/", webDir(*web), true); err != nil {
		fmt.Fprintln(stderr, "watchlens serve:", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "watchlens serve:", err)
		return 1
	}
	fmt.Fprintf(stdout, "watchlens is at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	if err := http.Serve(ln, site.Handler(dir)); err != nil {
		fmt.Fprintln(stderr, "watchlens serve:", err)
		return 1
	}
	return 0
}
