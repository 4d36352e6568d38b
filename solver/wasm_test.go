package solver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fifteen/internal/testtool"
)

// TestWebAssembly runs TestInMemory as the library's WebAssembly, under
// Node (Go's go_js_wasm_exec), where Node is installed: the library
// builds and solves on js/wasm, with no file system to keep its tables
// (issue 77).
func TestWebAssembly(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("this is the WebAssembly run")
	}
	goTool := testtool.Need(t, "", "go")
	testtool.Need(t, "apt-get install nodejs", "node")
	root, err := exec.Command(goTool, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "go_js_wasm_exec")
	cmd := exec.Command(goTool, "test", "-count=1", "-exec", run, "-run", "^TestInMemory$", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("GOOS=js GOARCH=wasm go test -run TestInMemory: %v\n%s", err, out)
	}
}
