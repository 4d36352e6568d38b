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
	"strings"
	"syscall"

	"github.com/spf13/pflag"
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

// Status reports err on stderr as "name: err", unless it is ErrReported,
// and returns the exit status the commands share for it: StatusOK for
// nil, StatusUsage for a *UsageError, else StatusFailed.
func Status(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, ErrReported):
		return StatusFailed
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, Message(err))
	if errors.As(err, new(*UsageError)) {
		return StatusUsage
	}
	return StatusFailed
}

// Message returns err's message as a command says it after its own name:
// without the prefix of the package it comes from ("solver: "), which
// would read as a second name (issue 57: "solve: solver: weight …").
func Message(err error) string {
	msg := err.Error()
	for _, pkg := range []string{"solver: ", "search: ", "pdb: "} {
		if rest, ok := strings.CutPrefix(msg, pkg); ok {
			return rest
		}
	}
	return msg
}

// Parse parses args into fs's flags and then runs check, the command's
// checks of its flags against one another (nil: none). It reports
// whether the command goes on; if not, it returns the exit status:
// StatusOK after --help, StatusUsage after a usage error, which it
// reports on stderr as "NAME: error".
func Parse(fs *pflag.FlagSet, args []string, stderr io.Writer, check func() error) (status int, ok bool) {
	fs.SetOutput(stderr)
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return StatusOK, false
	}
	if err == nil && check != nil {
		err = check()
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", fs.Name(), Message(err))
		return StatusUsage, false
	}
	return StatusOK, true
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
