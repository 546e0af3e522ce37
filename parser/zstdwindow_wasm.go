package parser

// maxZstdWindow is 512 MiB in the browser: there a page's memory grows by
// a frame's whole window at once, and a tab gets at most 4 GiB of it, so
// a --long=30 or --long=31 capture (1 and 2 GiB windows) would take the
// page down. The command line reads those.
const maxZstdWindow uint64 = 1 << 29

const zstdWindowAdvice = "the page does not read (watchlens analyze on the command line reads windows up to 2 GiB)"
