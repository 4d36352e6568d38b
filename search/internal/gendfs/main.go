// Command gendfs writes search's node loops, dfs.go, from one template:
// dfs, which looks up each of up to four views in code of its own, and
// dfsWide, which loops over any number of views. Both share the template's node, lookup and descent; unrolling
// the views measured faster than the loop on the heuristics of up to four
// views (docs/experiments.md), so both forms are kept, written once.
//
// Usage, from the search package (go generate):
//
//	go run ./internal/gendfs [-o dfs.go]
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"go/format"
	"os"
	"text/template"
)

//go:embed dfs.go.tmpl
var source string

// A lookup names the variables of one view's lookup: the view and its
// patterns, and the moved pattern, its index, cells, entry and value.
type lookup struct {
	V, P, Pat, I, O, E, X string
}

// unrolled is the lookup of view k in dfs.
func unrolled(k int) lookup {
	n := func(s string) string { return fmt.Sprint(s, k) }
	return lookup{V: n("v"), P: n("p"), Pat: n("pat"), I: n("i"), O: n("o"), E: n("e"), X: n("x")}
}

func main() {
	out := flag.String("o", "dfs.go", "the file to write")
	flag.Parse()
	src, err := generate()
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendfs:", err)
		os.Exit(1)
	}
}

// generate returns dfs.go, formatted.
func generate() ([]byte, error) {
	t, err := template.New("dfs").Funcs(template.FuncMap{"unrolled": unrolled}).Parse(source)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	wide := lookup{V: "view", P: "p", Pat: "pat", I: "i", O: "o", E: "e", X: "x"}
	if err := t.Execute(&b, map[string]any{"Views": []int{0, 1, 2, 3}, "Wide": wide}); err != nil {
		return nil, err
	}
	return format.Source(b.Bytes())
}
