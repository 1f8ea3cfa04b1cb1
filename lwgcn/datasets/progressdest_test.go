package datasets

import (
	"io"
	"os"
	"testing"
)

// TestProgressDestination: download progress goes to stdout unless told
// otherwise (notebooks show stderr in red, as an error); notices stay on
// stderr; Silent and WithProgress override.
func TestProgressDestination(t *testing.T) {
	if c := newConfig(nil); c.progress != os.Stdout || c.log != os.Stderr {
		t.Errorf("default progress %v, log %v; want stdout, stderr", c.progress, c.log)
	}
	if c := newConfig([]Option{Silent()}); c.progress != io.Discard {
		t.Errorf("Silent: progress %v", c.progress)
	}
	if c := newConfig([]Option{WithProgress(os.Stderr)}); c.progress != os.Stderr {
		t.Errorf("WithProgress(os.Stderr): progress %v", c.progress)
	}
}
