package timeline

import "fmt"

// Outcome is a model's answer for one reconnect.
type Outcome uint8

const (
	Accepted Outcome = iota
	Refused
	Unknown
	// AtRisk: past what the server is sure to keep, and nothing shows it
	// must refuse.
	AtRisk
)

var outcomeNames = [...]string{"accepted", "refused", "unknown", "at-risk"}

func (o Outcome) String() string { return outcomeNames[o] }

// MarshalText writes the outcome as its name, the form the report's JSON
// contract gives it ("accepted", "refused", "unknown", "at-risk").
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome from its name, so a report's JSON reads
// back.
func (o *Outcome) UnmarshalText(b []byte) error {
	for k, name := range outcomeNames {
		if string(b) == name {
			*o = Outcome(k)
			return nil
		}
	}
	return fmt.Errorf("unknown outcome %q", b)
}
