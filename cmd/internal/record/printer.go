package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"fifteen/solver"
)

// Printer writes records as solve prints them: a line of text each, or a
// JSON line each (format "jsonl").
type Printer struct {
	jsonl  bool
	weight float64 // the weighted mode's, for its text
	w      *bufio.Writer
}

// NewPrinter returns a printer of records in format ("text" or "jsonl")
// on w; weight is the weighted mode's factor, which the text names.
func NewPrinter(format string, weight float64, w io.Writer) *Printer {
	return &Printer{jsonl: format == "jsonl", weight: weight, w: bufio.NewWriter(w)}
}

// Print writes the record, whole, before it returns.
func (p *Printer) Print(rec *Record) error {
	if p.jsonl {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		p.w.Write(append(b, '\n'))
	} else if rec.Solved {
		quality := ""
		switch rec.Mode {
		case solver.Constructive:
			quality = ", not optimal: constructive"
		case solver.Greedy:
			quality = ", not optimal: greedy"
		case solver.Weighted:
			quality = fmt.Sprintf(", not optimal: at most %g× the optimum", p.weight)
		}
		fmt.Fprintf(p.w, "%s: %d moves %s (h0 %d, %d generated, %d expanded, %.4f s, %.1f Mnodes/s%s)\n",
			rec.ID, *rec.Length, rec.Moves, rec.H0,
			rec.Generated, rec.Expanded, rec.Seconds, rec.NodesPerSecond/1e6, quality)
	} else {
		fmt.Fprintf(p.w, "%s: unsolved (h0 %d, %d generated, %d expanded, %.4f s)\n",
			rec.ID, rec.H0, rec.Generated, rec.Expanded, rec.Seconds)
	}
	return p.w.Flush()
}
