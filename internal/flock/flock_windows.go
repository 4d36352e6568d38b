//go:build windows

package flock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockedByte is the offset of the byte that TryLock locks: far past any
// content, as Windows' locks are mandatory and a lock on the holder's
// words (Holder) would keep others from reading them.
const lockedByte = 1 << 62

// TryLock locks f exclusively without waiting (LockFileEx), and reports
// whether it could: false while another open file holds the lock. The
// system releases it when the file is closed, or its process ends.
func TryLock(f *os.File) (bool, error) {
	ol := windows.Overlapped{Offset: uint32(lockedByte & 0xffffffff), OffsetHigh: uint32(lockedByte >> 32)}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}
