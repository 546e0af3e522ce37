package parser

// commonPrefix returns how many bytes a and b begin with alike. It is
// written in assembly (commonprefix_amd64.s): a pod's fieldsV1 values
// share runs of kilobytes with the last one's, and a call of bytes.Equal
// for each run of 64 bytes costs more than the comparison in it.
//
//go:noescape
func commonPrefix(a, b []byte) int
