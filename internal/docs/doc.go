// Package docs holds no code: its test checks that every relative link
// and #anchor in README.md and docs/ resolves, as GitHub renders them.
package docs
