// Package profile starts the CPU profile, heap profile and execution trace
// that the commands' --cpuprofile, --memprofile and --trace flags ask for.
package profile

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/pflag"

	"fifteen/internal/atomicfile"
)

// Files names the outputs; an empty name turns that output off.
type Files struct {
	CPU   string // CPU profile
	Mem   string // heap profile, written when stopped
	Trace string // execution trace
}

// Flags defines --cpuprofile (with the usage cpu), --memprofile and
// --trace on fs, stored in f.
func (f *Files) Flags(fs *pflag.FlagSet, cpu string) {
	fs.StringVar(&f.CPU, "cpuprofile", "", cpu)
	fs.StringVar(&f.Mem, "memprofile", "", "write a heap profile to `FILE` at exit")
	fs.StringVar(&f.Trace, "trace", "", "write an execution trace to `FILE`")
}

// Start starts the outputs and returns the function that finishes them.
// Each is written atomically (package atomicfile), once stop is called.
func Start(files Files) (stop func() error, err error) {
	named := map[string]string{}
	for flag, name := range map[string]string{"--cpuprofile": files.CPU, "--memprofile": files.Mem, "--trace": files.Trace} {
		if other, ok := named[name]; ok && name != "" {
			return nil, fmt.Errorf("%s and %s both name %s", min(flag, other), max(flag, other), name)
		}
		named[name] = flag
	}
	if files.Mem != "" {
		if err := atomicfile.CheckOutput(files.Mem); err != nil {
			return nil, err
		}
	}
	var commits []func() error
	stop = func() error {
		var errs []error
		for i := len(commits) - 1; i >= 0; i-- {
			errs = append(errs, commits[i]())
		}
		if files.Mem != "" {
			errs = append(errs, atomicfile.WriteOutput(files.Mem, func(w io.Writer) error {
				runtime.GC()
				return pprof.Lookup("allocs").WriteTo(w, 0)
			}))
		}
		return errors.Join(errs...)
	}
	outputs := []struct {
		name        string
		start       func(io.Writer) error
		stopWriting func()
	}{
		{files.CPU, pprof.StartCPUProfile, pprof.StopCPUProfile},
		{files.Trace, trace.Start, trace.Stop},
	}
	for _, out := range outputs {
		if out.name == "" {
			continue
		}
		f, err := atomicfile.CreateOutput(out.name)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		if err := out.start(f); err != nil {
			f.Abort()
			return nil, errors.Join(err, stop())
		}
		commits = append(commits, func() error { out.stopWriting(); return f.Commit() })
	}
	return stop, nil
}
