package pdb

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"fifteen/internal/pdbcore"
	"fifteen/puzzle"
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

// String describes the layer, for a progress line.
func (p Progress) String() string {
	return fmt.Sprintf("pattern %v: depth %d, %d new states, %d placements of %d valued, %.1f s",
		p.Tiles, p.Depth, p.New, p.Valued, p.Placements, p.Elapsed.Seconds())
}

// MaxThreads bounds BuildOptions.Threads.
const MaxThreads = 256

// maxPlacements bounds a pattern's placements: those of 8 tiles on 16
// cells (16!/8!), the larger pattern of 7-8, which takes about 3 GB to
// build. The next size up would take eight times as much.
const maxPlacements = 518_918_400

// BuildOptions tune Build. The zero value is the default.
type BuildOptions struct {
	Scheme   Scheme         // the table's index scheme; 0 means DefaultScheme
	Threads  int            // goroutines, at most MaxThreads; 0 means GOMAXPROCS
	Progress func(Progress) // called after each layer, if not nil
	// BlankFree keeps only each placement's value with the blank in its
	// best region (Table.Regions 0), as Korf and Felner's databases do.
	BlankFree bool
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
// A placement's value is the depth of the first layer that
// reaches it; the regions whose states come later (always 2 moves or
// more: a move changes the parity) are flagged in the spare high bits of
// its entry (Table.Regions), unless opts.BlankFree.
//
// When ctx ends, Build stops within milliseconds and returns ctx's error.
func Build(ctx context.Context, size puzzle.Size, goal puzzle.Goal, tiles []int, opts BuildOptions) (*Table, error) {
	if err := checkPattern(size, tiles); err != nil {
		return nil, err
	}
	if err := opts.complete(size, len(tiles)); err != nil {
		return nil, err
	}
	b, err := newBuilder(ctx, size, goal, tiles, opts.BlankFree)
	if err != nil {
		return nil, err
	}
	if err := b.search(tiles, opts); err != nil {
		return nil, err
	}
	regions := b.flagRegions(opts.Threads)
	t, err := b.table(size, goal, tiles, opts.Scheme, opts.Threads)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	t.Regions = regions
	return t, nil
}

// complete checks the options and fills in the defaults of a pattern of
// k tiles on a board of the given size.
func (opts *BuildOptions) complete(size puzzle.Size, k int) error {
	if opts.Threads < 0 || opts.Threads > MaxThreads {
		return fmt.Errorf("%d threads: want 0 to %d", opts.Threads, MaxThreads)
	}
	if opts.Scheme == 0 {
		opts.Scheme = DefaultScheme(size, k)
	}
	if opts.Threads == 0 {
		opts.Threads = min(runtime.GOMAXPROCS(0), MaxThreads)
	}
	return nil
}

// newBuilder returns the builder of the pattern's database, every state
// unseen but the goal's: every pattern tile home, the blank in its
// region.
func newBuilder(ctx context.Context, size puzzle.Size, goal puzzle.Goal, tiles []int, blankFree bool) (*builder, error) {
	n, k := size.Cells(), len(tiles)
	placements, err := pdbcore.NewIndexer(Ranked, n, k)
	if err != nil {
		return nil, err
	}
	b := &builder{
		ctx:        ctx,
		geo:        pdbcore.NewGeometry(size),
		n:          n,
		k:          k,
		free:       uint64(n - k),
		placements: placements,
		codes:      make([]atomic.Uint64, (uint64(placements.Len())*uint64(n-k)+31)/32),
		values:     make([]byte, placements.Len()),
	}
	for i := range k {
		b.weight[i] = placements.Weight(i)
	}
	for i := range b.values {
		b.values[i] = unvalued
	}
	if !blankFree {
		b.later = make([]byte, placements.Len())
	}
	var cells uint64
	var occupied uint32
	for i, t := range tiles {
		cells |= uint64(goal.Home(t, n)) << (CellBits * i)
		occupied |= 1 << goal.Home(t, n)
	}
	b.set(b.state(placements.Index(cells), occupied, goal.Home(0, n)), 0)
	return b, nil
}

// search expands the layers until one finds no new state, reporting each
// to opts.Progress, and values every placement.
func (b *builder) search(tiles []int, opts BuildOptions) error {
	t0 := time.Now()
	p := Progress{Tiles: tiles, Placements: uint64(b.placements.Len()), New: 1, States: 1}
	for depth := 0; ; depth++ {
		newStates, valued := b.layer(depth, opts.Threads)
		if err := b.ctx.Err(); err != nil {
			return err
		}
		p.Depth, p.Valued = depth, p.Valued+valued
		if opts.Progress != nil {
			p.Elapsed = time.Since(t0)
			opts.Progress(p)
		}
		if newStates == 0 {
			break
		}
		if depth+1 == unvalued {
			return fmt.Errorf("pattern %v needs more than %d moves", tiles, unvalued-1)
		}
		p.New = newStates
		p.States += newStates
	}
	// Every placement is reached, except when the pattern holds every tile:
	// then the blank's cell is fixed, and the half of the placements of
	// the wrong parity cannot be reached; the search never looks them up.
	if all := b.k == b.n-1; !all && p.Valued != p.Placements || all && 2*p.Valued != p.Placements {
		return fmt.Errorf("internal error: %d of %d placements unreached", p.Placements-p.Valued, p.Placements)
	}
	for i, v := range b.values {
		if v == unvalued {
			b.values[i] = 0
		}
	}
	return nil
}

// flagRegions moves the flags of the later regions into the values' spare
// high bits and returns how many regions fit: as many as the regions
// flagged and the bits the largest value leaves, at most MaxRegions.
func (b *builder) flagRegions(threads int) int {
	if b.later == nil {
		return 0
	}
	var largest, flagged byte
	for i, v := range b.values {
		largest = max(largest, v)
		flagged |= b.later[i]
	}
	regions := min(8-bits.Len8(largest), bits.Len8(flagged), MaxRegions)
	if regions == 0 {
		return 0
	}
	shift, mask := 8-regions, byte(1)<<regions-1
	b.inChunks(threads, func(p0, p1 uint64) {
		for i := p0; i < p1; i++ {
			b.values[i] |= b.later[i] & mask << shift
		}
	})
	return regions
}

// unvalued marks a placement not reached yet.
const unvalued = 255

func checkPattern(size puzzle.Size, tiles []int) error {
	if err := pdbcore.CheckSize(size); err != nil {
		return err
	}
	n := size.Cells()
	if len(tiles) == 0 || len(tiles) > n-1 {
		return fmt.Errorf("a pattern of %d tiles on %d cells: want 1..%d", len(tiles), n, n-1)
	}
	placements := uint64(1)
	for i := range len(tiles) {
		if placements *= uint64(n - i); placements > maxPlacements {
			return fmt.Errorf("pattern %v: more than %d placements on a %v board, too many to build", tiles, maxPlacements, size)
		}
	}
	seen := 0
	for _, t := range tiles {
		if t <= 0 || t >= n || seen&(1<<t) != 0 {
			return fmt.Errorf("pattern %v: tile %d is repeated or not a tile of a %v board", tiles, t, size)
		}
		seen |= 1 << t
	}
	return nil
}

// table returns the table of the values of the ranked placements,
// re-indexed under scheme.
func (b *builder) table(size puzzle.Size, goal puzzle.Goal, tiles []int, scheme Scheme, threads int) (*Table, error) {
	if scheme == Ranked {
		return &Table{Size: size, Goal: goal, Tiles: tiles, index: b.placements, values: b.values}, nil
	}
	t, values, err := NewTable(size, goal, tiles, scheme)
	if err != nil {
		return nil, err
	}
	b.inChunks(threads, func(p0, p1 uint64) {
		var pl placement
		b.unrank(&pl, p0)
		for {
			values[t.index.Index(pl.cells)] = b.values[pl.rank]
			if pl.rank+1 == p1 {
				return
			}
			b.step(&pl)
		}
	})
	return t, nil
}

type builder struct {
	ctx        context.Context // checked a chunk at a time
	geo        pdbcore.Geometry
	n, k       int
	free       uint64 // non-pattern cells: the states of one placement
	placements pdbcore.Indexer
	weight     [16]uint64      // placements.Weight(i), read in the loop (16 ≥ pdbcore.MaxTiles)
	codes      []atomic.Uint64 // 2 bits a state: 0 unseen, code(depth) in layer depth, 3 closed
	values     []byte          // per ranked placement
	later      []byte          // per ranked placement, bit j: region j comes after the value; nil if blank-free
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

// state returns the index of the state of the placement of the given rank
// with the blank in the region of cell c: the placement's states follow
// one another, one per free cell, and the region's lowest cell stands for
// it.
func (b *builder) state(rank uint64, occupied uint32, c int) uint64 {
	leader := b.geo.Leader(b.geo.All&^occupied, c)
	return rank*b.free + uint64(leader-bits.OnesCount32(occupied&(1<<leader-1)))
}

// chunk is the number of placements a goroutine takes at a time.
const chunk = 1 << 12

// inChunks calls f on chunks p0..p1-1 of all placements from threads
// goroutines.
func (b *builder) inChunks(threads int, f func(p0, p1 uint64)) {
	var next atomic.Uint64
	var wg sync.WaitGroup
	total := uint64(len(b.values))
	for range threads {
		wg.Go(func() {
			for {
				p0 := next.Add(chunk) - chunk
				if p0 >= total || b.ctx.Err() != nil {
					return
				}
				f(p0, min(p0+chunk, total))
			}
		})
	}
	wg.Wait()
}

// layer expands every state at depth, marking its successors at depth+1,
// and values the placements first reached at depth. It returns the number
// of new states and of newly valued placements.
func (b *builder) layer(depth, threads int) (newStates, valued uint64) {
	var allNew, allValued atomic.Uint64
	b.inChunks(threads, func(p0, p1 uint64) {
		n, v := b.expand(p0, p1, depth)
		allNew.Add(n)
		allValued.Add(v)
	})
	return allNew.Load(), allValued.Load()
}

// expand handles placements p0..p1-1 at depth.
func (b *builder) expand(p0, p1 uint64, depth int) (newStates, valued uint64) {
	want := code(depth) * evenBits // the layer's code in every field
	var cur placement
	b.unrank(&cur, p0)
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
				b.seek(&cur, st)
				blank := pdbcore.SelectFree(cur.occupied, uint32(st-cur.rank*b.free))
				if b.values[cur.rank] == unvalued {
					b.values[cur.rank] = byte(depth)
					valued++
				} else if b.later != nil && int(b.values[cur.rank]) < depth {
					b.later[cur.rank] |= 1 << b.geo.Number(cur.occupied, int(blank), MaxRegions)
				}
				newStates += b.successors(&cur, int(blank), depth+1)
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

// placement is the placement being expanded.
type placement struct {
	rank     uint64
	first    uint64 // the index of its first state: rank × free
	cells    uint64 // tile i's cell in bits CellBits·i
	occupied uint32
	tileAt   [puzzle.MaxBoardCells]uint8 // the tile (its index in the pattern) on each occupied cell
}

// maxSteps is how far seek steps before it unranks instead.
const maxSteps = 32

// seek moves pl forward to the placement of state st. Expanded states come
// in increasing order, mostly close together, and stepping to the next
// placement is much cheaper than unranking.
func (b *builder) seek(pl *placement, st uint64) {
	if st-pl.first < b.free {
		return
	}
	if st-pl.first >= maxSteps*b.free {
		b.unrank(pl, st/b.free)
		return
	}
	for st-pl.first >= b.free {
		b.step(pl)
	}
	pl.indexTiles(b.k)
}

// unrank sets pl to the placement of the given rank.
func (b *builder) unrank(pl *placement, rank uint64) {
	pl.rank, pl.first = rank, rank*b.free
	pl.cells, pl.occupied = b.placements.Cells(rank)
	pl.indexTiles(b.k)
}

func (pl *placement) indexTiles(k int) {
	for i := range k {
		pl.tileAt[pdbcore.Cell(pl.cells, i)] = uint8(i)
	}
}

// step moves pl to the next placement in rank order: the last tile that can
// move to a higher free cell does so, and the tiles after it take the
// lowest free cells in order. It leaves tileAt to the caller.
func (b *builder) step(pl *placement) {
	pl.rank++
	pl.first += b.free
	pl.cells, pl.occupied = b.nextPlacement(pl.cells, pl.occupied)
}

func (b *builder) nextPlacement(cells uint64, occupied uint32) (uint64, uint32) {
	const cellMask = 1<<CellBits - 1
	for i := b.k - 1; i >= 0; i-- {
		p := uint(pdbcore.Cell(cells, i))
		occupied &^= 1 << p
		higher := b.geo.All &^ occupied &^ (2<<p - 1)
		if higher == 0 {
			continue
		}
		p = uint(bits.TrailingZeros32(higher))
		cells = cells&^(cellMask<<(CellBits*i)) | uint64(p)<<(CellBits*i)
		occupied |= 1 << p
		for j := i + 1; j < b.k; j++ {
			p = uint(bits.TrailingZeros32(b.geo.All &^ occupied))
			cells = cells&^(cellMask<<(CellBits*j)) | uint64(p)<<(CellBits*j)
			occupied |= 1 << p
		}
		return cells, occupied
	}
	panic("no placement after the last")
}

// successors marks at depth the states one pattern move from placement pl
// with the blank on cell blank. A successor's rank is the parent's updated
// for the one tile that moves (see rankDelta), not computed afresh.
func (b *builder) successors(pl *placement, blank, depth int) (newStates uint64) {
	free := b.geo.All &^ pl.occupied
	region := b.geo.Region(blank, free)
	for i := range b.k {
		q := pdbcore.Cell(pl.cells, i)
		// The tile on q slides into any cell of the region next to it,
		// leaving the blank on q.
		for into := b.geo.Adjacent[q] & region; into != 0; into &= into - 1 {
			c := bits.TrailingZeros32(into)
			occupied := pl.occupied&^(1<<q) | 1<<c
			if b.set(b.state(pl.rank+b.rankDelta(pl, i, q, c), occupied, q), depth) {
				newStates++
			}
		}
	}
	return newStates
}

// rankDelta returns the change in pl's rank when tile i moves from cell q
// to the free cell c. Tile i's digit (its cell among those tiles 0..i-1
// leave free) changes by c−q less the earlier tiles between q and c, and
// each later tile between them gains or loses one free cell below it; the
// others keep their digits. Modulo 2^64 the sum is exact.
func (b *builder) rankDelta(pl *placement, i, q, c int) uint64 {
	lo, hi := min(q, c), max(q, c)
	weight := b.weight[i&15]
	delta := uint64(hi-lo) * weight
	for between := pl.occupied & (1<<hi - 1) &^ (2<<lo - 1); between != 0; between &= between - 1 {
		j := pl.tileAt[bits.TrailingZeros32(between)&(puzzle.MaxBoardCells-1)]
		if int(j) < i {
			delta -= weight
		} else {
			delta += b.weight[j&15]
		}
	}
	if c < q {
		return -delta
	}
	return delta
}
