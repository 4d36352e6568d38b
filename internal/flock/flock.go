// Package flock holds advisory locks on files (flock(2)), which the system
// releases when their holder ends, however it ends: a crashed holder
// blocks nobody.
package flock

import (
	"context"
	"errors"
	"os"
	"time"
)

// pollEvery is how often Lock tries again while another process holds
// the lock: the system offers no wait that a context can cut short.
const pollEvery = 50 * time.Millisecond

// Lock locks the file at path, created if need be, exclusively: while
// another holder has it, it calls onWait once (if not nil) and waits,
// until ctx ends. release unlocks it.
func Lock(ctx context.Context, path string, onWait func()) (release func() error, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for waited := false; ; waited = true {
		ok, err := TryLock(f)
		if err != nil || ok {
			if err != nil {
				f.Close()
				return nil, err
			}
			return f.Close, nil // closing the file releases the lock
		}
		if !waited && onWait != nil {
			onWait()
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
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
	return f.Close, nil // closing the file releases the lock
}
