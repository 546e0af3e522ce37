package jsrt

// Rejection is why a promise was rejected: Name is the JS error's class
// ("TypeError"), which some callers tell apart, and Message its text.
type Rejection struct{ Name, Message string }

func (e Rejection) Error() string { return e.Message }
