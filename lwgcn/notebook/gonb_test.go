//go:build linux || darwin

package notebook

import (
	"encoding/gob"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/lwgcn/toolkit/lwgcn/plot"
)

// TestGoNBPipeProtocol runs this test binary as a child "cell" with GoNB's
// named pipes set up, and decodes what the real gonbui sends: the display
// data the kernel would publish to Jupyter.
func TestGoNBPipeProtocol(t *testing.T) {
	if os.Getenv("LWGCN_GONB_CHILD") == "1" {
		gonbChild()
		return
	}
	dir := t.TempDir()
	toKernel, fromKernel := filepath.Join(dir, "out"), filepath.Join(dir, "back")
	for _, p := range []string{toKernel, fromKernel} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGoNBPipeProtocol$")
	cmd.Env = append(os.Environ(), "LWGCN_GONB_CHILD=1", protocol.GONB_PIPE_ENV+"="+toKernel, protocol.GONB_PIPE_BACK_ENV+"="+fromKernel)
	var childOut strings.Builder
	cmd.Stdout, cmd.Stderr = &childOut, &childOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child opens "back" for reading: hold it open for writing.
	backCh := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fromKernel, os.O_WRONLY, 0)
		if err == nil {
			backCh <- f
		}
	}()
	type result struct {
		msgs  []*protocol.DisplayData
		syncs int // gonbui.Sync requests, acknowledged as GoNB does
		err   error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		f, err := os.Open(toKernel)
		if err != nil {
			r.err = err
			done <- r
			return
		}
		defer f.Close()
		dec := gob.NewDecoder(f)
		var ack *gob.Encoder
		for {
			d := &protocol.DisplayData{}
			if err := dec.Decode(d); err != nil {
				if !errors.Is(err, io.EOF) {
					r.err = err
				}
				done <- r
				return
			}
			// gob hands the request over as a value (GoNB's dispatch
			// asserts protocol.CommValue).
			if req, ok := d.Data[protocol.MIMECommValue].(protocol.CommValue); ok && req.Address == protocol.GonbuiSyncAddress {
				if ack == nil {
					back := <-backCh
					defer back.Close()
					ack = gob.NewEncoder(back)
				}
				if err := ack.Encode(&protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: req.Value}); err != nil {
					r.err = err
					done <- r
					return
				}
				r.syncs++
				continue
			}
			r.msgs = append(r.msgs, d)
		}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("timed out reading the GoNB pipe")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, childOut.String())
	}
	select {
	case f := <-backCh: // opened but never used for an acknowledgement
		f.Close()
	default:
	}
	if r.err != nil {
		t.Fatalf("decoding display data: %v", r.err)
	}
	if len(r.msgs) != 4 {
		t.Fatalf("got %d display messages, want 4 (svg, table, 2 progress draws)", len(r.msgs))
	}
	// Every display waits for GoNB to take it (a cell's program may exit
	// right after its last figure).
	if r.syncs != len(r.msgs) {
		t.Errorf("%d sync requests for %d displays", r.syncs, len(r.msgs))
	}
	svg, _ := r.msgs[0].Data[protocol.MIMEImageSVG].(string)
	if !strings.HasPrefix(svg, "<svg") || r.msgs[0].Data[protocol.MIMETextPlain] != `[figure "pipe test": SVG, `+strconv.Itoa(len(svg))+` bytes]` {
		t.Errorf("SVG message: %v", r.msgs[0].Data)
	}
	if h, _ := r.msgs[1].Data[protocol.MIMETextHTML].(string); !strings.Contains(h, "<table") {
		t.Errorf("table message: %v", r.msgs[1].Data)
	}
	if id := r.msgs[2].DisplayID; id == "" || r.msgs[3].DisplayID != id {
		t.Errorf("progress display ids %q, %q", id, r.msgs[3].DisplayID)
	}
	if h, _ := r.msgs[3].Data[protocol.MIMETextHTML].(string); !strings.Contains(h, "3/3 (100%)") {
		t.Errorf("final progress: %q", h)
	}
	if strings.TrimSpace(childOut.String()) != "PASS" {
		t.Errorf("child wrote text output: %q", childOut.String())
	}
}

// gonbChild is the "cell": it displays through the real gonbui.
func gonbChild() {
	if !InNotebook() {
		panic("gonbui did not detect the GoNB pipes")
	}
	fixed := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now = func() time.Time { return fixed } // no time-dependent redraws
	Plot(plot.NewLine("pipe test").Add(plot.Series{Name: "s", Y: []float64{1, 2}}))
	Table(plot.NewTable("t").Row(plot.Text("a"), plot.Num(1, 0)))
	b := Progress(3, "steps")
	b.Update(1, "") // within NotebookRefresh of the first draw: no redraw
	b.Done()
}
