//go:build !unix && !windows

package flock

import "os"

// TryLock reports true: this system (WebAssembly) has no file locks, and
// callers go on as if they held them (docs/design.md, "Platforms").
func TryLock(*os.File) (bool, error) { return true, nil }
