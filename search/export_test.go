package search

// SetTestWide has every search take dfsWide (on) or the loop written for
// its heuristic (off).
func SetTestWide(on bool) { testWide = on }

// SetGreedyLimit sets the positions Greedy keeps, and returns the old bound.
func SetGreedyLimit(n int) int { old := greedyLimit; greedyLimit = n; return old }

// SetFrontierBytes sets every frontier's budget in bytes (0: as Options
// say), and returns the old one.
func SetFrontierBytes(n int) int { old := testBudget; testBudget = n; return old }
