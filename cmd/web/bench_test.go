package main

import (
	"context"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"fifteen/data"
	"fifteen/puzzle"
	"fifteen/search"
	"fifteen/solver"
)

// BenchmarkAPI solves the same random 4×4 puzzles optimally through the
// library and through /api/solve, GOMAXPROCS at a time, and reports each
// one's latency percentiles and throughput, and the API's overhead: the
// median of the puzzles' latency differences.
func BenchmarkAPI(b *testing.B) {
	srv, ts := newTestServer(b, solver.Config{}, limits{timeout: time.Minute, maxSolves: runtime.GOMAXPROCS(0), queueWait: time.Minute})
	puzzles, err := data.Random(200, 1, puzzle.Size{Rows: 4, Cols: 4}, puzzle.GoalLast)
	if err != nil {
		b.Fatal(err)
	}
	bodies := make([]string, len(puzzles))
	for i, p := range puzzles {
		bodies[i] = `{"tiles": ` + tilesJSON(p.Tiles) + `}`
	}
	opts := solver.Options{Options: search.Options{Threads: 1, Frontier: search.DefaultFrontier}}
	library := func(i int) {
		p := puzzles[i]
		if _, err := srv.solver.Solve(context.Background(), p, opts); err != nil {
			b.Error(err)
		}
	}
	api := func(i int) {
		if resp, body := call(b, ts, "POST", "/api/solve", bodies[i]); resp.StatusCode != http.StatusOK {
			b.Errorf("status %d: %s", resp.StatusCode, body)
		}
	}
	var lib, web []time.Duration
	var libWall, webWall time.Duration
	for b.Loop() {
		l, lw := latencies(len(puzzles), library)
		w, ww := latencies(len(puzzles), api)
		lib, web, libWall, webWall = append(lib, l...), append(web, w...), libWall+lw, webWall+ww
	}
	overhead := make([]time.Duration, len(web))
	for i := range web {
		overhead[i] = web[i] - lib[i]
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 }
	b.ReportMetric(ms(percentile(lib, 50)), "lib-p50-ms")
	b.ReportMetric(ms(percentile(lib, 99)), "lib-p99-ms")
	b.ReportMetric(ms(percentile(web, 50)), "api-p50-ms")
	b.ReportMetric(ms(percentile(web, 99)), "api-p99-ms")
	b.ReportMetric(ms(percentile(overhead, 50)), "overhead-p50-ms")
	b.ReportMetric(float64(len(lib))/libWall.Seconds(), "lib-solves/s")
	b.ReportMetric(float64(len(web))/webWall.Seconds(), "api-req/s")
}

// latencies runs solve(i) for each puzzle i, GOMAXPROCS at once, and
// returns each one's latency and the wall time of them all.
func latencies(n int, solve func(i int)) ([]time.Duration, time.Duration) {
	out := make([]time.Duration, n)
	next := make(chan int)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				t := time.Now()
				solve(i)
				out[i] = time.Since(t)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, time.Since(t0)
}

func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	return s[(len(s)-1)*p/100]
}
