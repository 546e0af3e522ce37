package words

// The hovers and the Reconnect at panel say, in the margins the views
// show around the shared clock, that nothing was recorded there: the
// same words for one recording and several.

// RecordingBegins says that nothing of the recording (or, several, the
// recordings) was recorded before at, the shared clock's first instant:
// "The recording begins at T: nothing was recorded before it" (no full
// stop: callers go on).
func RecordingBegins(several bool, at string) string {
	return recordings(several, "begin") + " at " + at + ": nothing was recorded before it"
}

// RecordingEnds says that nothing of the recording (or, several, the
// recordings) was recorded after at, the shared clock's last instant:
// "The recordings end at T: nothing was recorded after it".
func RecordingEnds(several bool, at string) string {
	return recordings(several, "end") + " at " + at + ": nothing was recorded after it"
}

// recordings is the sentence's subject and verb: "The recording ends",
// "The recordings end".
func recordings(several bool, verb string) string {
	if several {
		return "The recordings " + verb
	}
	return "The recording " + verb + "s"
}
