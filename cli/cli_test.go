package cli

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
		if code := Main(args, &out, &errOut); code != 2 {
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
		if code := Main(args, &out, &errOut); code != 0 {
			t.Errorf("watchlens %v: exit %d, want 0", args, code)
		}
	}
}

// TestAnalyzeHelpSaysExitCodes: what a CI author reads, --help for
// -fail-on and docs/cli.md's table of exit statuses, says when analyze
// exits 3 and that 0 means something was judged.
func TestAnalyzeHelpSaysExitCodes(t *testing.T) {
	var out, errOut bytes.Buffer
	Main([]string{"analyze", "-h"}, &out, &errOut)
	help := errOut.String()
	readme := string(testsample.Read(t, testsample.Path(t, "docs", "cli.md")))
	_, table, _ := strings.Cut(readme, "Exit statuses, of every command:")
	table, _, _ = strings.Cut(table, "\n\n`")
	for _, want := range []string{"0 only when every file gave something to judge", "Exit 3 when a file gave nothing to judge", "403", "reason on stderr"} {
		if !strings.Contains(help, want) {
			t.Errorf("analyze -h does not say %q:\n%s", want, help)
		}
	}
	for _, want := range []string{"every file gave something to judge", "| 3 |", "403", "`get`s", "`EventList`", "says why", "whether or not a reconnect explains it"} {
		if !strings.Contains(table, want) {
			t.Errorf("docs/cli.md's exit statuses do not say %q:\n%s", want, table)
		}
	}
}

// TestAnalyzeRefusesTimesOutOfRange: --resume-at and --restart refuse an
// instant outside the years the timeline's clock holds, which would wrap
// (9999-12-31 was answered as 1816), with a clear message.
func TestAnalyzeRefusesTimesOutOfRange(t *testing.T) {
	for _, args := range [][]string{
		{"--resume-at", "9999-12-31T00:00:00Z"},
		{"--resume-at", "0001-01-01T00:00:00Z"},
		{"--restart", "9999-12-31T00:00:00Z"},
		{"--restart", "2026-11-30T00:58:00Z/2263-01-01T00:00:00Z"},
	} {
		code, _, errOut := analyze(t, append(args, "samples/w3-then-resume.http")...)
		if code != 2 || !strings.Contains(errOut, "outside the years 1677 to 2262") {
			t.Errorf("analyze %v: exit %d, stderr %q; want 2 and the years it takes", args, code, errOut)
		}
	}
	if code, _, errOut := analyze(t, "--resume-at", "2262-04-11T00:00:00Z", "samples/w3-then-resume.http"); code != 0 {
		t.Errorf("--resume-at 2262-04-11: exit %d (%s)", code, errOut)
	}
}
