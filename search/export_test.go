package search

// SetTestWide has every search take dfsWide (on) or the loop written for
// its heuristic (off).
func SetTestWide(on bool) { testWide = on }
