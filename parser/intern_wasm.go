package parser

// internBlockBits sets the intern table's blocks of records after its
// first: 4 MiB, the unit the runtime grows its heap by. Under wasm,
// records allocated 16 KiB at a time, on a capture of many distinct
// objects (core/v1 Events, each a new object), cost about a fifth of the
// read under node, most of it the runtime's and node's work in growing
// the heap and wasm memory (and the collections of node's own heap that
// the growth sets off); blocks of the heap's unit of growth avoid most of
// it. Blocks of 64 KiB or 512 KiB did not.
const internBlockBits = 22
