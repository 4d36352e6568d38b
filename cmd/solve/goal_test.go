package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"fifteen/cmd/internal/record"
	"fifteen/puzzle"
)

// TestGoalBoard solves toward goal boards from the command line: given
// puzzles and random ones, their records with the goal's tiles, each
// solution replayed to the goal; and the flags that take the conventions
// only.
func TestGoalBoard(t *testing.T) {
	goal := "1 2 3 4 0 5 6 7 8"
	status, _, stderr := runSolve(t, "a: 1 2 3 0 4 5 6 7 8\nb: 2 1 3 0 4 5 6 7 8\n", "--goal", goal, "--format", "jsonl")
	if status != 1 || !strings.Contains(stderr, "b: unsolvable") || !strings.Contains(stderr, "(goal 1 2 3 4 0 5 6 7 8)") {
		t.Fatalf("status %d, stderr %s", status, stderr)
	}
	status, out, stderr := runSolve(t, "", "--random", "6", "--seed", "3", "--goal", goal, "--format", "jsonl")
	if status != 0 || strings.Count(out, `"solved":true`) != 6 {
		t.Fatalf("--random 6 toward %s: status %d\n%s%s", goal, status, out, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec record.Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		moves, _ := puzzle.ParseMoves(rec.Moves)
		end, _, err := puzzle.Puzzle{Size: puzzle.Size{Rows: 3, Cols: 3}, Tiles: rec.Start}.Apply(moves)
		if rec.Goal != "board" || !slices.Equal(rec.GoalTiles, []int{1, 2, 3, 4, 0, 5, 6, 7, 8}) || err != nil || !slices.Equal(end.Tiles, rec.GoalTiles) {
			t.Errorf("record %s: not a solution toward the goal board", line)
		}
	}
	// A goal board that is a convention's is the convention.
	if _, out, _ := runSolve(t, "1 2 3 4 5 6 7 0 8\n", "--goal", "1 2 3 4 5 6 7 8 0", "--format", "jsonl"); !strings.Contains(out, `"goal":"last"`) || strings.Contains(out, "goal_tiles") {
		t.Errorf("the last convention's goal board: %s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--checkpoint", "c.json"}, "--checkpoint and --resume save searches toward the goal conventions"},
		{[]string{"--results", "r"}, "a split job (--results) takes the goal conventions"},
		{[]string{"--random", "2", "--size", "4x4"}, "--size 4x4, but --goal is a 3x3 board"},
		{[]string{"--korf100"}, "--set and --korf100 use Korf's goal"},
	} {
		status, _, stderr := runSolve(t, "", append(c.args, "--goal", goal)...)
		if status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, status, stderr, c.want)
		}
	}
}
