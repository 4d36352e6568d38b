package data

import (
	"testing"

	"fifteen/puzzle"
)

func TestKorf100(t *testing.T) {
	set := Korf100()
	if len(set) != 100 {
		t.Fatalf("%d instances, want 100", len(set))
	}
	sum := 0
	for _, in := range set {
		sum += in.Optimal
		if !in.Solvable(puzzle.GoalFirst) {
			t.Errorf("%s is unsolvable under Korf's goal", in.ID)
		}
	}
	// The file's header: the optimal lengths sum to 5305; instance 1 is 57 moves.
	if sum != 5305 || set[0].Optimal != 57 || set[0].ID != "korf1" {
		t.Errorf("lengths sum to %d, instance 1 is %s with %d moves", sum, set[0].ID, set[0].Optimal)
	}
}

// TestKorf50 checks the 24-puzzle instances against their files' headers,
// and the published counts.
func TestKorf50(t *testing.T) {
	set := Korf50()
	if len(set) != 50 {
		t.Fatalf("%d instances, want 50", len(set))
	}
	sum := 0
	for _, in := range set {
		sum += in.Optimal
		if in.Size != (puzzle.Size{Rows: 5, Cols: 5}) || !in.Solvable(puzzle.GoalFirst) {
			t.Errorf("%s is not a solvable 5x5 under Korf's goal", in.ID)
		}
	}
	// The optimal lengths sum to 5039, from 81 (ID 25) to 114 (ID 10).
	if sum != 5039 || set[24].Optimal != 81 || set[9].Optimal != 114 || set[24].ID != "k24-25" {
		t.Errorf("lengths sum to %d; %s has %d moves, %s %d", sum, set[24].ID, set[24].Optimal, set[9].ID, set[9].Optimal)
	}
	efforts := Korf50Effort()
	var total Effort
	for _, in := range set {
		e := efforts[in.ID]
		total.KorfFelner2002 += e.KorfFelner2002
		total.Doebbelin6666 += e.Doebbelin6666
		total.DoebbelinMax += e.DoebbelinMax
		total.Clausecker2019 += e.Clausecker2019
	}
	// The totals the file's last line gives; Korf and Felner's count runs
	// from 38 M for instance 38 to 4.2 × 10^12 for 50.
	want := Effort{KorfFelner2002: 18_044_623_983_548, Doebbelin6666: 3_550_228_935_356, DoebbelinMax: 389_717_236_933, Clausecker2019: 1_180_783_277_381}
	if len(efforts) != 50 || total != want || efforts["k24-50"].KorfFelner2002 != 4_156_099_168_506 {
		t.Errorf("%d instances, totals %+v; k24-50: %+v", len(efforts), total, efforts["k24-50"])
	}
}

func TestPick(t *testing.T) {
	set, err := ParseSet("korf50")
	if err != nil {
		t.Fatal(err)
	}
	easy, err := set.Pick([]int{38, 40, 25})
	if err != nil || len(easy.Instances) != 3 || easy.Instances[0].ID != "k24-38" || easy.Instances[2].ID != "k24-25" || easy.Goal != puzzle.GoalFirst {
		t.Errorf("Pick(38, 40, 25) = %+v, %v", easy, err)
	}
	for _, bad := range [][]int{{0}, {51}, {1, -2}} {
		if _, err := set.Pick(bad); err == nil {
			t.Errorf("Pick(%v) accepted", bad)
		}
	}
}

func TestParseSetErrors(t *testing.T) {
	for _, text := range []string{"1 57 1 2 3\n", "1 x 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n", "1 57 14 14 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n"} {
		if _, err := parseSet(text, puzzle.Size{Rows: 4, Cols: 4}, "korf"); err == nil {
			t.Errorf("parseSet(%q) accepted", text)
		}
	}
}

func TestKorf1985(t *testing.T) {
	figures := Korf1985()
	var sum uint64
	for _, f := range figures {
		sum += f.Generated
	}
	// The header: the 100 figures sum to 35,991,891,875; instance 42 is 877,823.
	if len(figures) != 100 || sum != 35_991_891_875 || figures["korf42"].Generated != 877_823 || figures["korf1"].H0 != 41 {
		t.Errorf("%d figures summing to %d; korf42 %+v", len(figures), sum, figures["korf42"])
	}
}

func TestParseSet(t *testing.T) {
	a, err := ParseSet("random:50:7")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseSet("random:50:7")
	c, _ := ParseSet("random:50:8")
	if len(a.Instances) != 50 || a.Instances[49].ID != "random50" {
		t.Fatalf("random:50:7 has %d instances", len(a.Instances))
	}
	same := 0
	for i := range a.Instances {
		if a.Instances[i].String() != b.Instances[i].String() {
			t.Fatal("the same seed gave different sets")
		}
		if a.Instances[i].String() == c.Instances[i].String() {
			same++
		}
		if !a.Instances[i].Solvable(a.Goal) {
			t.Errorf("%s is unsolvable", a.Instances[i].ID)
		}
	}
	if same > 1 {
		t.Errorf("seeds 7 and 8 share %d of 50 positions", same)
	}
	small, err := ParseSet("random:3:1:3x3")
	if err != nil || small.Instances[0].Size != (puzzle.Size{Rows: 3, Cols: 3}) {
		t.Errorf("random:3:1:3x3: %v", err)
	}
	if k, err := ParseSet("korf100"); err != nil || len(k.Instances) != 100 || k.Goal != puzzle.GoalFirst {
		t.Errorf("korf100: %v", err)
	}
	for _, bad := range []string{"korf", "random", "random:0:1", "random:5:x", "random:5:1:9x9", "random:1:2:3:4", "random:1000001:1"} {
		if _, err := ParseSet(bad); err == nil {
			t.Errorf("ParseSet(%q) accepted", bad)
		}
	}
}
