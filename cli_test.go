//go:build !wasm

package main

import (
	"bytes"
	"strings"
	"testing"
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
