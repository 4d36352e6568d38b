package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGenerated checks that search's dfs.go is what the template makes:
// run go generate in search after changing either.
func TestGenerated(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../dfs.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Error("search/dfs.go differs from its template's: run go generate in search")
	}
}
