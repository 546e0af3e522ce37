package cli

import (
	"fmt"
	"os"
	"testing"

	"watchlens/internal/testsample"
)

// TestMain runs the tests from the module root, as a user's shell in a
// clone would: they name the captures as samples/NAME and testdata/NAME,
// and build and serve find ./web there.
func TestMain(m *testing.M) {
	root, err := testsample.FindRoot()
	if err == nil {
		err = os.Chdir(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
