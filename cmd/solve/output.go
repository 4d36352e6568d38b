package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"fifteen/bitboard"
	"fifteen/search"
	"fifteen/solver"
)

// record is one puzzle's JSONL line.
type record struct {
	ID             string             `json:"id"`
	Size           string             `json:"size"`
	Start          []int              `json:"start"`
	Goal           string             `json:"goal"`
	Solved         bool               `json:"solved"`
	Optimal        bool               `json:"optimal"`
	Length         *int               `json:"length,omitempty"`
	Moves          string             `json:"moves"`
	Tiles          []int              `json:"tiles"`
	Heuristic      string             `json:"heuristic"`
	Threads        int                `json:"threads"`
	H0             int                `json:"h0"`
	Expanded       uint64             `json:"expanded"`
	Generated      uint64             `json:"generated"`
	Seconds        float64            `json:"seconds"`
	NodesPerSecond float64            `json:"nodes_per_second"`
	Iterations     []search.Iteration `json:"iterations"`
	Error          string             `json:"error,omitempty"`
}

// printer writes outcomes in the chosen format.
type printer struct {
	jsonl bool
	w     *bufio.Writer
}

func newPrinter(format string, w io.Writer) *printer {
	return &printer{jsonl: format == "jsonl", w: bufio.NewWriter(w)}
}

func (p *printer) print(r *solver.Result, err error, cfg *config) error {
	if p.jsonl {
		rec := record{
			ID:             r.Puzzle.ID,
			Size:           r.Puzzle.Size.String(),
			Start:          r.Puzzle.Tiles,
			Goal:           cfg.opts.Goal.String(),
			Solved:         err == nil,
			Optimal:        err == nil && r.Optimal,
			Moves:          bitboard.FormatMoves(r.Moves),
			Tiles:          r.Tiles,
			Heuristic:      r.Heuristic,
			Threads:        cfg.opts.Threads,
			H0:             r.H0,
			Expanded:       r.Expanded,
			Generated:      r.Generated,
			Seconds:        r.Elapsed.Seconds(),
			NodesPerSecond: r.NodesPerSecond(),
			Iterations:     r.Iterations,
		}
		if rec.Iterations == nil {
			rec.Iterations = []search.Iteration{} // the constructive solver's
		}
		if err == nil {
			n := r.Length()
			rec.Length = &n
		} else {
			rec.Moves, rec.Tiles = "", []int{}
			rec.Error = err.Error()
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		p.w.Write(append(b, '\n'))
	} else if err == nil {
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
			r.Puzzle.ID, r.Length(), bitboard.FormatMoves(r.Moves), r.H0,
			r.Generated, r.Expanded, r.Elapsed.Seconds(), r.NodesPerSecond()/1e6, quality)
	} else {
		fmt.Fprintf(p.w, "%s: unsolved (h0 %d, %d generated, %d expanded, %.4f s)\n",
			r.Puzzle.ID, r.H0, r.Generated, r.Expanded, r.Elapsed.Seconds())
	}
	return p.w.Flush()
}
