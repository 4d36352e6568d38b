package testtool

import (
	"os"
	"testing"
)

// LongEnv names the environment variable that runs the tests that take
// minutes in full (the docs' examples, the 7-tile databases' searches,
// exhaustive runs): "1", as .ci/run sets it. README's test command leaves
// it unset, and those tests run a cheaper form, or skip, saying so.
const LongEnv = "FIFTEEN_LONG_TESTS"

// Long reports whether the tests that take minutes run in full (LongEnv).
func Long() bool { return os.Getenv(LongEnv) == "1" }

// SkipUnlessLong skips the test, saying why it is long and how to run it,
// unless the long tests run (Long).
func SkipUnlessLong(t testing.TB, why string) {
	t.Helper()
	if !Long() {
		t.Skipf("%s: runs with %s=1", why, LongEnv)
	}
}
