//go:build !js

package solver

// noFileSystem is false where the databases can be kept in a directory
// (files_js.go).
const noFileSystem = false
