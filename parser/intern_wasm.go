package parser

// internBlockBits sets the intern table's blocks of records after its
// first: 4 MiB, the unit the runtime grows its heap by. Under wasm,
// records allocated in small blocks, on a capture of many distinct
// objects (core/v1 Events, each a new object), keep the runtime and node
// growing the heap and wasm memory (and collecting node's own heap, which
// the growth sets off); blocks of the heap's unit of growth avoid most of
// it (docs/performance.md, "Parser as wasm", the Events row).
const internBlockBits = 22
