//go:build !wasm

package main

import (
	"bytes"
	"strings"
	"testing"

	"watchlens/internal/testsample"
)

func TestCLIUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"bogus"},
		{"build"},
		{"build", "-o"},
		{"build", "-nope", "x"},
		{"serve", "extra"},
		{"serve", "-addr"},
	} {
		var out, errOut bytes.Buffer
		if code := runCLI(args, &out, &errOut); code != 2 {
			t.Errorf("watchlens %v: exit %d, want 2", args, code)
		}
		if !strings.Contains(strings.ToLower(errOut.String()), "usage") {
			t.Errorf("watchlens %v: stderr %q does not show the usage", args, errOut.String())
		}
	}
}

func TestCLIHelpIsNoError(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"build", "-h"}, {"serve", "-h"}, {"analyze", "-h"}, {"record", "-h"}} {
		var out, errOut bytes.Buffer
		if code := runCLI(args, &out, &errOut); code != 0 {
			t.Errorf("watchlens %v: exit %d, want 0", args, code)
		}
	}
}

// TestAnalyzeHelpSaysExitCodes: what a CI author reads, --help for
// -fail-on and the README's table of exit statuses, says when analyze
// exits 3 and that 0 means something was judged.
func TestAnalyzeHelpSaysExitCodes(t *testing.T) {
	var out, errOut bytes.Buffer
	runCLI([]string{"analyze", "-h"}, &out, &errOut)
	help := errOut.String()
	readme := string(testsample.Read(t, testsample.Path(t, "README.md")))
	_, table, _ := strings.Cut(readme, "Exit statuses, of every command:")
	table, _, _ = strings.Cut(table, "\n\n`")
	for _, want := range []string{"0 only when every file gave something to judge", "Exit 3 when a file gave nothing to judge", "403", "reason on stderr"} {
		if !strings.Contains(help, want) {
			t.Errorf("analyze -h does not say %q:\n%s", want, help)
		}
	}
	for _, want := range []string{"every file gave something to judge", "| 3 |", "403", "`get`s", "`EventList`", "says why", "whether or not a reconnect explains it"} {
		if !strings.Contains(table, want) {
			t.Errorf("the README's exit statuses do not say %q:\n%s", want, table)
		}
	}
}
