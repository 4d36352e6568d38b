//go:build !unix

package atomicfile

import "os"

// fileID reports false: the resolved path alone names the lock.
func fileID(os.FileInfo) (string, bool) { return "", false }
