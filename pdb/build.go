package pdb

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"fifteen/bitboard"
)

// Progress reports one finished layer of a database build.
type Progress struct {
	Tiles      []int
	Depth      int    // the layer: states this many pattern moves from the goal
	New        uint64 // abstract states first reached in this layer
	States     uint64 // abstract states reached so far
	Valued     uint64 // placements whose value is known so far
	Placements uint64 // placements in all
	Elapsed    time.Duration
}

// BuildOptions tune Build. The zero value is the default.
type BuildOptions struct {
	Scheme   Scheme         // the table's index scheme; 0 means DefaultScheme
	Threads  int            // goroutines; 0 means GOMAXPROCS
	Progress func(Progress) // called after each layer, if not nil
}

// Build computes the additive database of the pattern tiles on a board of
// the given size and goal by breadth-first search backwards from the goal.
//
// A state is a placement of the pattern tiles together with the region of
// non-pattern cells that holds the blank (the blank moves within it for
// free), represented by the region's lowest cell. A move of a pattern tile
// into the blank's region costs 1. States are numbered as permutations of
// the k tiles and the blank (the blank last, so a placement's states are
// adjacent), and each takes 2 bits: unseen, in the layer being expanded,
// in the next layer, or closed; the two layer codes swap roles each layer.
// A placement's value is the depth of the first layer that reaches it.
func Build(size bitboard.Size, goal bitboard.Goal, tiles []int, opts BuildOptions) (*Table, error) {
	if err := checkPattern(size, tiles); err != nil {
		return nil, err
	}
	if opts.Scheme == 0 {
		opts.Scheme = DefaultScheme(len(tiles))
	}
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	n, k := size.Cells(), len(tiles)
	placements, err := NewIndexer(Ranked, n, k)
	if err != nil {
		return nil, err
	}
	states, err := NewIndexer(Ranked, n, k+1)
	if err != nil {
		return nil, err
	}
	b := &builder{
		geo:        newGeometry(size),
		n:          n,
		k:          k,
		free:       uint64(n - k),
		placements: placements,
		states:     states,
		codes:      make([]atomic.Uint64, (states.Len()+31)/32),
		values:     make([]byte, placements.Len()),
	}
	for i := range b.values {
		b.values[i] = unvalued
	}

	// The goal: every pattern tile home, the blank in its region.
	var cells uint64
	var occupied uint32
	for i, t := range tiles {
		cells |= uint64(goal.Home(t, n)) << (4 * i)
		occupied |= 1 << goal.Home(t, n)
	}
	b.set(b.stateIndex(cells, occupied, goal.Home(0, n)), 0)

	t0 := time.Now()
	p := Progress{Tiles: tiles, Placements: uint64(placements.Len()), States: 1}
	for depth := 0; ; depth++ {
		newStates, valued := b.layer(depth, opts.Threads)
		p.Depth, p.Valued = depth, p.Valued+valued
		if opts.Progress != nil {
			p.Elapsed = time.Since(t0)
			opts.Progress(p)
		}
		if newStates == 0 {
			break
		}
		if depth+1 == unvalued {
			return nil, fmt.Errorf("pdb: pattern %v needs more than %d moves", tiles, unvalued-1)
		}
		p.New = newStates
		p.States += newStates
	}
	if p.Valued != p.Placements {
		return nil, fmt.Errorf("pdb: internal error: %d of %d placements unreached", p.Placements-p.Valued, p.Placements)
	}
	return tableFrom(size, goal, tiles, opts.Scheme, &placements, b.values)
}

// unvalued marks a placement not reached yet.
const unvalued = 255

func checkPattern(size bitboard.Size, tiles []int) error {
	if err := size.Valid(); err != nil {
		return err
	}
	n := size.Cells()
	if len(tiles) == 0 || len(tiles) > n-2 {
		return fmt.Errorf("pdb: a pattern of %d tiles on %d cells: want 1..%d", len(tiles), n, n-2)
	}
	seen := 0
	for _, t := range tiles {
		if t <= 0 || t >= n || seen&(1<<t) != 0 {
			return fmt.Errorf("pdb: pattern %v: tile %d is repeated or not a tile of a %v board", tiles, t, size)
		}
		seen |= 1 << t
	}
	return nil
}

// tableFrom returns the table of the values of the ranked placements,
// re-indexed under scheme.
func tableFrom(size bitboard.Size, goal bitboard.Goal, tiles []int, scheme Scheme, placements *Indexer, values []byte) (*Table, error) {
	if scheme == Ranked {
		t := &Table{Size: size, Goal: goal, Tiles: tiles, Indexer: *placements, Values: values}
		return t, nil
	}
	t, err := NewTable(size, goal, tiles, scheme)
	if err != nil {
		return nil, err
	}
	for r, v := range values {
		cells, _ := placements.Cells(uint64(r))
		t.Values[t.Index(cells)] = v
	}
	return t, nil
}

// geometry holds a board's cell masks.
type geometry struct {
	all      uint32
	adjacent [bitboard.MaxCells]uint32 // the cells next to each cell
}

func newGeometry(size bitboard.Size) geometry {
	g := geometry{all: 1<<size.Cells() - 1}
	for c := range size.Cells() {
		for _, m := range bitboard.Moves {
			if q := size.Neighbor(c, m); q >= 0 {
				g.adjacent[c] |= 1 << q
			}
		}
	}
	return g
}

// region returns the cells of free connected to cell c.
func (g *geometry) region(c int, free uint32) uint32 {
	r := uint32(1) << c
	for frontier := r; frontier != 0; {
		var grown uint32
		for f := frontier; f != 0; f &= f - 1 {
			grown |= g.adjacent[bits.TrailingZeros32(f)]
		}
		frontier = grown & free &^ r
		r |= frontier
	}
	return r
}

type builder struct {
	geo        geometry
	n, k       int
	free       uint64 // non-pattern cells: the states of one placement
	placements Indexer
	states     Indexer
	codes      []atomic.Uint64 // 2 bits a state: 0 unseen, code(depth) in layer depth, 3 closed
	values     []byte          // per ranked placement
}

// code is the mark of the states of layer depth until they are expanded;
// 3 marks them after.
func code(depth int) uint64 { return uint64(depth%2) + 1 }

const evenBits = 0x5555555555555555 // bit 0 of every 2-bit field

// set marks state s as reached at depth and reports whether it was unseen.
// Within a layer only unseen states change, so a load and an or suffice.
func (b *builder) set(s uint64, depth int) bool {
	w, shift := &b.codes[s/32], 2*(s%32)
	if w.Load()>>shift&3 != 0 {
		return false
	}
	return w.Or(code(depth)<<shift)>>shift&3 == 0
}

// stateIndex numbers the placement with the blank in the region of cell c.
func (b *builder) stateIndex(cells uint64, occupied uint32, c int) uint64 {
	region := b.geo.region(c, b.geo.all&^occupied)
	return b.states.Index(cells | uint64(bits.TrailingZeros32(region))<<(4*b.k))
}

// chunk is the number of placements a goroutine takes at a time.
const chunk = 1 << 12

// layer expands every state at depth, marking its successors at depth+1,
// and values the placements first reached at depth. It returns the number
// of new states and of newly valued placements.
func (b *builder) layer(depth, threads int) (newStates, valued uint64) {
	var next atomic.Uint64
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := uint64(len(b.values))
	for range threads {
		wg.Go(func() {
			var myNew, myValued uint64
			for {
				p0 := next.Add(chunk) - chunk
				if p0 >= total {
					break
				}
				n, v := b.expand(p0, min(p0+chunk, total), depth)
				myNew += n
				myValued += v
			}
			mu.Lock()
			newStates += myNew
			valued += myValued
			mu.Unlock()
		})
	}
	wg.Wait()
	return newStates, valued
}

// expand handles placements p0..p1-1 at depth.
func (b *builder) expand(p0, p1 uint64, depth int) (newStates, valued uint64) {
	want := code(depth) * evenBits // the layer's code in every field
	s0, s1 := p0*b.free, p1*b.free
	for s := s0; s < s1; {
		w := &b.codes[s/32]
		x := w.Load() ^ want
		match := ^(x | x>>1) & evenBits &^ (1<<(2*(s%32)) - 1)
		wordEnd := (s/32 + 1) * 32
		if wordEnd > s1 {
			match &= 1<<(2*(s1%32)) - 1
		}
		if match != 0 {
			for m := match; m != 0; m &= m - 1 {
				st := s/32*32 + uint64(bits.TrailingZeros64(m))/2
				p := st / b.free
				if b.values[p] == unvalued {
					b.values[p] = byte(depth)
					valued++
				}
				newStates += b.successors(p, int(st%b.free), depth+1)
			}
			// Close them: set the other bit of each field, making 3.
			if code(depth) == 1 {
				w.Or(match << 1)
			} else {
				w.Or(match)
			}
		}
		s = wordEnd
	}
	return newStates, valued
}

// successors marks at depth the states one pattern move from placement p
// with the blank in the region of the blank-th free cell.
func (b *builder) successors(p uint64, blank, depth int) (newStates uint64) {
	cells, occupied := b.placements.Cells(p)
	free := b.geo.all &^ occupied
	region := b.geo.region(int(selectFree(occupied, uint32(blank))), free)
	for i := range b.k {
		q := int(cells>>(4*i)) & 15
		// The tile on q slides into any cell of the region next to it,
		// leaving the blank on q.
		for into := b.geo.adjacent[q] & region; into != 0; into &= into - 1 {
			c := bits.TrailingZeros32(into)
			moved := cells&^(15<<(4*i)) | uint64(c)<<(4*i)
			if b.set(b.stateIndex(moved, occupied&^(1<<q)|1<<c, q), depth) {
				newStates++
			}
		}
	}
	return newStates
}
