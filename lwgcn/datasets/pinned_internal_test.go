package datasets

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPinnedTableMatchesManifest re-reads MANIFEST.tsv and checks the
// generated table holds every row unchanged (regenerate with go generate).
func TestPinnedTableMatchesManifest(t *testing.T) {
	d := os.Getenv("LWGCN_SHARED")
	if d == "" {
		d = "../../../shared"
	}
	f, err := os.Open(filepath.Join(d, "datasets", "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("MANIFEST.tsv not found (set LWGCN_SHARED): %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	rows := 0
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		rows++
		size, _ := strconv.ParseInt(c[2], 10, 64)
		p, ok := pinnedFiles[c[1]]
		if !ok || p.Size != size || p.SHA256 != c[3] || p.Repo != c[4] || p.RepoPath != c[5] || p.Commit != c[6] {
			t.Errorf("manifest row %s: table has %+v", c[1], p)
		}
	}
	if rows != len(pinnedFiles) || rows != 126 {
		t.Errorf("manifest has %d rows, table %d, README says 126", rows, len(pinnedFiles))
	}
}
