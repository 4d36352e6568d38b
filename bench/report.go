package bench

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"fifteen/data"
	"fifteen/internal/atomicfile"
)

// Machine describes where and how a report was measured.
type Machine struct {
	Date       time.Time
	CPU        string
	CPUs       int
	GOMAXPROCS int
	Go         string
	OS, Arch   string
	Command    string
}

// ThisMachine describes the running machine; command is the command line
// to print in the report.
func ThisMachine(command string) Machine {
	m := Machine{
		Date: time.Now(), CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, Command: command,
	}
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(info)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}

// korfFelner holds published means of the nodes IDA* generated per
// instance on random 15-puzzle instances, with the databases' sum maximised
// with the reflected lookup, by partition: Korf & Felner (2002), "Disjoint
// pattern database heuristics", Artificial Intelligence 134, as tabulated
// in Felner's lecture slides on pattern databases (with the 7-8 row also
// given with and without reflection: 36,710 and 136,288).
var korfFelner = map[string]uint64{"555": 3090405, "663": 617555, "78": 36710}

// summary holds a run's totals and spreads.
type summary struct {
	solved, n                      int
	generated, expanded            uint64
	meanNodes, medianNodes         float64
	maxNodes                       uint64
	seconds, medianSecs, maxSecs   float64
	nodesPerSecond, wall, meanSecs float64
}

func summarize(run *Run) summary {
	s := summary{n: len(run.Results), wall: run.Wall.Seconds()}
	var nodes, secs []float64
	for _, r := range run.Results {
		if r.Err == nil {
			s.solved++
		}
		s.generated += r.Generated
		s.expanded += r.Expanded
		s.maxNodes = max(s.maxNodes, r.Generated)
		s.seconds += r.Elapsed.Seconds()
		nodes = append(nodes, float64(r.Generated))
		secs = append(secs, r.Elapsed.Seconds())
	}
	if s.n > 0 {
		s.meanNodes = float64(s.generated) / float64(s.n)
		s.meanSecs = s.seconds / float64(s.n)
		s.medianNodes, s.medianSecs = median(nodes), median(secs)
		s.maxSecs = slices.Max(secs)
	}
	if s.seconds > 0 {
		s.nodesPerSecond = float64(s.generated) / s.seconds
	}
	return s
}

// A column of the summary table: its heading, whether the brief table on
// standard output has it too, and its cell for a run.
type column struct {
	name  string
	brief bool
	cell  func(run *Run, s, first summary) string
}

var summaryColumns = []column{
	{"configuration", true, func(run *Run, _, _ summary) string { return run.Config.Name }},
	{"solved", true, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%d/%d", s.solved, s.n) }},
	{"generated (total)", true, func(_ *Run, s, _ summary) string { return commas(s.generated) }},
	{"mean", false, func(_ *Run, s, _ summary) string { return commas(uint64(s.meanNodes + 0.5)) }},
	{"median", false, func(_ *Run, s, _ summary) string { return commas(uint64(s.medianNodes)) }},
	{"max", false, func(_ *Run, s, _ summary) string { return commas(s.maxNodes) }},
	{"search s (total)", true, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.3f", s.seconds) }},
	{"mean s", false, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.4f", s.meanSecs) }},
	{"median s", false, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.4f", s.medianSecs) }},
	{"max s", false, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.3f", s.maxSecs) }},
	{"Mnodes/s", true, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.1f", s.nodesPerSecond/1e6) }},
	{"wall s", true, func(_ *Run, s, _ summary) string { return fmt.Sprintf("%.3f", s.wall) }},
	{"search vs first", true, func(_ *Run, s, first summary) string { return ratio(s.seconds, first.seconds) }},
	{"wall vs first", true, func(_ *Run, s, first summary) string { return ratio(s.wall, first.wall) }},
	{"nodes vs first", true, func(_ *Run, s, first summary) string {
		return ratio(float64(s.generated), float64(first.generated))
	}},
}

// summaryTable returns the runs' summary, a row a run, in every column or
// in the brief ones: totals and spreads, and each run's times and nodes
// as multiples of the first run's.
func summaryTable(runs []*Run, brief bool) (header []string, rows [][]string) {
	sums := make([]summary, len(runs))
	for i, run := range runs {
		sums[i] = summarize(run)
	}
	rows = make([][]string, len(runs))
	for _, c := range summaryColumns {
		if brief && !c.brief {
			continue
		}
		header = append(header, c.name)
		for i, run := range runs {
			rows[i] = append(rows[i], c.cell(run, sums[i], sums[0]))
		}
	}
	return header, rows
}

// WriteSummary writes the runs' summary to w as an aligned text table:
// for each configuration, the instances solved, the nodes generated, the
// search and wall times, the speed, and the times and nodes as multiples
// of the first configuration's.
func WriteSummary(w io.Writer, runs []*Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header, rows := summaryTable(runs, true)
	for _, row := range append([][]string{header}, rows...) {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

func median(xs []float64) float64 {
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

// WriteReport writes report.md, results.csv, nodes.svg and time.svg about
// the runs, all over set, into dir, which it creates.
func WriteReport(dir string, set data.Set, runs []*Run, m Machine) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, write := range map[string]func(io.Writer) error{
		"report.md":   func(w io.Writer) error { return writeMarkdown(w, set, runs, m) },
		"results.csv": func(w io.Writer) error { return writeCSV(w, set, runs) },
		"nodes.svg":   func(w io.Writer) error { return nodesChart(runs).writeSVG(w) },
		"time.svg":    func(w io.Writer) error { return timeChart(runs).writeSVG(w) },
	} {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), write); err != nil {
			return err
		}
	}
	return nil
}

func writeMarkdown(w io.Writer, set data.Set, runs []*Run, m Machine) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# Benchmark: %s\n\n", set.Name)
	p("- Date: %s\n", m.Date.UTC().Format("2006-01-02 15:04 MST"))
	p("- Machine: %s, %d CPUs (GOMAXPROCS %d), %s/%s, %s\n", orUnknown(m.CPU), m.CPUs, m.GOMAXPROCS, m.OS, m.Arch, m.Go)
	p("- Command: `%s`\n", m.Command)
	p("- Instances: %d, goal `%v`. Every answer was replayed to the goal and checked against the known optimum where there is one.\n\n", len(set.Instances), set.Goal)
	p("Nodes are counted as Korf (1985) did: every child generated, plus the root once. Times are search times per instance (databases loaded beforehand); wall is the whole run's, with the configuration's jobs at once.\n\n")

	p("## Summary\n\n")
	header, rows := summaryTable(runs, false)
	p("| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat(" --- |", len(header)))
	for _, row := range rows {
		row[0] = "`" + row[0] + "`"
		p("| %s |\n", strings.Join(row, " | "))
	}
	p("\n![nodes per instance](nodes.svg)\n\n![cumulative time](time.svg)\n\n")

	p("## Published figures\n\n")
	if rows := published(set, runs); rows == "" {
		p("None of these configurations has a published figure to compare with: Korf (1985) counted IDA* with Manhattan distance on Korf's 100 (`--config manhattan+prune=2+order=ULRD`), and Korf & Felner (2002) the 5-5-5, 6-6-3 and 7-8 databases with reflection (`pdb:555`, `pdb:663`, `ref663`, `pdb:78`).\n\n")
	} else {
		p("| source | heuristic | instances | published | ours |\n| --- | --- | --- | --- | --- |\n%s", rows)
		p("\nOurs prune with the machine of redundant move sequences (+prune=2 only rejects the inverse of the last move), and our databases tell the blank's regions apart unless built with `pdbgen --blank-free`: both cut nodes below what the published figures' searches generate.\n\n")
	}
	switch set.Name {
	case "korf100":
		writeKorf1985(w, runs)
	case "korf50":
		writeKorf50(w, runs)
	}
	return nil
}

// published returns the rows of the runs that a published figure
// compares with, "" if none does (issue 67: an empty table).
func published(set data.Set, runs []*Run) string {
	var b strings.Builder
	for _, run := range runs {
		s := summarize(run)
		switch c := run.Config; {
		case c.Heuristic == "manhattan" && set.Name == "korf100":
			var all uint64
			for _, f := range data.Korf1985() {
				all += f.Generated
			}
			fmt.Fprintf(&b, "| Korf (1985), Table 1 | Manhattan, IDA* | Korf's 100 | %s nodes in all | %s (`%s`) |\n", commas(all), commas(s.generated), c.Name)
		case c.Heuristic == YardstickName || c.Heuristic == "pdb" && c.Reflect && korfFelner[c.Partition] != 0:
			partition := cmp.Or(c.Partition, "663") // the yardstick's
			fmt.Fprintf(&b, "| Korf & Felner (2002) | %s with reflection | random (theirs) | %s nodes per instance (mean) | %s on %s (`%s`) |\n",
				partition, commas(korfFelner[partition]), commas(uint64(s.meanNodes+0.5)), set.Name, c.Name)
		}
	}
	return b.String()
}

// writeKorf50 compares each run's counts, instance by instance, with the
// published searches on the 24-puzzles, each by the count it published:
// Korf and Felner's (2002) generated nodes against ours, and Döbbelin et
// al.'s (2013) maximum of large databases and Clausecker and Reinefeld's
// (2019) small catalogue by expanded nodes against ours.
func writeKorf50(w io.Writer, runs []*Run) {
	published := data.Korf50Effort()
	for _, run := range runs {
		fmt.Fprintf(w, "### Korf's 50: the published searches against `%s`\n\n", run.Config.Name)
		fmt.Fprintf(w, "Generated nodes are compared with Korf and Felner (2002), 6-6-6-6 with reflection (KF 2002); expanded nodes with Döbbelin, Schütt and Reinefeld (2013), the maximum of their 8-8-8, 9-8-7 and 9-9-6 databases (D 2013), and with Clausecker and Reinefeld (2019), their small catalogue of 28 zero-aware 6-tile databases (CR 2019).\n\n")
		fmt.Fprintf(w, "| instance | length | generated | KF 2002, generated | / KF | expanded | D 2013, expanded | / D | CR 2019, expanded | / CR | seconds |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
		var theirs data.Effort
		var generated, expanded uint64
		for _, r := range run.Results {
			p := published[r.ID]
			if r.Err != nil {
				fmt.Fprintf(w, "| %s | unsolved: %v | %s | %s | | %s | %s | | %s | | %.1f |\n", r.ID, r.Err, commas(r.Generated), commas(p.KorfFelner2002), commas(r.Expanded), commas(p.DoebbelinMax), commas(p.Clausecker2019), r.Elapsed.Seconds())
				continue
			}
			theirs.KorfFelner2002 += p.KorfFelner2002
			theirs.DoebbelinMax += p.DoebbelinMax
			theirs.Clausecker2019 += p.Clausecker2019
			generated, expanded = generated+r.Generated, expanded+r.Expanded
			fmt.Fprintf(w, "| %s | %d | %s | %.1f |\n", r.ID, r.Length(), effortColumns(r.Generated, r.Expanded, p), r.Elapsed.Seconds())
		}
		fmt.Fprintf(w, "| solved, in all | | %s | |\n\n", effortColumns(generated, expanded, theirs))
	}
}

// effortColumns returns our generated and expanded counts beside the
// published ones, each with its ratio.
func effortColumns(generated, expanded uint64, p data.Effort) string {
	return fmt.Sprintf("%s | %s | %s | %s | %s | %s | %s | %s",
		commas(generated), commas(p.KorfFelner2002), ratio(float64(generated), float64(p.KorfFelner2002)),
		commas(expanded), commas(p.DoebbelinMax), ratio(float64(expanded), float64(p.DoebbelinMax)),
		commas(p.Clausecker2019), ratio(float64(expanded), float64(p.Clausecker2019)))
}

// writeKorf1985 compares the runs counted as Korf (1985) did, instance by
// instance, with his table.
func writeKorf1985(w io.Writer, runs []*Run) {
	figures := data.Korf1985()
	for _, run := range runs {
		if !run.Config.korf1985() {
			continue
		}
		var differ []string
		equal := 0
		for _, r := range run.Results {
			f := figures[r.ID]
			if r.Err == nil && r.Generated == f.Generated && r.H0 == f.H0 {
				equal++
			} else {
				differ = append(differ, fmt.Sprintf("| %s | %d | %d | %s | %s |", r.ID, f.H0, r.H0, commas(f.Generated), commas(r.Generated)))
			}
		}
		fmt.Fprintf(w, "### Korf (1985) reproduced: `%s`\n\n", run.Config.Name)
		fmt.Fprintf(w, "%d of %d instances generate exactly the published number of nodes (Korf's counting: moves tried up, left, right, down; the inverse of the last move never generated; the root counted once).\n\n", equal, len(run.Results))
		if len(differ) > 0 {
			fmt.Fprintf(w, "| instance | h0 published | h0 ours | nodes published | nodes ours |\n| --- | --- | --- | --- | --- |\n%s\n\n", strings.Join(differ, "\n"))
		}
	}
}

// commas writes n with thousands separators, as papers print node counts.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f×", a/b)
}

func writeCSV(w io.Writer, set data.Set, runs []*Run) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"set", "config", "id", "optimal", "length", "h0", "expanded", "generated", "seconds", "nodes_per_second", "iterations", "error"})
	for _, run := range runs {
		for _, r := range run.Results {
			var its []string
			for _, it := range r.Iterations {
				its = append(its, fmt.Sprintf("%d:%d:%d", it.Bound, it.Expanded, it.Generated))
			}
			length, errText := "", ""
			if r.Err == nil {
				length = strconv.Itoa(r.Length())
			} else {
				errText = r.Err.Error()
			}
			cw.Write([]string{set.Name, run.Config.Name, r.ID, strconv.Itoa(r.Optimal), length, strconv.Itoa(r.H0),
				strconv.FormatUint(r.Expanded, 10), strconv.FormatUint(r.Generated, 10),
				strconv.FormatFloat(r.Elapsed.Seconds(), 'f', 6, 64), strconv.FormatFloat(r.NodesPerSecond(), 'f', 0, 64),
				strings.Join(its, " "), errText})
		}
	}
	cw.Flush()
	return cw.Error()
}

// nodesChart plots each configuration's nodes per instance, sorted, on a
// log scale.
func nodesChart(runs []*Run) *chart {
	c := &chart{title: "Nodes generated per instance, sorted", xLabel: "instances, from easiest", yLabel: "nodes generated (log scale)", logY: true}
	for _, run := range runs {
		var y []float64
		for _, r := range run.Results {
			y = append(y, float64(r.Generated))
		}
		slices.Sort(y)
		c.series = append(c.series, series{run.Config.Name, y})
	}
	return c
}

// timeChart plots each configuration's cumulative search time over the
// set, in the set's order.
func timeChart(runs []*Run) *chart {
	c := &chart{title: "Cumulative search time", xLabel: "instances, in the set's order", yLabel: "seconds"}
	for _, run := range runs {
		var y []float64
		total := 0.0
		for _, r := range run.Results {
			total += r.Elapsed.Seconds()
			y = append(y, total)
		}
		c.series = append(c.series, series{run.Config.Name, y})
	}
	return c
}
