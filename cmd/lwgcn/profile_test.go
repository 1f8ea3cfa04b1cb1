package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfileEnv runs a command with LWGCN_CPUPROFILE: the file is a
// gzip-compressed profile (what go tool pprof reads), and a path that
// cannot be created fails the command with the variable named.
func TestCPUProfileEnv(t *testing.T) {
	bin := lwgcnBinary(t)
	run := func(path string) (error, string) {
		cmd := exec.Command(bin, "bench", "-list")
		cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go", cpuProfileEnv+"="+path)
		var e bytes.Buffer
		cmd.Stderr = &e
		return cmd.Run(), e.String()
	}
	path := filepath.Join(t.TempDir(), "cpu.prof")
	if err, stderr := run(path); err != nil {
		t.Fatalf("bench -list with %s: %v\n%s", cpuProfileEnv, err, stderr)
	} else if !strings.Contains(stderr, "writing a CPU profile to "+path) {
		t.Errorf("stderr does not say where the profile goes:\n%s", stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("profile %s is not gzip-compressed: %v", path, err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || len(body) == 0 {
		t.Fatalf("profile %s: %d bytes after decompression, %v", path, len(body), err)
	}

	bad := filepath.Join(t.TempDir(), "missing-dir", "cpu.prof")
	err, stderr := run(bad)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
		t.Fatalf("profile into a missing directory: %v, want exit status %d\n%s", err, exitFailure, stderr)
	}
	if !strings.Contains(stderr, cpuProfileEnv) || !strings.Contains(stderr, bad) {
		t.Errorf("error does not name %s and the file:\n%s", cpuProfileEnv, stderr)
	}
}
