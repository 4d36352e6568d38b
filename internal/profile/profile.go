// Package profile starts the CPU profile, heap profile and execution trace
// that the commands' --cpuprofile, --memprofile and --trace flags ask for.
package profile

import (
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/pflag"
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
func Start(files Files) (stop func() error, err error) {
	var closers []func() error
	stop = func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		if files.Mem != "" {
			errs = append(errs, writeFile(files.Mem, func(w io.Writer) error {
				runtime.GC()
				return pprof.Lookup("allocs").WriteTo(w, 0)
			}))
		}
		return errors.Join(errs...)
	}
	if files.CPU != "" {
		f, err := os.Create(files.CPU)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		closers = append(closers, func() error { pprof.StopCPUProfile(); return f.Close() })
	}
	if files.Trace != "" {
		f, err := os.Create(files.Trace)
		if err != nil {
			return nil, errors.Join(err, stop())
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return nil, errors.Join(err, stop())
		}
		closers = append(closers, func() error { trace.Stop(); return f.Close() })
	}
	return stop, nil
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	return errors.Join(write(f), f.Close())
}
