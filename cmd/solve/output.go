package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"fifteen/internal/record"
	"fifteen/solver"
)

// printer writes outcomes in the chosen format.
type printer struct {
	jsonl bool
	w     *bufio.Writer
}

func newPrinter(format string, w io.Writer) *printer {
	return &printer{jsonl: format == "jsonl", w: bufio.NewWriter(w)}
}

func (p *printer) print(rec *record.Record, cfg *config) error {
	if p.jsonl {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		p.w.Write(append(b, '\n'))
	} else if rec.Solved {
		quality := ""
		switch cfg.opts.Mode {
		case solver.Human:
			quality = ", not optimal: constructive"
		case solver.Greedy:
			quality = ", not optimal: greedy"
		case solver.Weighted:
			quality = fmt.Sprintf(", not optimal: at most %g× the optimum", cfg.opts.Weight)
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
