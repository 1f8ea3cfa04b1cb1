package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"
)

// Writing files. Every file lwgcn writes goes through WriteFileAtomic (a
// temporary file in the same directory, fsynced and renamed, so readers
// never see a partial file), and a file several processes may update
// (results files, merged benchmark tables) through Update, which holds an
// OS lock on the file's directory around its read-merge-write: concurrent
// writers merge instead of overwriting each other. Both write through
// symlinks (the link's target is replaced, the link stays) and keep an
// existing file's mode, as an editor would. CheckOutput and CheckFile
// check an output path before a command starts its work.

// maxLinks bounds the symlinks followed to a file's target.
const maxLinks = 40

// Target is the file path names once symlinks are followed: the file that
// writing path replaces. A dangling link gives its (absent) target; a path
// that does not exist is returned as is.
func Target(path string) (string, error) {
	p := path
	for range maxLinks {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dst, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dst) {
			dst = filepath.Join(filepath.Dir(p), dst)
		}
		p = dst
	}
	return "", fmt.Errorf("%s: more than %d symlinks", path, maxLinks)
}

// WriteFileAtomic writes data to path (its target, through symlinks)
// through a temp file in the same directory, fsynced and renamed, so
// readers never see a partial file. An existing file keeps its mode; a new
// one gets 0644. Missing parent directories are created.
func WriteFileAtomic(path string, data []byte) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Chmod(name, mode); err != nil {
		return err
	}
	if err := os.Rename(name, target); err != nil {
		return fmt.Errorf("rename %s: %w", path, err)
	}
	ok = true
	return nil
}

// Update rewrites path under an exclusive OS lock on its directory (the
// target's, through symlinks): fn gets the file's current content (nil when
// it does not exist) and returns the content to write atomically. Writers
// of one file in several processes (or goroutines) each see the others'
// last write. An error from fn leaves the file as it is. The lock is taken
// on the directory, so that no lock file is left beside the user's files.
func Update(path string, fn func(old []byte) ([]byte, error)) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lock := flock.New(dir, flock.SetFlag(os.O_RDONLY))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("locking %s for %s: %w", dir, path, err)
	}
	defer lock.Close()
	old, err := os.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		old, err = nil, nil
	}
	if err != nil {
		return err
	}
	data, err := fn(old)
	if err != nil {
		return err
	}
	return WriteFileAtomic(target, data)
}

// CheckOutput checks, before a command does its work, that it will be able
// to write path: the path is not a directory, its nearest existing parent
// is a directory where files can be created, and an existing file (through
// symlinks) is one the command itself writes: ours (nil: any) is given its
// content and returns an error saying what it is otherwise. Nothing is
// changed; the errors name path.
func CheckOutput(path string, ours func(content []byte) error) error {
	target, err := Target(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a directory, not a file", path)
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", path)
	case err == nil:
		if ours != nil {
			data, err := os.ReadFile(target)
			if err != nil {
				return err
			}
			if err := ours(data); err != nil {
				return fmt.Errorf("%s exists and %v: name a new file (or move this one away)", path, err)
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		// e.g. a parent that is a file: "not a directory"
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	// The nearest existing ancestor must be a writable directory.
	dir := filepath.Dir(target)
	for {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s: %s is not a directory", path, dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	probe, err := os.CreateTemp(dir, ".lwgcn-write-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot create files in %s: %w", path, dir, unwrapPath(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// unwrapPath drops the *PathError wrapper (its path is named already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckFile is CheckOutput for a results file: an existing file must be a
// results file Open reads.
func CheckFile(path string) error {
	return CheckOutput(path, func(data []byte) error {
		if _, err := parse(path, data); err != nil {
			return fmt.Errorf("is not a results file (%v)", err)
		}
		return nil
	})
}
