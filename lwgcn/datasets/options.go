package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Environment variables read when the corresponding option is not given.
const (
	// EnvData overrides the cache directory.
	EnvData = "LWGCN_DATA"
	// EnvMirror sets a mirror: an http(s) base URL or a local directory laid
	// out like ../shared/datasets (<MirrorDir>/<Path>).
	EnvMirror = "LWGCN_MIRROR"
)

// Download defaults.
const (
	// DefaultStallTimeout aborts a download that receives no byte for this long.
	DefaultStallTimeout = 60 * time.Second
	// DefaultConnectTimeout bounds dialing, the TLS handshake and the wait for
	// response headers.
	DefaultConnectTimeout = 30 * time.Second
	// repoModule identifies the lwgcn repository's go.mod for the cache rule.
	repoModule = "github.com/lwgcn/toolkit"
)

type config struct {
	cacheDir        string
	mirror          string
	mirrorSet       bool
	progress        io.Writer
	log             io.Writer
	client          *http.Client
	stall           time.Duration
	offline         bool
	geomGCNFeatures bool
	geomGCNSplits   bool
	// sums are SHA-256 sums the user vouches for, by cache path.
	sums map[string]string
}

// Option configures Load, Fetch, Available and CacheDir.
type Option func(*config)

// WithCacheDir sets the cache directory (overrides LWGCN_DATA).
func WithCacheDir(dir string) Option { return func(c *config) { c.cacheDir = dir } }

// WithMirror fetches files from a mirror instead of the canonical hosts: an
// http(s) base URL or a local directory (or file:// URL), laid out like
// ../shared/datasets, i.e. <mirror>/<File.CachePath()>. An empty string forces
// the canonical hosts even when LWGCN_MIRROR is set.
func WithMirror(mirror string) Option {
	return func(c *config) { c.mirror, c.mirrorSet = mirror, true }
}

// WithProgress draws download progress bars on w (default os.Stdout:
// notebooks show stderr in red, as an error, and a download is not one).
func WithProgress(w io.Writer) Option { return func(c *config) { c.progress = w } }

// WithLog sets where one-line notices go (default os.Stderr), such as the
// trust-on-first-use record of an unpinned file's checksum.
func WithLog(w io.Writer) Option { return func(c *config) { c.log = w } }

// Silent turns off progress bars and notices (for tests and notebooks).
func Silent() Option {
	return func(c *config) { c.progress, c.log = io.Discard, io.Discard }
}

// WithHTTPClient replaces the HTTP client (its own timeouts then apply; the
// stall timeout still does).
func WithHTTPClient(cl *http.Client) Option { return func(c *config) { c.client = cl } }

// WithStallTimeout aborts a download when no data arrives for d.
func WithStallTimeout(d time.Duration) Option { return func(c *config) { c.stall = d } }

// WithSHA256 vouches for an unpinned file (cachePath as File.CachePath,
// e.g. "graphmining.ai/datasets/ptg/wiki/crocodile.npz") with its SHA-256 in
// hex: a copy from a mirror is accepted only with it (or with the sum
// recorded when the file was first downloaded from its canonical host), and
// any copy must match it. The sum is recorded like a first download's.
func WithSHA256(cachePath, sum string) Option {
	return func(c *config) {
		if c.sums == nil {
			c.sums = map[string]string{}
		}
		c.sums[cachePath] = strings.ToLower(sum)
	}
}

// ValidSHA256 reports whether s is a SHA-256 sum in hex (64 digits).
func ValidSHA256(s string) bool {
	return len(s) == 64 && strings.Trim(strings.ToLower(s), "0123456789abcdef") == ""
}

// Offline forbids downloads: Load uses only files already in the cache or a
// local mirror directory.
func Offline() Option { return func(c *config) { c.offline = true } }

// WithGeomGCNFeatures makes chameleon and squirrel load features and labels
// from Geom-GCN's out1_node_feature_label.txt (an unpinned download) instead
// of the heterophilous-graphs npz of the same graph.
func WithGeomGCNFeatures() Option { return func(c *config) { c.geomGCNFeatures = true } }

// WithGeomGCNSplits makes cora, citeseer and pubmed carry Geom-GCN's ten
// 60/20/20 splits instead of the Planetoid public split.
func WithGeomGCNSplits() Option { return func(c *config) { c.geomGCNSplits = true } }

func newConfig(opts []Option) *config {
	c := &config{progress: os.Stdout, log: os.Stderr, stall: DefaultStallTimeout}
	for _, o := range opts {
		o(c)
	}
	if !c.mirrorSet {
		c.mirror = os.Getenv(EnvMirror)
	}
	if c.client == nil {
		c.client = defaultClient()
	}
	if c.progress == nil {
		c.progress = io.Discard
	}
	if c.log == nil {
		c.log = io.Discard
	}
	return c
}

func defaultClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSHandshakeTimeout = DefaultConnectTimeout
	t.ResponseHeaderTimeout = DefaultConnectTimeout
	t.IdleConnTimeout = 90 * time.Second
	t.DialContext = (&net.Dialer{Timeout: DefaultConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	// No overall Client.Timeout: large files legitimately take long; the
	// stall timeout aborts transfers that stop making progress.
	return &http.Client{Transport: t}
}

// CacheDir returns the cache directory the options select:
//  1. WithCacheDir;
//  2. $LWGCN_DATA;
//  3. <repo>/data/cache when the working directory is inside the lwgcn
//     repository (a parent directory holds the go.mod of
//     module github.com/lwgcn/toolkit);
//  4. <user cache dir>/lwgcn, i.e. $XDG_CACHE_HOME/lwgcn or ~/.cache/lwgcn on
//     Linux, ~/Library/Caches/lwgcn on macOS.
func CacheDir(opts ...Option) (string, error) {
	return newConfig(opts).resolveCacheDir()
}

func (c *config) resolveCacheDir() (string, error) {
	if c.cacheDir != "" {
		return filepath.Abs(c.cacheDir)
	}
	if d := os.Getenv(EnvData); d != "" {
		return filepath.Abs(d)
	}
	if wd, err := os.Getwd(); err == nil {
		if root, ok := findRepoRoot(wd); ok {
			return filepath.Join(root, "data", "cache"), nil
		}
	}
	uc, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("datasets: no cache directory: set %s or use WithCacheDir (%w)", EnvData, err)
	}
	return filepath.Join(uc, "lwgcn"), nil
}

// findRepoRoot walks up from dir to the directory whose go.mod declares the
// lwgcn module.
func findRepoRoot(dir string) (string, bool) {
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if rest, ok := strings.CutPrefix(line, "module"); ok {
					f.Close()
					if strings.Trim(strings.TrimSpace(rest), `"`) == repoModule {
						return dir, true
					}
					return "", false // another module's tree
				}
			}
			f.Close()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// mirrorKind classifies the mirror setting.
func (c *config) mirrorDir() (string, bool) {
	m := c.mirror
	if m == "" {
		return "", false
	}
	if p, ok := strings.CutPrefix(m, "file://"); ok {
		return p, true
	}
	if strings.HasPrefix(m, "http://") || strings.HasPrefix(m, "https://") {
		return "", false
	}
	return m, true
}

func (c *config) validateMirror() error {
	if c.mirror == "" {
		return nil
	}
	if d, ok := c.mirrorDir(); ok {
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("datasets: mirror directory %s: %w", d, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("datasets: mirror %s is neither an http(s) URL nor a directory", d)
		}
		return nil
	}
	if strings.Contains(c.mirror, "://") && !strings.HasPrefix(c.mirror, "http") {
		return errors.New("datasets: mirror URL scheme must be http, https or file: " + c.mirror)
	}
	return nil
}
