package backend

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/buildinfo"
)

const (
	// EnvXLAPlugin names the XLA CPU PJRT plugin file "xla:cpu" loads first
	// (the Makefile sets it to the one `make xla` installs).
	EnvXLAPlugin = "LWGCN_XLA_PLUGIN"
	// EnvPJRTPath is go-xla's plugin search path (a ":"-separated list).
	EnvPJRTPath = "PJRT_PLUGIN_LIBRARY_PATH"
	// EnvNoAutoInstall stops go-xla's plugin download when set (any value);
	// lwgcn sets it (and links no installer), so go-xla never downloads.
	EnvNoAutoInstall = "GOMLX_NO_AUTO_INSTALL"

	// ProjectPluginDir is where `make xla` installs the plugin, relative to
	// the repository root.
	ProjectPluginDir = "build/xla"

	// getPJRTAPISymbol is the function every PJRT plugin exports.
	getPJRTAPISymbol = "GetPjrtApi"
)

// PluginFileName is the file name go-xla gives the PJRT plugin called name
// ("cpu" → pjrt_c_api_cpu_plugin.so).
func PluginFileName(name string) string {
	ext := ".so"
	switch runtime.GOOS {
	case "darwin":
		ext = ".dylib"
	case "windows":
		ext = ".dll"
	}
	return "pjrt_c_api_" + name + "_plugin" + ext
}

// CheckPluginFile inspects a PJRT plugin file before anything loads it, so
// that the usual ways of having a wrong file (missing, a directory, not a
// shared library, built for another CPU, cut short by an interrupted copy,
// not a PJRT plugin) give one line naming the file instead of a dlopen
// failure deep in go-xla (whose search even panics on such a file). It does
// not run any code of the plugin.
func CheckPluginFile(path string) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("XLA plugin %s: %s", path, fmt.Sprintf(format, args...))
	}
	if !filepath.IsAbs(path) {
		return fail("not an absolute path")
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail("no such file (run `make xla` to install the pinned plugin)")
	case err != nil:
		return fail("%v", unwrapPath(err))
	case st.IsDir():
		return fail("is a directory, not a plugin file")
	case !st.Mode().IsRegular():
		return fail("not a regular file")
	}
	if runtime.GOOS != "linux" {
		return nil // Mach-O and PE files are left to the loader.
	}
	f, err := elf.Open(path)
	if err != nil {
		if hasELFMagic(path) {
			return fail("corrupt or truncated ELF file (%v; download or copy cut short? run `make xla` again)", unwrapPath(err))
		}
		return fail("not an ELF shared library (%v)", unwrapPath(err))
	}
	defer f.Close()
	if f.Type != elf.ET_DYN {
		return fail("ELF file of type %v, not a shared library", f.Type)
	}
	if want, ok := hostMachine(); ok && f.Machine != want {
		return fail("built for %v, this machine is %v", f.Machine, want)
	}
	// An interrupted download or copy leaves the headers intact but the
	// sections short: dlopen would fail with a terse "file too short".
	var need uint64
	for _, p := range f.Progs {
		need = max(need, p.Off+p.Filesz)
	}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOBITS {
			need = max(need, s.Offset+s.FileSize)
		}
	}
	if size := uint64(st.Size()); size < need {
		return fail("truncated: %d bytes, its headers need %d (download or copy cut short? run `make xla` again)", size, need)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return fail("reading its dynamic symbols: %v", err)
	}
	for _, s := range syms {
		if s.Name == getPJRTAPISymbol && elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF {
			return nil
		}
	}
	return fail("does not export %s: not a PJRT plugin", getPJRTAPISymbol)
}

func hasELFMagic(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 4)
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == elf.ELFMAG
}

func hostMachine() (elf.Machine, bool) {
	switch runtime.GOARCH {
	case "amd64":
		return elf.EM_X86_64, true
	case "arm64":
		return elf.EM_AARCH64, true
	}
	return 0, false
}

// unwrapPath drops the path an *fs.PathError repeats (the message already
// names the file).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pluginSearchDirs are the folders "xla:<name>" looks in, in order: go-xla's
// PJRT_PLUGIN_LIBRARY_PATH when set, else the project's build/xla (found
// from the current directory or beside the executable's bin/ folder) and
// go-xla's own install folders.
func pluginSearchDirs() []string {
	if v, ok := os.LookupEnv(EnvPJRTPath); ok {
		var dirs []string
		for _, d := range strings.Split(v, ":") {
			if d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	var dirs []string
	if root := buildinfo.SourceDir(); root != "" {
		dirs = append(dirs, filepath.Join(root, ProjectPluginDir))
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Join(filepath.Dir(filepath.Dir(exe)), ProjectPluginDir))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "lib", "go-xla"))
	}
	return append(dirs, "/usr/local/lib/go-xla")
}

// findPlugin returns the plugin file "xla:<name>" should load: the file
// LWGCN_XLA_PLUGIN names (for "cpu"), else the first file named
// PluginFileName(name) in pluginSearchDirs. found is false when there is none
// (go-xla's auto-install may then fetch one). The file is checked with
// CheckPluginFile.
func findPlugin(name string) (path string, found bool, err error) {
	if name == "cpu" {
		if p := os.Getenv(EnvXLAPlugin); p != "" {
			abs, err := filepath.Abs(p)
			if err != nil {
				return p, true, fmt.Errorf("%s=%q: %w", EnvXLAPlugin, p, err)
			}
			if err := CheckPluginFile(abs); err != nil {
				return abs, true, fmt.Errorf("%s: %w", EnvXLAPlugin, err)
			}
			return abs, true, nil
		}
	}
	for _, dir := range pluginSearchDirs() {
		p, err := filepath.Abs(filepath.Join(dir, PluginFileName(name)))
		if err != nil {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		return p, true, CheckPluginFile(p)
	}
	return "", false, nil
}
