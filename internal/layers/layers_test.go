package layers

import (
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// module is the import path of the module the packages are in.
const module = "fifteen"

// layers is docs/design.md's table: every package of the module, by its
// path in the module, and its layer. A package imports packages of the
// module only from its own layer and those below.
var layers = map[string]int{
	// 0. the model, and what serves every layer
	"puzzle": 0, "data": 0, "construct": 0, "render": 0, "internal/bfs": 0,
	"internal/atomicfile": 0, "internal/flock": 0, "internal/seal": 0, "internal/progress": 0,
	"internal/profile": 0, "internal/nearest": 0, "internal/signaltest": 0, "internal/testtool": 0, "internal/layers": 0, "internal/docs": 0,
	// 1. the databases and the search
	"internal/pdbcore": 1, "pdb": 1, "search": 1, "search/internal/gendfs": 1,
	// 2. the way in
	"solver": 2,
	// 3. the command tier
	"cmd/internal/cli": 3, "cmd/internal/record": 3, "cmd/internal/batch": 3,
	"cmd/internal/cluster": 3, "bench": 3, "game": 3,
	// 4. the commands
	"cmd/solve": 4, "cmd/pdbgen": 4, "cmd/bench": 4, "cmd/play": 4, "cmd/web": 4,
}

// TestLayers checks every package's imports against layers, and that
// every package of the module is in it.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); dir != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		} else if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		layer, ok := layers[rel]
		if !ok {
			t.Errorf("%s is in no layer: add it to docs/design.md and this test's table", rel)
			return nil
		}
		for _, imp := range pkg.Imports {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if l, known := layers[dep]; known && l > layer {
				t.Errorf("%s (layer %d) imports %s (layer %d)", rel, layer, dep, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range layers {
		if !seen[rel] {
			t.Errorf("%s is in the table but not in the module", path.Clean(rel))
		}
	}
}
