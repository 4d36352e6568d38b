package solver

import "time"

// SetSlowBuild sets how long a build in memory runs before it reports
// its progress, and returns the old bound.
func SetSlowBuild(d time.Duration) time.Duration { old := slowBuild; slowBuild = d; return old }
