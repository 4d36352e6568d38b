//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"syscall"
)

// fileID returns the file's device and inode numbers, which name it
// whatever path reaches it.
func fileID(info os.FileInfo) (string, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%x-%x", uint64(st.Dev), uint64(st.Ino)), true
}
