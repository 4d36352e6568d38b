package main

import (
	"strings"
	"testing"

	"fifteen/internal/testtool"
)

// TestDocsFlags checks that docs/cli.md's table of web's flags lists
// every flag web takes, and no other (issue 77).
func TestDocsFlags(t *testing.T) {
	cmd, _ := flags(&config{})
	testtool.CheckDocFlags(t, cmd.FlagSet, "../../docs/cli.md", "### The web page and the JSON API")
}

// TestPartitionHelp checks that web's --partition help names the sizes
// web takes, and no rule of other boards (issue 77: it named 4x5's).
func TestPartitionHelp(t *testing.T) {
	cmd, _ := flags(&config{})
	if usage := cmd.FlagSet.Lookup("partition").Usage; strings.Contains(usage, "4x5") || !strings.Contains(usage, "4x4 or 5x5 boards") {
		t.Errorf("web --partition: %s", usage)
	}
}
