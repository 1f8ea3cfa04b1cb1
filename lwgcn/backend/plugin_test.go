package backend

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// buildSharedLib compiles C source into a shared library with the system C
// compiler (the one cgo builds the XLA bridge with).
func buildSharedLib(t *testing.T, dir, name, src string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("ELF checks run on Linux only")
	}
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if xlaCompiledIn {
			t.Fatalf("gcc not found, yet this binary was built with cgo: %v", err)
		}
		t.Skip("no C compiler and no cgo: cannot build a test library")
	}
	c := filepath.Join(dir, name+".c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	so := filepath.Join(dir, name)
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", so, c).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return so
}

// A library exporting GetPjrtApi that returns NULL: it passes the file
// checks and fails inside go-xla's loader.
const nilPJRTSource = "void *GetPjrtApi(void) { return 0; }\n"

const otherLibSource = "int not_pjrt(void) { return 1; }\n"

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckPluginFile plants each kind of wrong plugin file and checks the
// one line that names it and says what is wrong.
func TestCheckPluginFile(t *testing.T) {
	dir := t.TempDir()
	good := buildSharedLib(t, dir, "pjrt_c_api_fake_plugin.so", nilPJRTSource)
	other := buildSharedLib(t, dir, "libother.so", otherLibSource)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	truncatedTail := writeFile(t, filepath.Join(dir, "tail.so"), data[:len(data)*3/4])
	truncatedHead := writeFile(t, filepath.Join(dir, "head.so"), data[:40])
	text := writeFile(t, filepath.Join(dir, "text.so"), []byte("this is not a library\n"))
	foreign := append([]byte(nil), data...)
	machine := uint16(183) // EM_AARCH64
	if runtime.GOARCH == "arm64" {
		machine = 62 // EM_X86_64
	}
	binary.LittleEndian.PutUint16(foreign[18:], machine) // e_machine
	foreignPath := writeFile(t, filepath.Join(dir, "foreign.so"), foreign)

	if err := CheckPluginFile(good); err != nil {
		t.Fatalf("a library exporting GetPjrtApi: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.so"), "no such file (run `make xla`"},
		{dir, "is a directory"},
		{"relative/plugin.so", "not an absolute path"},
		{text, "not an ELF shared library"},
		{truncatedHead, "corrupt or truncated ELF file"},
		{truncatedTail, "truncated"},
		{other, "does not export GetPjrtApi: not a PJRT plugin"},
		{foreignPath, "built for EM_"},
	} {
		err := CheckPluginFile(c.path)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.path, c.want)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "XLA plugin "+c.path+": ") || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want one line naming the file and saying %q", c.path, msg, c.want)
		}
	}
}

// TestXLARequestFailsInOneLine: GOMLX_BACKEND=xla:... with a bad or
// missing plugin is an error naming the file; never a panic, never a hang,
// never another backend.
func TestXLARequestFailsInOneLine(t *testing.T) {
	if !xlaCompiledIn {
		t.Setenv(EnvBackend, "xla:cpu")
		_, _, err := New()
		if err == nil || !strings.Contains(err.Error(), "not compiled in") {
			t.Fatalf("err = %v, want XLA not compiled in", err)
		}
		return
	}
	dir := t.TempDir()
	nilAPI := buildSharedLib(t, dir, "nilapi.so", nilPJRTSource)
	text := writeFile(t, filepath.Join(dir, "text.so"), []byte("not a library"))
	// A search folder holding an invalid plugin (go-xla's own search panics
	// on this).
	searchDir := filepath.Join(dir, "search")
	if err := os.Mkdir(searchDir, 0o755); err != nil {
		t.Fatal(err)
	}
	badInSearch := writeFile(t, filepath.Join(searchDir, PluginFileName("cpu")), []byte("garbage"))
	emptyDir := filepath.Join(dir, "empty")
	if err := os.Mkdir(emptyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvXLATimeout, "60s")
	for _, c := range []struct {
		name, backend string
		env           map[string]string
		want          []string
	}{
		{"text file", "xla:" + text, nil, []string{text, "not an ELF shared library"}},
		{"missing file", "xla:" + filepath.Join(dir, "nope.so"), nil, []string{"nope.so", "no such file"}},
		{"nil PJRT API", "xla:" + nilAPI, nil, []string{nilAPI, "go-xla panicked loading it"}},
		{"bad LWGCN_XLA_PLUGIN", "xla:cpu", map[string]string{EnvXLAPlugin: text}, []string{EnvXLAPlugin, text, "not an ELF"}},
		{"bad file in search path", "xla:cpu", map[string]string{EnvXLAPlugin: "", EnvPJRTPath: searchDir},
			[]string{badInSearch, "not an ELF"}},
		{"nothing found, no download", "xla:cpu", map[string]string{EnvXLAPlugin: "", EnvPJRTPath: emptyDir, EnvNoAutoInstall: "1"},
			[]string{"no XLA plugin file " + PluginFileName("cpu") + " in " + emptyDir, "make xla"}},
		// Without GOMLX_NO_AUTO_INSTALL go-xla would download the latest
		// plugin from GitHub, unchecked, and load it: lwgcn never lets it.
		{"nothing found, GOMLX_NO_AUTO_INSTALL unset", "xla:cpu", map[string]string{EnvXLAPlugin: "", EnvPJRTPath: emptyDir,
			EnvNoAutoInstall: "", "HOME": emptyDir}, []string{"no XLA plugin file " + PluginFileName("cpu"), "run `make xla`"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvBackend, c.backend)
			for k, v := range c.env {
				t.Setenv(k, v)
				if v == "" {
					os.Unsetenv(k)
				}
			}
			b, info, err := New()
			if err == nil {
				b.Finalize()
				t.Fatalf("got backend %s, want an error", info.Name)
			}
			msg := err.Error()
			if strings.Contains(msg, "go-xla's install") || strings.Contains(msg, "gave up after") {
				t.Errorf("go-xla was let to install a plugin: %s", msg)
			}
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "backend: GOMLX_BACKEND="+c.backend+": ") {
				t.Fatalf("error %q: want one line starting with the request", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
	t.Run("bad timeout value", func(t *testing.T) {
		t.Setenv(EnvBackend, "xla:cpu")
		t.Setenv(EnvXLATimeout, "soon")
		if _, _, err := New(); err == nil || !strings.Contains(err.Error(), EnvXLATimeout+`="soon"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestInstalledPlugin loads the plugin `make xla` installed (LWGCN_XLA_PLUGIN,
// set by the Makefile) by path and by name, and checks a truncated copy and
// a 1ns timeout fail in one line. Without LWGCN_XLA_PLUGIN it is skipped.
func TestInstalledPlugin(t *testing.T) {
	plugin := os.Getenv(EnvXLAPlugin)
	if plugin == "" {
		t.Skip(EnvXLAPlugin + " unset (run `make xla`; `make test` sets it)")
	}
	if !xlaCompiledIn {
		t.Fatalf("%s is set but this binary has no XLA: %s", EnvXLAPlugin, xlaMissingReason)
	}
	for _, req := range []string{"xla:cpu", "xla:" + plugin} {
		t.Setenv(EnvBackend, req)
		b, info, err := New()
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		if info.Name != "xla:cpu" || info.Plugin != plugin || info.PJRTVersion == "" {
			t.Fatalf("%s: info %+v", req, info)
		}
		if line := info.String(); !strings.Contains(line, "backend: xla:cpu") || !strings.Contains(line, "PJRT v0.") {
			t.Fatalf("line %q", line)
		}
		b.Finalize()
	}

	// Options given after the plugin stay in the recorded name.
	t.Setenv(EnvBackend, "xla:"+plugin+",tf32=false")
	b, info, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "xla:cpu,tf32=false" {
		t.Fatalf("with an option: name %q, want xla:cpu,tf32=false", info.Name)
	}
	b.Finalize()

	// A copy cut short, as an interrupted download leaves it.
	f, err := os.Open(plugin)
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 1<<20)
	n, _ := f.Read(head)
	f.Close()
	cut := writeFile(t, filepath.Join(t.TempDir(), PluginFileName("cpu")), head[:n])
	t.Setenv(EnvBackend, "xla:"+cut)
	if _, _, err := New(); err == nil || !strings.Contains(err.Error(), cut+": corrupt or truncated ELF file") {
		t.Fatalf("truncated copy: err = %v", err)
	}

	t.Setenv(EnvBackend, "xla:cpu")
	t.Setenv(EnvXLATimeout, "1ns")
	if b, _, err := New(); err == nil {
		b.Finalize() // The plugin won the race: nothing to check.
	} else if !strings.Contains(err.Error(), "gave up after 1ns waiting for the XLA plugin") {
		t.Fatalf("timeout: err = %v", err)
	}
}
