// Package bench runs instance sets under solver configurations, checks
// every answer, and writes reports: a Markdown summary with the published
// figures beside ours, a CSV of every result and SVG plots.
package bench

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fifteen/internal/nearest"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// Config is one configuration of the solver, written as a heuristic with
// options joined by '+':
//
//	pdb:PARTITION                   the databases (PARTITION: 771, 663x2, 663, 555, 78; 6666, 6666x2, 6666x7;
//	                                a spec; several joined by '+', such as 663+555)
//	pdb                             the default databases of each board's size
//	linear-conflict | manhattan | misplaced  a classic heuristic
//	+noreflect                      no maximum with the reflected lookup
//	+prune=N                        search.Options.PruneDepth (2: inverse moves only)
//	+order=ULRD                     the blank's move order at every node (search.Options.Order)
//	+frontier=MIB                   the frontier's memory (search.Options.Frontier; default
//	                                search.DefaultFrontier; 0: depth-first, search.DepthFirst)
//	+contour                        the rounds cut at a contour; +contour=false: at a fixed depth
//	                                (search.Options.Cut; default search.DefaultCut, the board's)
//	+threads=N                      goroutines per puzzle (default 1)
//	+jobs=N                         puzzles at once (default 1)
//	ref663                          the C yardstick (Yardstick): no options
//
// For example "pdb:663", "pdb:78+threads=2", "manhattan+prune=2".
type Config struct {
	Name      string // as written
	Heuristic string // "pdb", a classic heuristic's name, or YardstickName
	Partition string // with "pdb"
	Reflect   bool
	Jobs      int
	// Options are the solver's, of which a configuration sets the
	// search's threads, pruning and order; Run sets the goal and timeout.
	solver.Options
}

// Solver returns the solver configuration that cfg names; the caller
// adds the directory and the reports.
func (c *Config) Solver() solver.Config {
	return solver.Config{Heuristic: c.Heuristic, Partition: c.Partition, NoReflect: !c.Reflect}
}

// ParseConfig parses a configuration. A '+' that no option follows joins
// partitions ("pdb:663+555+threads=2").
func ParseConfig(s string) (Config, error) {
	c := Config{Name: s, Reflect: true, Jobs: 1, Options: solver.Options{Options: search.Options{Threads: 1}}}
	if s == YardstickName {
		c.Heuristic = s
		return c, nil
	}
	parts := strings.Split(s, "+")
	h, partition, named := strings.Cut(parts[0], ":")
	parts = parts[1:]
	for h == "pdb" && len(parts) > 0 && !isOption(parts[0]) {
		partition, parts = partition+"+"+parts[0], parts[1:]
	}
	seen := map[string]bool{}
	switch {
	case (h == "manhattan" || h == "linear-conflict" || h == "misplaced") && partition == "":
		c.Heuristic = h
	case h == "pdb" && (partition != "" || !named):
		c.Heuristic, c.Partition = h, partition
	default:
		return Config{}, fmt.Errorf("config %q: want pdb, pdb:PARTITION, linear-conflict, manhattan or misplaced, then +options; or %s", s, YardstickName)
	}
	for _, opt := range parts {
		key, value, _ := strings.Cut(opt, "=")
		var err error
		switch {
		case seen[key]:
			err = fmt.Errorf("given twice")
		case key == "noreflect" && c.Heuristic != "pdb":
			err = fmt.Errorf("only the databases take it")
		}
		seen[key] = true
		if err != nil {
			return Config{}, fmt.Errorf("config %q: option %q: %v", s, opt, err)
		}
		switch key {
		case "noreflect":
			c.Reflect = false
			if value != "" {
				err = fmt.Errorf("takes no value")
			}
		case "prune":
			c.PruneDepth, err = positive(value)
		case "threads":
			c.Threads, err = positive(value)
		case "jobs":
			if c.Jobs, err = positive(value); err == nil && c.Jobs > solver.MaxJobs {
				err = fmt.Errorf("want at most %d", solver.MaxJobs)
			}
		case "order":
			c.Order, err = search.ParseOrder(value)
		case "contour":
			c.Cut, err = cutOption(value)
		case "frontier":
			c.Frontier, err = frontierOption(value)
		default:
			err = errors.New("unknown option")
			if near := nearest.Name(key, options); near != "" {
				err = fmt.Errorf("unknown option (did you mean %s?)", near)
			}
		}
		if err != nil {
			return Config{}, fmt.Errorf("config %q: option %q: %v", s, opt, err)
		}
	}
	switch {
	case (seen["frontier"] || seen["contour"]) && seen["order"]:
		return Config{}, fmt.Errorf("config %q: options frontier and contour rank the tasks of each round: not with order, which takes them in an order of its own", s)
	case seen["contour"] && c.Frontier == search.DepthFirst:
		return Config{}, fmt.Errorf("config %q: option contour chooses how the frontier cuts: not with frontier=0, depth-first", s)
	}
	sc := c.Solver()
	if err := errors.Join(sc.Validate(), c.Options.Validate()); err != nil {
		return Config{}, fmt.Errorf("config %q: %w", s, err)
	}
	return c, nil
}

// cutOption parses +contour's value: none or true for a contour, false
// for a fixed depth.
func cutOption(value string) (search.Cut, error) {
	switch value {
	case "", "true":
		return search.CutContour, nil
	case "false":
		return search.CutFixed, nil
	}
	return 0, errors.New("want +contour, +contour=true or +contour=false")
}

// options are the options a configuration takes.
var options = []string{"noreflect", "prune", "order", "frontier", "contour", "threads", "jobs"}

// isOption reports whether a part of a configuration after a '+' is an
// option rather than a partition: partitions and specs begin with a digit,
// options with a letter, so that an unknown option is called one.
func isOption(part string) bool {
	return part != "" && (part[0] < '0' || part[0] > '9')
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("want a positive number")
	}
	return n, nil
}

// korf1985 reports whether the configuration is the one Korf (1985)
// counted with: Manhattan distance, only inverse moves pruned, the moves
// tried up, left, right, down at every node, one thread.
func (c *Config) korf1985() bool {
	return c.Heuristic == "manhattan" && c.PruneDepth == search.PruneInverse &&
		c.Order == puzzle.Moves && c.Threads == 1
}

// frontierOption parses +frontier's value: MiB, or 0 for depth-first
// (search.DepthFirst), as solve --frontier takes them.
func frontierOption(value string) (int, error) {
	mib, err := strconv.Atoi(value)
	switch {
	case err != nil:
		return 0, err
	case mib < 0 || mib > search.MaxFrontier:
		return 0, fmt.Errorf("want 1 to %d MiB, or 0 for depth-first", search.MaxFrontier)
	case mib == 0:
		return search.DepthFirst, nil
	}
	return mib, nil
}
