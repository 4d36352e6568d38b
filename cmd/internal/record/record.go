// Package record is the JSON form of a solve, shared by the solve
// command's JSONL lines and the web API's answers, so that a script reads
// both the same way.
package record

import (
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// Record is one puzzle's outcome. A puzzle left unsolved has no length,
// empty moves and tiles, the error's message, and the counts so far.
type Record struct {
	ID             string             `json:"id"`
	Size           string             `json:"size"`
	Start          []int              `json:"start"`
	Goal           string             `json:"goal"`                 // first, last, or board
	GoalTiles      []int              `json:"goal_tiles,omitempty"` // the goal board's, if goal is board
	Mode           solver.Mode        `json:"mode"`
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

// New returns the record of a solve with opts that gave r and err.
func New(r *solver.Result, err error, opts solver.Options) Record {
	rec := Record{
		ID:             r.Puzzle.ID,
		Size:           r.Puzzle.Size.String(),
		Start:          r.Puzzle.Tiles,
		Goal:           goalName(opts),
		Mode:           opts.Mode,
		Solved:         err == nil,
		Optimal:        err == nil && r.Optimal,
		Moves:          puzzle.FormatMoves(r.Moves),
		Tiles:          r.Tiles,
		Heuristic:      r.Heuristic,
		Threads:        opts.Threads,
		H0:             r.H0,
		Expanded:       r.Expanded,
		Generated:      r.Generated,
		Seconds:        r.Elapsed.Seconds(),
		NodesPerSecond: r.NodesPerSecond(),
		Iterations:     r.Iterations,
	}
	if opts.GoalBoard != nil {
		rec.GoalTiles = opts.GoalBoard.Tiles
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
	return rec
}

// goalName returns the goal's name in a record: the convention's, or
// "board" for a goal board, whose tiles the record holds.
func goalName(opts solver.Options) string {
	if opts.GoalBoard != nil {
		return "board"
	}
	return opts.Goal.String()
}
