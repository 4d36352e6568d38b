package solver

import (
	"fifteen/pdb"
	"fifteen/puzzle"
	"fifteen/search"
)

// What a program that takes the search's options from its user, or runs
// the tasks of a split search, needs of the packages below solver: their
// definitions, under solver's names, so that it needs no other package.

// The options' bounds and defaults (Options).
const (
	// MaxThreads bounds Options.Threads.
	MaxThreads = search.MaxThreads
	// DefaultPruneDepth is the longest redundant move sequence pruned
	// unless Options.PruneDepth says otherwise.
	DefaultPruneDepth = search.DefaultPruneDepth
	// DefaultProgressEvery is how often a long search reports its
	// progress by default.
	DefaultProgressEvery = search.DefaultProgressEvery
	// DefaultCheckpointEvery is how often a search saves its checkpoint
	// within an iteration by default.
	DefaultCheckpointEvery = search.DefaultCheckpointEvery
	// MaxWeight bounds Options.Weight.
	MaxWeight = search.MaxWeight
	// MaxTasks bounds the tasks of a split search (Split, NextPlan).
	MaxTasks = search.MaxTasks
	// DefaultSplitAbove is the size of the iterations (nodes generated)
	// from which a split search shares each among its tasks (Split).
	DefaultSplitAbove = search.DefaultSplitAbove
)

// ParseOrder parses a move order for Options.Order: the four moves once
// each, such as "ULRD".
func ParseOrder(s string) ([4]puzzle.Move, error) { return search.ParseOrder(s) }

// Join returns the counts of an iteration of a split search from the
// parts of its tasks, one each in task order, and the task whose part
// holds the iteration's solution, or -1 (search.Join).
func Join(parts []Part) (Iteration, int, error) { return search.Join(parts) }

// NextPlan plans the iteration after the one the parts searched, among
// tasks tasks (search.NextPlan).
func NextPlan(parts []Part, tasks int) (Plan, error) { return search.NextPlan(parts, tasks) }

// ErrUnreported is Join's error when a task gave up its subtrees after a
// solution that no task reports.
var ErrUnreported = search.ErrUnreported

// ErrNotRegular is a database path that holds no regular file, which a
// DatabaseError may wrap.
var ErrNotRegular = pdb.ErrNotRegular

// ErrNewer is a database file of a newer format version than this
// program reads, which a DatabaseError may wrap: it is refused, never
// rebuilt over.
var ErrNewer = pdb.ErrNewer

// FileError is an error about one database file, which a DatabaseError
// may wrap.
type FileError = pdb.FileError

// Partitions returns the names of the built-in partitions and sets of
// them of boards of the size, the default (Config.Partition "") first.
func Partitions(size puzzle.Size) []string {
	def := pdb.DefaultPartition(size)
	names := []string{def}
	for _, name := range pdb.Names(size) {
		if name != def {
			names = append(names, name)
		}
	}
	return names
}

// DatabaseSizes returns the board sizes whose databases are kept in
// Config.Dir: 4×4 and 5×5.
func DatabaseSizes() []puzzle.Size { return pdb.DefaultSizes() }

// CheckPartition reports whether p names databases (a partition, a set of
// them, or a spec: Config.Partition) of boards of the size.
func CheckPartition(p string, size puzzle.Size) error {
	_, err := pdb.ParsePartitions(p, size)
	return err
}
