package batch

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// TestHistogram checks the summary's median on many times, in bounded
// memory.
func TestHistogram(t *testing.T) {
	var h histogram
	for i := range 1_000_000 {
		h.add(time.Duration(i%1000+1) * time.Microsecond)
	}
	if len(h.buckets) > 1000 {
		t.Errorf("%d buckets", len(h.buckets))
	}
	if got, want := h.median(), 500*time.Microsecond; math.Abs(float64(got-want)) > 0.01*float64(want) {
		t.Errorf("median %v, want %v within 1%%", got, want)
	}
}

// TestMedianWithinMax: one time, or many alike, give a median no larger
// than the max, printed alike (issue 67: "median 29.9306 s, max
// 29.825 s", "median 0.0001 s, max 0.000 s").
func TestMedianWithinMax(t *testing.T) {
	for _, d := range []time.Duration{29825 * time.Millisecond, 80 * time.Microsecond, 0} {
		var s summary
		s.solved, s.times = 1, histogram{}
		s.times.add(d)
		var b strings.Builder
		s.print(&b)
		want := fmt.Sprintf("(median %.4f s, max %.4f s)", d.Seconds(), d.Seconds())
		if s.times.median() != d || !strings.Contains(b.String(), want) {
			t.Errorf("one time of %v: %q, want %q", d, b.String(), want)
		}
	}
}
