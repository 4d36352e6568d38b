// Package layers holds no code: its test checks the layers of
// docs/design.md, that every package of the module imports only from its
// own layer and those below, as go/build's deps_test does for the
// standard library.
package layers
