package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"fifteen/bitboard"
	"fifteen/search"
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

func (p *printer) print(o *outcome, cfg *config) error {
	if p.jsonl {
		r := record{
			ID:             o.puzzle.ID,
			Size:           o.puzzle.Size.String(),
			Start:          o.puzzle.Tiles,
			Goal:           cfg.goal.String(),
			Solved:         o.err == nil,
			Optimal:        o.err == nil && cfg.optimal(),
			Moves:          bitboard.FormatMoves(o.res.Moves),
			Tiles:          o.tiles,
			Heuristic:      o.heuristic,
			Threads:        cfg.threads,
			H0:             o.res.H0,
			Expanded:       o.res.Expanded,
			Generated:      o.res.Generated,
			Seconds:        o.res.Elapsed.Seconds(),
			NodesPerSecond: o.res.NodesPerSecond(),
			Iterations:     o.res.Iterations,
		}
		if o.err == nil {
			n := o.res.Length()
			r.Length = &n
		} else {
			r.Moves, r.Tiles = "", []int{}
			r.Error = o.err.Error()
		}
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		p.w.Write(append(b, '\n'))
	} else if o.err == nil {
		quality := ""
		switch {
		case cfg.constructive:
			quality = ", not optimal: constructive"
		case cfg.greedy:
			quality = ", not optimal: greedy"
		case cfg.weight != 1:
			quality = fmt.Sprintf(", not optimal: at most %g× the optimum", cfg.weight)
		}
		fmt.Fprintf(p.w, "%s: %d moves %s (h0 %d, %d generated, %d expanded, %.4f s, %.1f Mnodes/s%s)\n",
			o.puzzle.ID, o.res.Length(), bitboard.FormatMoves(o.res.Moves), o.res.H0,
			o.res.Generated, o.res.Expanded, o.res.Elapsed.Seconds(), o.res.NodesPerSecond()/1e6, quality)
	} else {
		fmt.Fprintf(p.w, "%s: unsolved (h0 %d, %d generated, %d expanded, %.4f s)\n",
			o.puzzle.ID, o.res.H0, o.res.Generated, o.res.Expanded, o.res.Elapsed.Seconds())
	}
	return p.w.Flush()
}
