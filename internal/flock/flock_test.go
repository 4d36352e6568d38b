//go:build unix

package flock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	release, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A second holder waits, says so, and gives up when its context
	// ends; once the first releases, it gets the lock.
	waited := false
	ctx, cancel := context.WithTimeout(context.Background(), 3*pollEvery)
	defer cancel()
	if _, err := Lock(ctx, path, func(holder string) {
		waited = holder == fmt.Sprintf("process %d (%s)", os.Getpid(), filepath.Base(os.Args[0]))
	}); !errors.Is(err, context.DeadlineExceeded) || !waited {
		t.Fatalf("a held lock: %v, waited %v", err, waited)
	}
	go func() {
		time.Sleep(2 * pollEvery)
		release()
	}()
	second, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := second(); err != nil {
		t.Fatal(err)
	}
}
