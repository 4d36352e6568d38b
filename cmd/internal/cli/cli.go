// Package cli is the commands' shared layer: the skeleton of a command
// (its flags parsed and checked once, a context that Ctrl-C ends, its
// exit status), the flags that several commands take, each defined once
// and checked where it is set, and what they report of database builds
// and failures.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// The exit statuses of the commands.
const (
	StatusOK     = 0 // done
	StatusFailed = 1 // a failure, reported on standard error
	StatusUsage  = 2 // a bad flag or argument
	StatusAgain  = 3 // solve --merge: the split job's tasks must run again
)

// UsageError is a request that cannot be carried out as it is made,
// found once the flags are parsed (flags that exclude each other given
// the input, databases that cannot be opened): the command exits with
// StatusUsage.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ErrReported stands for failures that were reported on standard error
// as they happened, a line each (a puzzle's "ID: why"): the command adds
// nothing and exits with StatusFailed.
var ErrReported = errors.New("failures reported above")

// Status reports err on stderr as "name: err", with what the user can do
// about it (Explain), unless it is ErrReported,
// and returns the exit status the commands share for it: StatusOK for
// nil, StatusUsage for a *UsageError, else StatusFailed.
func Status(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, ErrReported):
		return StatusFailed
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, Explain(err))
	if errors.As(err, new(*UsageError)) {
		return StatusUsage
	}
	return StatusFailed
}

// Context returns a context that the signals end (SIGINT and SIGTERM
// where none are named), for the command to stop its work cleanly. Once
// it has ended, the program no longer catches them: a second one ends it
// at once, whatever it waits on.
func Context(signals ...os.Signal) (context.Context, context.CancelFunc) {
	if len(signals) == 0 {
		signals = []os.Signal{os.Interrupt, syscall.SIGTERM}
	}
	ctx, stop := signal.NotifyContext(context.Background(), signals...)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}
