package solver

// noFileSystem is true on js/wasm: a page's WebAssembly has no file
// system to keep databases in, so they are built in memory (InMemory).
const noFileSystem = true
