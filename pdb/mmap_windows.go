//go:build windows

package pdb

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mapFile maps size bytes of f read-only (a file mapping), so that every
// process mapping the file uses the same pages of the system's cache.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	m, err := windows.CreateFileMapping(windows.Handle(f.Fd()), nil, windows.PAGE_READONLY, 0, 0, nil)
	if err != nil {
		return nil, nil, os.NewSyscallError("CreateFileMapping", err)
	}
	defer windows.CloseHandle(m) // the view keeps the mapping
	addr, err := windows.MapViewOfFile(m, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, os.NewSyscallError("MapViewOfFile", err)
	}
	// The view's address, as a pointer: its bits, not a conversion of a
	// uintptr that the collector may not see (go vet's unsafeptr).
	b := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), size)
	return b, func() error { return windows.UnmapViewOfFile(addr) }, nil
}
