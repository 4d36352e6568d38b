// Package flock holds advisory locks on files (flock(2)), which the system
// releases when their holder ends, however it ends: a crashed holder
// blocks nobody.
package flock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// pollEvery is how often Lock tries again while another process holds
// the lock: the system offers no wait that a context can cut short.
const pollEvery = 50 * time.Millisecond

// Lock locks the file at path, created if need be, exclusively: while
// another holder has it, it calls onWait once (if not nil) with what the
// file says of the holder (Holder), and waits, until ctx ends. release
// unlocks it.
func Lock(ctx context.Context, path string, onWait func(holder string)) (release func() error, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for waited := false; ; waited = true {
		ok, err := TryLock(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if ok {
			return held(f), nil
		}
		if !waited && onWait != nil {
			onWait(Holder(path))
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(pollEvery):
		}
	}
}

// ErrHeld is Hold's error while another holder has the lock.
var ErrHeld = errors.New("held by another process")

// Hold locks the file at path, created if need be, exclusively, without
// waiting: while another holder has it, it returns ErrHeld. release
// unlocks it.
func Hold(path string) (release func() error, err error) {
	f, err := openLocked(path, 0o644)
	if err != nil {
		return nil, err
	}
	return held(f), nil
}

// HoldRemovable is Hold for a lock file that its release removes, so
// that a lock leaves nothing behind: once locked, it checks that path
// still names its file, which a holder releasing it may have removed
// meanwhile, and if not tries again with the new file.
func HoldRemovable(path string) (release func() error, err error) {
	for {
		f, err := openLocked(path, 0o600)
		if err != nil {
			return nil, err
		}
		info, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(info, named) {
			closeFile := held(f)
			// Removed while held: no one locks it after.
			return func() error { return errors.Join(os.Remove(path), closeFile()) }, nil
		}
		f.Close()
	}
}

// openLocked opens the file at path, created with perm if need be, and
// locks it without waiting: ErrHeld while another holder has it.
func openLocked(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	ok, err := TryLock(f)
	if err == nil && !ok {
		err = ErrHeld
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// held writes who holds the lock on f into it, for those who wait
// (Holder), and returns its release: closing the file releases the lock.
func held(f *os.File) func() error {
	if f.Truncate(0) == nil {
		fmt.Fprintf(f, "process %d (%s)\n", os.Getpid(), filepath.Base(os.Args[0]))
	}
	return f.Close
}

// Holder returns what the lock file at path says of its holder, such as
// "process 1234 (solve)", or "another process" if it says nothing (a
// holder of an earlier version, or one between its lock and its word).
func Holder(path string) string {
	data, err := os.ReadFile(path)
	if h := strings.TrimSpace(string(data)); err == nil && strings.HasPrefix(h, "process ") && len(h) < 200 {
		return h
	}
	return "another process"
}
