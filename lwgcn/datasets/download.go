package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// ChecksumError reports a file whose size or SHA-256 differs from the pinned
// (or first-seen) value.
type ChecksumError struct {
	// File is the cache path (MirrorDir/Path) of the file.
	File string
	// From is where the bytes came from: a URL, a mirror file or the cache.
	From string
	// Expected and Actual are lower-case hex SHA-256 sums; Actual is "" when
	// the size was already wrong.
	Expected, Actual string
	// ExpectedSize and ActualSize are set when the size differs.
	ExpectedSize, ActualSize int64
	// Hint says how to recover.
	Hint string
}

func (e *ChecksumError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "datasets: checksum mismatch for %s (from %s): ", e.File, e.From)
	if e.ExpectedSize != e.ActualSize {
		fmt.Fprintf(&b, "size %d bytes, expected %d; ", e.ActualSize, e.ExpectedSize)
	}
	fmt.Fprintf(&b, "expected sha256 %s, actual %s", e.Expected, orUnknown(e.Actual))
	if e.Hint != "" {
		b.WriteString("; " + e.Hint)
	}
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "(not computed)"
	}
	return s
}

// ErrNotCached is wrapped when Offline forbids a download that is needed.
var ErrNotCached = errors.New("not in the cache and downloads are disabled (Offline)")

var errStalled = errors.New("download stalled")

// sidecarSuffix names the file that records the SHA-256 of an unpinned file
// on first download ("<sha256>  <name>\n", as sha256sum writes).
const sidecarSuffix = ".sha256"

// Fetch makes sure f is in the cache, downloading it from the mirror or the
// canonical URL if needed, verifies it and returns its local path.
func Fetch(ctx context.Context, f File, opts ...Option) (string, error) {
	cfg := newConfig(opts)
	dir, err := cfg.resolveCacheDir()
	if err != nil {
		return "", err
	}
	if err := cfg.validateMirror(); err != nil {
		return "", err
	}
	return cfg.fetch(ctx, dir, f)
}

// FetchDataset fetches every file Load would need for the dataset and returns
// their local paths in the order of the dataset's files.
func FetchDataset(ctx context.Context, name string, opts ...Option) ([]string, error) {
	d, ok := Lookup(name)
	if !ok {
		return nil, lookupErr(name)
	}
	cfg := newConfig(opts)
	files := d.filesFor(cfg)
	fs, err := cfg.fetchAll(ctx, files)
	if err != nil {
		return nil, err
	}
	return paths(fs, files), nil
}

func (cfg *config) fetchAll(ctx context.Context, files []File) (fileSet, error) {
	dir, err := cfg.resolveCacheDir()
	if err != nil {
		return nil, err
	}
	if err := cfg.validateMirror(); err != nil {
		return nil, err
	}
	fs := fileSet{}
	for _, f := range files {
		p, err := cfg.fetch(ctx, dir, f)
		if err != nil {
			return nil, err
		}
		fs[f.CachePath()] = p
	}
	return fs, nil
}

// fetch returns the verified cache path of f, downloading it when absent.
func (cfg *config) fetch(ctx context.Context, cacheDir string, f File) (string, error) {
	dst := filepath.Join(cacheDir, filepath.FromSlash(f.CachePath()))
	if st, err := os.Stat(dst); err == nil {
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("datasets: %s exists but is not a regular file", dst)
		}
		return dst, cfg.verifyCached(dst, f)
	}
	mdir, local := cfg.mirrorDir()
	if cfg.offline && !local {
		return "", fmt.Errorf("datasets: %s: %w", dst, ErrNotCached)
	}
	if err := cfg.checkTrust(dst, f, local || cfg.mirror != ""); err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("datasets: creating cache directory: %w", err)
	}
	var (
		body  io.ReadCloser
		total int64
		from  string
		err   error
	)
	if local {
		from = filepath.Join(mdir, filepath.FromSlash(f.CachePath()))
		body, total, err = openLocal(ctx, from)
	} else {
		from = f.URL()
		if cfg.mirror != "" {
			from = strings.TrimRight(cfg.mirror, "/") + "/" + f.CachePath()
		}
		body, total, err = cfg.openHTTP(ctx, from, f)
	}
	if err != nil {
		return "", err
	}
	defer body.Close()
	// No more than the pinned size (or the stated limit of unpinned files)
	// is read: an endless or oversized response fails at the cap.
	limit, what := f.Size, "pinned size"
	if !f.Pinned() {
		limit, what = maxUnpinnedBytes, "limit for unpinned files"
	}
	if total > limit {
		return "", limits.Errorf("datasets: %s from %s: %d bytes, more than the %s of %d bytes", f.CachePath(), from, total, what, limit)
	}
	capped := limits.Reader(body, limit, fmt.Sprintf("datasets: %s from %s: the %s", f.CachePath(), from, what))
	return dst, cfg.download(capped, total, from, dst, f)
}

// MaxUnpinnedBytes is the most an unpinned file's download may hold (the
// largest, arxiv.zip, is about 81 MB).
const MaxUnpinnedBytes = 1 << 30

// maxUnpinnedBytes is MaxUnpinnedBytes (lowered by tests).
var maxUnpinnedBytes int64 = MaxUnpinnedBytes

// checkTrust refuses, before any download, an unpinned file from a mirror
// (fromMirror: not its canonical host) when neither a recorded sum (made on
// a download from the canonical host) nor one passed with WithSHA256 can
// vouch for it: a mirror's file would otherwise be trusted on first use and
// its hash recorded, so the genuine file would be refused later.
func (cfg *config) checkTrust(dst string, f File, fromMirror bool) error {
	if f.Pinned() || !fromMirror || cfg.sums[f.CachePath()] != "" {
		return nil
	}
	recorded, err := readSidecar(dst + sidecarSuffix)
	if err != nil || recorded != "" {
		return err
	}
	return fmt.Errorf("datasets: %s is not pinned and would come from the mirror %s, not its canonical host %s: pass its "+
		"SHA-256 (datasets.WithSHA256, lwgcn -sha256 %s=SUM), or download it once from the canonical host (no mirror)",
		f.CachePath(), cfg.mirror, f.URL(), f.CachePath())
}

// download streams body into a temporary file next to dst, verifies it and
// renames it into place; on any failure the temporary file is removed, so a
// file at dst is always complete and verified.
func (cfg *config) download(body io.Reader, total int64, from, dst string, f File) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".part-*")
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if total < 0 && f.Size > 0 {
		total = f.Size
	}
	bar := cfg.bar(total, f.CachePath())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h, bar), body)
	if pb, ok := bar.(*progressbar.ProgressBar); ok && (err != nil || total <= 0 || n != total) {
		pb.Exit() // ends the bar's line; a complete bar ends it itself
	}
	if err != nil {
		return fmt.Errorf("datasets: downloading %s from %s: %w", f.CachePath(), from, err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if f.Pinned() && (n != f.Size || got != f.SHA256) {
		return &ChecksumError{File: f.CachePath(), From: from, Expected: f.SHA256, Actual: got,
			ExpectedSize: f.Size, ActualSize: n}
	}
	side := dst + sidecarSuffix
	recorded := ""
	if !f.Pinned() {
		if want := cfg.sums[f.CachePath()]; want != "" && want != got {
			return &ChecksumError{File: f.CachePath(), From: from, Expected: want, Actual: got, Hint: "expected is the sum passed with WithSHA256"}
		}
		recorded, err = readSidecar(side)
		if err != nil {
			return err
		}
		if recorded != "" && recorded != got {
			return &ChecksumError{File: f.CachePath(), From: from, Expected: recorded, Actual: got,
				Hint: "expected is the sum recorded on first download in " + side + "; delete it to accept the new file"}
		}
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err = os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if !f.Pinned() && recorded == "" {
		return cfg.recordSidecar(side, dst, got, f)
	}
	return nil
}

// verifyCached checks a file already in the cache.
func (cfg *config) verifyCached(path string, f File) error {
	got, n, err := hashFile(path)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if f.Pinned() {
		if n != f.Size || got != f.SHA256 {
			return &ChecksumError{File: f.CachePath(), From: path, Expected: f.SHA256, Actual: got,
				ExpectedSize: f.Size, ActualSize: n, Hint: "delete the cached file to download it again"}
		}
		return nil
	}
	if want := cfg.sums[f.CachePath()]; want != "" && want != got {
		return &ChecksumError{File: f.CachePath(), From: path, Expected: want, Actual: got, Hint: "expected is the sum passed with WithSHA256"}
	}
	side := path + sidecarSuffix
	recorded, err := readSidecar(side)
	if err != nil {
		return err
	}
	if recorded == "" {
		return cfg.recordSidecar(side, path, got, f)
	}
	if recorded != got {
		return &ChecksumError{File: f.CachePath(), From: path, Expected: recorded, Actual: got,
			Hint: "expected is the sum recorded on first download in " + side}
	}
	return nil
}

func hashFile(path string) (string, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// readSidecar returns the recorded sum, or "" when there is no record.
func readSidecar(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	sum, _, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return "", fmt.Errorf("datasets: %s does not hold a sha256 sum", path)
	}
	return sum, nil
}

// recordSidecar writes the trust-on-first-use record (temp file + rename) and
// says so in one line.
func (cfg *config) recordSidecar(side, path, sum string, f File) error {
	tmp := fmt.Sprintf("%s.tmp-%d", side, os.Getpid())
	if err := os.WriteFile(tmp, []byte(sum+"  "+filepath.Base(path)+"\n"), 0o644); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err := os.Rename(tmp, side); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("datasets: %w", err)
	}
	how := "trust on first use"
	if cfg.sums[f.CachePath()] != "" {
		how = "the sum passed with WithSHA256"
	}
	fmt.Fprintf(cfg.log, "datasets: %s has no pinned checksum; recorded sha256 %s in %s (%s)\n",
		filepath.Base(path), sum, side, how)
	return nil
}

// minBarBytes is the smallest known size that gets a progress bar: the many
// small split files would only add noise.
const minBarBytes = 256 << 10

func (cfg *config) bar(total int64, desc string) io.Writer {
	if cfg.progress == io.Discard || (total > 0 && total < minBarBytes) {
		return io.Discard
	}
	if total <= 0 {
		total = -1 // spinner
	}
	w := cfg.progress
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetWidth(20),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
}

// openLocal opens a file of a local mirror directory.
func openLocal(ctx context.Context, path string) (io.ReadCloser, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("datasets: mirror: %w", err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, fmt.Errorf("datasets: mirror: %w", err)
	}
	return ctxReader{ctx: ctx, ReadCloser: fh}, st.Size(), nil
}

type ctxReader struct {
	ctx context.Context
	io.ReadCloser
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.ReadCloser.Read(p)
}

// openHTTP starts a GET. The returned body aborts the transfer when no byte
// arrives for the stall timeout or ctx is cancelled.
func (cfg *config) openHTTP(ctx context.Context, url string, f File) (io.ReadCloser, int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		cancel(nil)
		return nil, 0, fmt.Errorf("datasets: %w", err)
	}
	req.Header.Set("User-Agent", "lwgcn-datasets/1")
	resp, err := cfg.client.Do(req)
	if err != nil {
		cancel(nil)
		return nil, 0, fmt.Errorf("datasets: GET %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel(nil)
		return nil, 0, fmt.Errorf("datasets: GET %s: %s", url, resp.Status)
	}
	if f.Pinned() && resp.ContentLength >= 0 && resp.ContentLength != f.Size {
		resp.Body.Close()
		cancel(nil)
		return nil, 0, &ChecksumError{File: f.CachePath(), From: url, Expected: f.SHA256,
			ExpectedSize: f.Size, ActualSize: resp.ContentLength}
	}
	sr := &stallReader{body: resp.Body, ctx: ctx, cancel: cancel, stall: cfg.stall}
	sr.timer = time.AfterFunc(cfg.stall, func() { cancel(errStalled) })
	return sr, resp.ContentLength, nil
}

type stallReader struct {
	body   io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	stall  time.Duration
	timer  *time.Timer
	once   sync.Once
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.body.Read(p)
	if n > 0 {
		s.timer.Reset(s.stall)
	}
	if err != nil && err != io.EOF {
		if cause := context.Cause(s.ctx); errors.Is(cause, errStalled) {
			return n, fmt.Errorf("no data received for %v: %w", s.stall, errStalled)
		}
		if err == io.ErrUnexpectedEOF {
			return n, fmt.Errorf("connection closed before the end of the body: %w", err)
		}
	}
	return n, err
}

func (s *stallReader) Close() error {
	s.once.Do(func() { s.timer.Stop() })
	err := s.body.Close()
	s.cancel(nil)
	return err
}

// filesFor returns the files Load needs under the given options.
func (d Dataset) filesFor(cfg *config) []File {
	files := slices.Clone(d.Files)
	switch {
	case cfg.geomGCNFeatures && d.Format == "geom-gcn" && len(d.Optional) > 0:
		// chameleon/squirrel: Geom-GCN features replace the npz.
		files = append(d.Optional[:1:1], files[1:]...)
	case cfg.geomGCNSplits && d.Format == "planetoid":
		files = append(files, d.Optional...)
	}
	return files
}
