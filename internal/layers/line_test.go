package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The command tier's line (docs/design.md, "The command tier's line",
// issue 79): the packages of layers 3 and 4 solve through solver alone,
// and name of search and pdb only the parts listed here, which a
// program that takes options, reads and writes files and reports
// progress and errors must name. The search itself (Solve, the
// heuristics, the tables) is solver's to call.
var tierMay = map[string][]string{
	"search": {
		// the options, their bounds and defaults
		"Options", "ParseOrder", "ValidWeight", "DefaultFrontier", "DepthFirst", "MaxFrontier", "MaxThreads", "MaxWeight",
		"Cut", "CutContour", "CutFixed",
		"PruneInverse", "DefaultPruneDepth", "DefaultProgressEvery", "DefaultCheckpointEvery", "DefaultSplitAbove",
		// what a search returns and reports
		"Result", "Iteration", "Progress",
		// checkpoints and the split protocol, which the command tier keeps in files
		"Checkpoint", "CheckpointVersion", "MaxCheckpointSize", "ResumeError", "Plan", "Part", "Share", "Join", "NextPlan",
		"MaxTasks", "ErrUnreported",
	},
	"pdb": {
		// where the databases are, which there are, what a build reports
		"DefaultDir", "DefaultPartition", "DefaultSizes", "Names", "Label", "Progress", "Opening",
		"BuildAny", "NeverBuild",
		// their errors, which the commands explain
		"StoreError", "FileError", "ErrMissing", "ErrCorrupt", "ErrNewer", "ErrNotRegular",
	},
}

// pdbgenMay is what pdbgen, the database builder, names of pdb besides:
// the store it builds into, and the tables it checks.
var pdbgenMay = []string{"OpenStore", "StoreOptions", "Partition", "ParsePartition", "ParsePartitions", "Build", "BuildOptions", "Load", "FileName", "Goal", "MaxThreads"}

// TestCommandTierLine checks the command tier's names of search and pdb
// against tierMay.
func TestCommandTierLine(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for rel, layer := range layers {
		if layer < 3 {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, rel, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			for _, use := range namedParts(t, file) {
				pkg, name, _ := strings.Cut(use, ".")
				if !slices.Contains(tierMay[pkg], name) && !(rel == "cmd/pdbgen" && pkg == "pdb" && slices.Contains(pdbgenMay, name)) {
					t.Errorf("%s names %s: the command tier solves through solver (add it to the line, docs/design.md and tierMay, if it belongs there)", filepath.Join(rel, filepath.Base(file)), use)
				}
			}
		}
	}
}

// namedParts returns the names the Go file at path uses of the module's
// search and pdb packages, as "search.Options".
func namedParts(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	local := map[string]string{} // the name a file gives each package
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != module+"/search" && p != module+"/pdb" {
			continue
		}
		name := filepath.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = filepath.Base(p)
	}
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && local[id.Name] != "" {
				uses = append(uses, local[id.Name]+"."+sel.Sel.Name)
			}
		}
		return true
	})
	return uses
}
