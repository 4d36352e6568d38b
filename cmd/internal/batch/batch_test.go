package batch

import (
	"math"
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
