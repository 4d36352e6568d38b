package main

import (
	"testing"

	"fifteen/internal/testtool"
)

// TestDocsFlags checks that docs/cli.md's table of web's flags lists
// every flag web takes, and no other (issue 77).
func TestDocsFlags(t *testing.T) {
	cmd, _ := flags(&config{})
	testtool.CheckDocFlags(t, cmd.FlagSet, "../../docs/cli.md", "### The web page and the JSON API")
}
