package userdata

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/graph"
	"github.com/lwgcn/toolkit/lwgcn/internal/textio"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// Users' own graphs: a generic text loader.
//
// Every file is line-oriented text. Empty lines and lines whose first
// non-blank character is '#' or '%' are skipped. A line is tab-separated
// when it contains a tab, else comma-separated when it contains a comma,
// else separated by runs of spaces; fields are trimmed, and a field may be
// double-quoted ("a, b"; "" is a literal quote). The first line may be a
// header (HeaderAuto detects it, see UserOptions.Header).
//
//	edges     source,target                    one directed edge per line
//	features  node,v1,v2,...,vF                dense rows (every row F values)
//	          node idx:val idx:val ...         or sparse rows (0-based indices)
//	labels    node,label                       integers (-1: unlabeled), or any strings
//	splits    node,split1,split2,...           each column one split: train,
//	                                           val (valid, validation, dev), test,
//	                                           or -, none, unused, empty: in none
//
// A last line without a newline is read (hand-written files often lack it),
// unlike the published dataset files, which end with one. Integer labels are
// the class numbers when at least half of 0..L (L the largest) occur, else
// the distinct values are numbered in increasing order, so a stray huge label
// makes one class; UserGraph.ClassNames maps class numbers back to labels.

// HeaderMode says whether the first line of each file is a header.
type HeaderMode int

const (
	// HeaderAuto reads the first line as a header when one of its fields is
	// not a number (nor an index:value pair) where the second line has a
	// number in that column, or when every field is a usual column name
	// (source, target, node, id, label, class, split, feature, ...,
	// optionally followed by digits) and the second line is not.
	HeaderAuto HeaderMode = iota
	// HeaderPresent always skips the first line.
	HeaderPresent
	// HeaderAbsent never skips it.
	HeaderAbsent
)

// IDMode says how node ids in the files become node indices 0..N-1.
type IDMode int

const (
	// IDsAuto uses IDsInteger when every node id in every file is a
	// non-negative integer, IDsNames otherwise.
	IDsAuto IDMode = iota
	// IDsInteger takes node id v as node index v. With a features file its
	// rows must be the ids 0..N-1, each once; without one N is the largest id
	// plus one.
	IDsInteger
	// IDsNames treats ids as names: nodes are numbered in the order of the
	// features file's rows, or without one in order of first appearance in
	// the labels, edges and splits files.
	IDsNames
)

// DefaultMaxUserNodes bounds the number of nodes of a user graph, so that a
// typo such as the id 4000000000 fails clearly instead of allocating. Below
// it, sizes are checked against the memory budget (package limits).
const DefaultMaxUserNodes = 50_000_000

// InputLayerBytesPerFeature is what one feature column costs a model: a
// 64-unit input layer's float32 weights with their gradient and Adam's two
// moments. The loaders check feature widths read from files against the
// memory budget with it.
const InputLayerBytesPerFeature = 64 * 4 * 4

// userNodeBytes is what one node of a user graph costs the loader: its id,
// feature row pointer, label and split membership.
const userNodeBytes = 64

// UserOptions configure ReadUserGraph and LoadUserFiles.
type UserOptions struct {
	// Name is the graph's name ("" gives "user-graph").
	Name   string
	Header HeaderMode
	IDs    IDMode
	// SparseIndexBase is the first feature index of sparse rows: 0 (default)
	// or 1 (LIBSVM files).
	SparseIndexBase int
	// NumFeatures fixes the width of sparse features (0: the largest index
	// plus one). Dense rows give their own width.
	NumFeatures int
	// Undirected adds the reverse of every edge and removes duplicates
	// (graph.ToUndirected); most node-classification code expects it.
	Undirected bool
	// MaxNodes bounds N (0: DefaultMaxUserNodes).
	MaxNodes int
}

// UserFiles names the files of a user graph. Edges is required; without
// Features every node gets a one-hot identity feature vector; without Labels
// the graph is unlabeled; without Splits it has none (see synth.RandomSplits).
type UserFiles struct {
	Edges, Features, Labels, Splits string
	UserOptions
}

// UserGraph is a loaded user graph and how its files were read.
type UserGraph struct {
	Graph *graph.Graph
	// NodeIDs[v] is node v's id in the files.
	NodeIDs []string
	// ClassNames[c] is class c's label in the files (nil without labels).
	ClassNames []string
	// FeatureFormat is "dense", "sparse" or "identity" (no features file).
	FeatureFormat string
	// IntegerIDs says whether ids were read as integers (IDsInteger).
	IntegerIDs bool
	// Notes say what was inferred: headers skipped, formats detected.
	Notes []string
}

// NamedReader is one input of ReadUserGraph: Name is used in messages.
type NamedReader struct {
	Name string
	R    io.Reader
}

// UserInputs are the readers of ReadUserGraph; nil readers are absent files.
type UserInputs struct {
	Edges, Features, Labels, Splits *NamedReader
}

// LoadUserFiles reads a user graph from files (see UserFiles and the
// format notes above). Errors name the file and line.
func LoadUserFiles(f UserFiles) (*UserGraph, error) {
	var in UserInputs
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	open := func(path string, dst **NamedReader, what string, required bool) error {
		if path == "" {
			if required {
				return fmt.Errorf("datasets: user graph: no %s file given", what)
			}
			return nil
		}
		fh, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("datasets: user graph %s file: %w", what, err)
		}
		closers = append(closers, fh)
		*dst = &NamedReader{Name: path, R: fh}
		return nil
	}
	if err := open(f.Edges, &in.Edges, "edges", true); err != nil {
		return nil, err
	}
	if err := open(f.Features, &in.Features, "features", false); err != nil {
		return nil, err
	}
	if err := open(f.Labels, &in.Labels, "labels", false); err != nil {
		return nil, err
	}
	if err := open(f.Splits, &in.Splits, "splits", false); err != nil {
		return nil, err
	}
	opts := f.UserOptions
	if opts.Name == "" {
		opts.Name = strings.TrimSuffix(filepath.Base(f.Edges), filepath.Ext(f.Edges))
		if opts.Name == "edges" || opts.Name == "" {
			opts.Name = filepath.Base(filepath.Dir(f.Edges))
		}
	}
	return ReadUserGraph(in, opts)
}

// ---- tokenising ----

// record is one data line: its 1-based number and fields.
type record struct {
	line   int
	fields []string
}

// splitFields splits a line (see the format notes).
func splitFields(line string) ([]string, error) {
	sep := byte(' ')
	if strings.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	} else if strings.IndexByte(line, ',') >= 0 {
		sep = ','
	}
	ws := func(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }
	pad := func(c byte) bool { return ws(c) && (sep == ' ' || c != sep) }
	var out []string
	i, n := 0, len(line)
	for {
		for i < n && pad(line[i]) {
			i++
		}
		if sep == ' ' && i >= n {
			return out, nil
		}
		var field string
		if i < n && line[i] == '"' {
			var b strings.Builder
			i++
			closed := false
			for i < n {
				if line[i] == '"' {
					if i+1 < n && line[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				b.WriteByte(line[i])
				i++
			}
			if !closed {
				return nil, fmt.Errorf("unterminated quoted field")
			}
			j := i
			for i < n && pad(line[i]) {
				i++
			}
			if i < n && ((sep == ' ' && i == j) || (sep != ' ' && line[i] != sep)) {
				return nil, fmt.Errorf("text after a closing quote: %q", clipString(line[i:]))
			}
			field = b.String()
		} else {
			j := i
			if sep == ' ' {
				for j < n && !ws(line[j]) {
					j++
				}
			} else {
				for j < n && line[j] != sep {
					j++
				}
			}
			field = strings.TrimRight(line[i:j], " \t\v\f\r")
			i = j
		}
		out = append(out, field)
		if i >= n {
			return out, nil
		}
		if sep != ' ' {
			i++ // the separator
			if i >= n {
				return append(out, ""), nil // trailing separator: an empty last field
			}
		}
	}
}

func clipString(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// recordReader yields the data records of one file, skipping comments,
// blank lines and (once decided) the header.
type recordReader struct {
	lr      *textio.LineReader
	name    string
	pending []record
	first   bool
}

func newRecordReader(in *NamedReader) *recordReader {
	return &recordReader{lr: textio.NewLineReader(in.R, in.Name), name: in.Name, first: true}
}

// raw returns the next non-comment line's fields, or ok=false at the end.
func (r *recordReader) raw() (record, bool, error) {
	if len(r.pending) > 0 {
		rec := r.pending[0]
		r.pending = r.pending[1:]
		return rec, true, nil
	}
	for {
		b, ok := r.lr.Next()
		if !ok {
			return record{}, false, r.lr.Err()
		}
		if r.first {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
			r.first = false
		}
		t := bytes.TrimSpace(b)
		if len(t) == 0 || t[0] == '#' || t[0] == '%' {
			continue
		}
		fields, err := splitFields(string(t))
		if err != nil {
			return record{}, false, r.lr.Errorf("%v", err)
		}
		return record{line: r.lr.N, fields: fields}, true, nil
	}
}

// headerWords are usual column names (compared in lower case, trailing
// digits and separators removed).
var headerWords = map[string]bool{
	"source": true, "target": true, "src": true, "dst": true, "from": true, "to": true, "u": true, "v": true,
	"node": true, "nodes": true, "id": true, "nodeid": true, "name": true, "index": true, "idx": true,
	"label": true, "labels": true, "class": true, "y": true, "category": true,
	"split": true, "mask": true, "train": true, "val": true, "test": true, "fold": true,
	"feature": true, "features": true, "x": true, "f": true, "value": true, "values": true, "weight": true,
}

func isHeaderWord(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimRight(s, "0123456789")
	s = strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' || r == '.' {
			return -1
		}
		return r
	}, s)
	return headerWords[s]
}

func allHeaderWords(fields []string) bool {
	for _, f := range fields {
		if !isHeaderWord(f) {
			return false
		}
	}
	return len(fields) > 0
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// fileStart is how a file's first data line was decided: the header
// skipped (nil: none), why, and whether the decision is tentative (HeaderAuto
// found nothing to go by in the line's form: ReadUserGraph decides once it
// has seen every file, see resolveFirstLines).
type fileStart struct {
	name      string
	header    *record
	reason    string
	tentative bool
	// first is the first data line (tentative only), with the node ids
	// interned from it and, in a labels file, its label.
	first record
	ids   []int32
	label string
}

// start reads the first data record and decides whether it is a header;
// data records follow through raw.
func (r *recordReader) start(mode HeaderMode) (fileStart, error) {
	st := fileStart{name: r.name}
	first, ok, err := r.raw()
	if err != nil || !ok {
		return st, err
	}
	switch mode {
	case HeaderPresent:
		st.header, st.reason = &first, "UserOptions.Header is HeaderPresent"
		return st, nil
	case HeaderAbsent:
		r.pending = append(r.pending, first)
		st.reason = "UserOptions.Header is HeaderAbsent"
		return st, nil
	}
	second, ok2, err := r.raw()
	if err != nil {
		return st, err
	}
	// All column names, unless the next line looks the same (then both are
	// data, e.g. nodes named x1, x2).
	if allHeaderWords(first.fields) && !(ok2 && allHeaderWords(second.fields)) {
		st.header, st.reason = &first, "every field is a usual column name"
	}
	if st.header == nil && ok2 {
		for c, f := range first.fields {
			// (index:value pairs of sparse rows do not count)
			if c < len(second.fields) && !isNumber(f) && !strings.Contains(f, ":") && isNumber(second.fields[c]) {
				st.header = &first
				st.reason = fmt.Sprintf("its field %d %q is not a number where line %d has one", c+1, clipString(f), second.line)
				break
			}
		}
	}
	if st.header == nil {
		r.pending = append(r.pending, first)
		st.tentative, st.first = true, first
		st.reason = "it has the form of the lines after it"
	}
	if ok2 {
		r.pending = append(r.pending, second)
	}
	return st, nil
}

// note says where the file's data starts and why.
func (st fileStart) note() string {
	if st.header != nil {
		return fmt.Sprintf("%s: data starts at line %d (line %d %q is a header: %s)", st.name, st.header.line+1, st.header.line,
			clipString(strings.Join(st.header.fields, ",")), st.reason)
	}
	if st.first.line == 0 {
		return fmt.Sprintf("%s: data starts at the first line (%s)", st.name, st.reason)
	}
	return fmt.Sprintf("%s: data starts at line %d, no header (%s)", st.name, st.first.line, st.reason)
}

func (r *recordReader) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, line, fmt.Sprintf(format, args...))
}

// ---- node ids ----

type ref struct {
	file string
	line int
}

func (r ref) String() string { return fmt.Sprintf("%s:%d", r.file, r.line) }

// idTable interns node ids in order of first appearance.
type idTable struct {
	index  map[string]int32
	names  []string
	first  []ref
	ints   []int64 // value when the id is an integer, else -1
	allInt bool
	// uses counts the lines (fields) that name each id.
	uses []int32
}

func newIDTable() *idTable { return &idTable{index: map[string]int32{}, allInt: true} }

func (t *idTable) intern(s string, at ref) (int32, error) {
	if k, ok := t.index[s]; ok {
		t.uses[k]++
		return k, nil
	}
	if s == "" {
		return 0, fmt.Errorf("%s: empty node id", at)
	}
	if len(t.names) >= 1<<31-1 {
		return 0, fmt.Errorf("%s: more than 2^31 distinct node ids", at)
	}
	k := int32(len(t.names))
	t.index[s] = k
	t.names = append(t.names, s)
	t.first = append(t.first, at)
	v := int64(-1)
	if x, err := strconv.ParseInt(s, 10, 64); err == nil && x >= 0 {
		v = x
	} else {
		t.allInt = false
	}
	t.ints = append(t.ints, v)
	t.uses = append(t.uses, 1)
	return k, nil
}

// drop removes the ids marked dead (each named only on a line read as a
// header after all) and returns every id's new number (-1: dropped).
func (t *idTable) drop(dead map[int32]bool) []int32 {
	remap := make([]int32, len(t.names))
	nt := newIDTable()
	for k := range t.names {
		if dead[int32(k)] {
			remap[k] = -1
			continue
		}
		remap[k] = int32(len(nt.names))
		nt.index[t.names[k]] = remap[k]
		nt.names, nt.first = append(nt.names, t.names[k]), append(nt.first, t.first[k])
		nt.ints, nt.uses = append(nt.ints, t.ints[k]), append(nt.uses, t.uses[k])
		nt.allInt = nt.allInt && t.ints[k] >= 0
	}
	*t = *nt
	return remap
}

// ---- per-file parsing ----

type featRow struct {
	id         int32 // interned
	line       int
	start, end int // range in cols/vals
}

type parsedFeatures struct {
	sparse    bool
	width     int // dense width, or sparse max index + 1
	rows      []featRow
	cols      []int32
	vals      []float32
	widthLine int
}

func readFeatures(in *NamedReader, opts UserOptions, ids *idTable, notes *[]string) (*parsedFeatures, error) {
	rr := newRecordReader(in)
	st, err := rr.start(opts.Header)
	if err != nil {
		return nil, err
	}
	*notes = append(*notes, st.note())
	pf := &parsedFeatures{width: -1}
	decided := false
	base := opts.SparseIndexBase
	if base != 0 && base != 1 {
		return nil, fmt.Errorf("datasets: UserOptions.SparseIndexBase = %d, want 0 or 1", base)
	}
	if opts.NumFeatures > 0 {
		if err := limits.CheckCount(fmt.Sprintf("datasets: UserOptions.NumFeatures %d", opts.NumFeatures), int64(opts.NumFeatures),
			InputLayerBytesPerFeature); err != nil {
			return nil, err
		}
	}
	for {
		rec, ok, err := rr.raw()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		id, err := ids.intern(rec.fields[0], ref{in.Name, rec.line})
		if err != nil {
			return nil, err
		}
		values := rec.fields[1:]
		if len(values) == 1 && values[0] == "" && !pf.sparse {
			values = nil
		}
		if !decided && len(values) > 0 {
			decided = true
			for _, v := range values {
				if strings.IndexByte(v, ':') >= 0 {
					pf.sparse = true
					break
				}
			}
			if pf.sparse {
				*notes = append(*notes, fmt.Sprintf("%s: sparse index:value rows (indices from %d)", in.Name, base))
			} else if len(pf.rows) > 0 {
				return nil, rr.errorf(pf.rows[0].line, "node %q has no feature values (the file has dense rows of %d values)",
					clipString(ids.names[pf.rows[0].id]), len(values))
			} else {
				*notes = append(*notes, fmt.Sprintf("%s: dense rows of %d values", in.Name, len(values)))
			}
		}
		row := featRow{id: id, line: rec.line, start: len(pf.vals)}
		if pf.sparse || !decided {
			for _, v := range values {
				if v == "" {
					continue
				}
				colon := strings.IndexByte(v, ':')
				if colon < 0 {
					return nil, rr.errorf(rec.line, "%q is not an index:value pair (the file has sparse rows)", clipString(v))
				}
				ix, err := strconv.ParseInt(strings.TrimSpace(v[:colon]), 10, 64)
				if err != nil || ix < int64(base) || ix-int64(base) >= 1<<31-1 {
					return nil, rr.errorf(rec.line, "feature index %q is not an integer >= %d", clipString(v[:colon]), base)
				}
				ix -= int64(base)
				if opts.NumFeatures > 0 && ix >= int64(opts.NumFeatures) {
					return nil, rr.errorf(rec.line, "feature index %d outside the %d features of UserOptions.NumFeatures", ix+int64(base), opts.NumFeatures)
				}
				// A new largest index widens every model's input layer.
				if ix >= int64(max(pf.width, 1<<16)) && opts.NumFeatures == 0 {
					if err := limits.CheckCount(fmt.Sprintf("%s:%d: feature index %d (%d features)", in.Name, rec.line, ix+int64(base), ix+1),
						ix+1, InputLayerBytesPerFeature); err != nil {
						return nil, err
					}
				}
				x, err := parseValue(strings.TrimSpace(v[colon+1:]))
				if err != nil {
					return nil, rr.errorf(rec.line, "feature %d: %v", ix+int64(base), err)
				}
				pf.cols = append(pf.cols, int32(ix))
				pf.vals = append(pf.vals, x)
				pf.width = max(pf.width, int(ix)+1)
			}
			// Sort the row's entries and reject repeated indices.
			seg := pf.cols[row.start:]
			if !slices.IsSorted(seg) {
				idx := make([]int, len(seg))
				for i := range idx {
					idx[i] = i
				}
				slices.SortStableFunc(idx, func(a, b int) int { return int(seg[a]) - int(seg[b]) })
				c2, v2 := make([]int32, len(seg)), make([]float32, len(seg))
				for i, k := range idx {
					c2[i], v2[i] = seg[k], pf.vals[row.start+k]
				}
				copy(seg, c2)
				copy(pf.vals[row.start:], v2)
			}
			for k := row.start + 1; k < len(pf.cols); k++ {
				if pf.cols[k] == pf.cols[k-1] {
					return nil, rr.errorf(rec.line, "feature index %d appears twice", int(pf.cols[k])+base)
				}
			}
		} else {
			if len(values) == 0 {
				return nil, rr.errorf(rec.line, "node %q has no feature values (dense rows need %d)", clipString(rec.fields[0]), pf.width)
			}
			if pf.width < 0 {
				pf.width, pf.widthLine = len(values), rec.line
			} else if len(values) != pf.width {
				return nil, rr.errorf(rec.line, "%d feature values, want %d (as on line %d)", len(values), pf.width, pf.widthLine)
			}
			for k, v := range values {
				x, err := parseValue(v)
				if err != nil {
					return nil, rr.errorf(rec.line, "feature %d: %v", k+1, err)
				}
				pf.vals = append(pf.vals, x)
			}
		}
		if len(pf.vals) > 1<<31-1 {
			return nil, rr.errorf(rec.line, "more than 2^31 feature values")
		}
		row.end = len(pf.vals)
		pf.rows = append(pf.rows, row)
	}
	if len(pf.rows) == 0 {
		return nil, fmt.Errorf("%s: no feature rows (empty file?)", in.Name)
	}
	if pf.sparse || !decided {
		pf.sparse = true
		if opts.NumFeatures > 0 {
			pf.width = opts.NumFeatures
		}
		if pf.width <= 0 {
			return nil, fmt.Errorf("%s: no feature values in any row", in.Name)
		}
	}
	return pf, nil
}

// parseValue parses a finite number.
func parseValue(s string) (float32, error) {
	if len(s) == 1 && (s[0] == '0' || s[0] == '1') {
		return float32(s[0] - '0'), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", clipString(s))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
		return 0, fmt.Errorf("%q is not a finite float32", clipString(s))
	}
	return float32(x), nil
}

type labelRec struct {
	id    int32
	line  int
	label string
}

func readLabels(in *NamedReader, opts UserOptions, ids *idTable, st *fileStart) ([]labelRec, error) {
	rr := newRecordReader(in)
	var err error
	if *st, err = rr.start(opts.Header); err != nil {
		return nil, err
	}
	var out []labelRec
	for {
		rec, ok, err := rr.raw()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(rec.fields) != 2 {
			return nil, rr.errorf(rec.line, "%d fields, want 2 (node, label)", len(rec.fields))
		}
		if rec.fields[1] == "" {
			return nil, rr.errorf(rec.line, "empty label (leave unlabeled nodes out of the file)")
		}
		id, err := ids.intern(rec.fields[0], ref{in.Name, rec.line})
		if err != nil {
			return nil, err
		}
		if st.tentative && rec.line == st.first.line {
			st.ids, st.label = []int32{id}, rec.fields[1]
		}
		out = append(out, labelRec{id: id, line: rec.line, label: rec.fields[1]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no label rows (empty file?)", in.Name)
	}
	return out, nil
}

type edgeList struct {
	src, dst []int32 // interned
	lines    []int32
}

func readEdges(in *NamedReader, opts UserOptions, ids *idTable, st *fileStart) (*edgeList, error) {
	rr := newRecordReader(in)
	var err error
	if *st, err = rr.start(opts.Header); err != nil {
		return nil, err
	}
	el := &edgeList{}
	for {
		rec, ok, err := rr.raw()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(rec.fields) != 2 {
			what := ""
			if len(rec.fields) > 2 {
				what = "; edge weights and attributes are not supported, keep two columns"
			}
			return nil, rr.errorf(rec.line, "%d fields, want 2 (source, target)%s", len(rec.fields), what)
		}
		var ends [2]int32
		for i := range ends {
			if ends[i], err = ids.intern(rec.fields[i], ref{in.Name, rec.line}); err != nil {
				return nil, err
			}
		}
		if st.tentative && rec.line == st.first.line {
			st.ids = ends[:]
		}
		el.src = append(el.src, ends[0])
		el.dst = append(el.dst, ends[1])
		el.lines = append(el.lines, int32(rec.line))
	}
	return el, nil
}

type splitRec struct {
	id    int32
	line  int
	codes []byte // 't', 'v', 's' (test) or 0 (none) per split
}

func splitCode(s string) (byte, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "train", "training":
		return 't', true
	case "val", "valid", "validation", "dev":
		return 'v', true
	case "test", "testing":
		return 's', true
	case "", "-", "none", "unused", "na", "n/a":
		return 0, true
	}
	return 0, false
}

func readSplits(in *NamedReader, opts UserOptions, ids *idTable, notes *[]string) ([]splitRec, int, error) {
	rr := newRecordReader(in)
	st, err := rr.start(opts.Header)
	if err != nil {
		return nil, 0, err
	}
	*notes = append(*notes, st.note())
	var out []splitRec
	width, widthLine := -1, 0
	for {
		rec, ok, err := rr.raw()
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			break
		}
		if len(rec.fields) < 2 {
			return nil, 0, rr.errorf(rec.line, "%d field, want a node and at least one split column", len(rec.fields))
		}
		if width < 0 {
			width, widthLine = len(rec.fields)-1, rec.line
		} else if len(rec.fields)-1 != width {
			return nil, 0, rr.errorf(rec.line, "%d split columns, want %d (as on line %d)", len(rec.fields)-1, width, widthLine)
		}
		id, err := ids.intern(rec.fields[0], ref{in.Name, rec.line})
		if err != nil {
			return nil, 0, err
		}
		codes := make([]byte, width)
		for k, f := range rec.fields[1:] {
			c, ok := splitCode(f)
			if !ok {
				return nil, 0, rr.errorf(rec.line, "split %d: %q is not train, val, test or none", k+1, clipString(f))
			}
			codes[k] = c
		}
		out = append(out, splitRec{id: id, line: rec.line, codes: codes})
	}
	if len(out) == 0 {
		return nil, 0, fmt.Errorf("%s: no split rows (empty file?)", in.Name)
	}
	*notes = append(*notes, fmt.Sprintf("%s: %d split(s)", in.Name, width))
	return out, width, nil
}

// ---- first lines, duplicates, odd ids ----

// resolveFirstLines decides the tentative first lines of the labels and
// edges files (fileStart.tentative: HeaderAuto saw nothing in their form to
// tell a header): a first line is a header when it has a field that is not
// a number, every node id on it is named on no other line of any file, and
// (labels) its label is on no other line, in a file of at least two data
// lines: the column names of a graph with named nodes ("woman","event").
// It is then dropped with its ids. A first line kept as data whose nodes
// or label appear nowhere else is reported: it may be a header after all.
// The notes say where each file's data starts and why.
func resolveFirstLines(ids *idTable, labelStart *fileStart, labels []labelRec, edgeStart *fileStart, edges *edgeList,
	pf *parsedFeatures, splits []splitRec, notes *[]string) ([]labelRec, error) {
	dead := map[int32]bool{}
	labelUses := map[string]int{}
	for _, l := range labels {
		labelUses[l.label]++
	}
	for _, st := range []*fileStart{labelStart, edgeStart} {
		if st.name == "" {
			continue
		}
		if !st.tentative || len(st.ids) == 0 {
			*notes = append(*notes, st.note())
			continue
		}
		lines := len(edges.src)
		isLabels := st == labelStart
		if isLabels {
			lines = len(labels)
		}
		var alone []string // ids named only on this line
		for _, k := range slices.Compact(slices.Clone(st.ids)) {
			if ids.uses[k] == 1 {
				alone = append(alone, ids.names[k])
			}
		}
		labelAlone := isLabels && labelUses[st.label] == 1
		textual := slices.ContainsFunc(st.first.fields, func(f string) bool { return !isNumber(f) })
		if len(alone) == len(st.ids) && (!isLabels || labelAlone) && textual && lines >= 2 {
			for _, k := range st.ids {
				dead[k] = true
			}
			st.header, st.tentative = &st.first, false
			st.reason = "its values appear on no other line of any file; set UserOptions.Header to HeaderAbsent if it is data"
			if isLabels {
				labels = labels[1:]
			} else {
				edges.src, edges.dst, edges.lines = edges.src[1:], edges.dst[1:], edges.lines[1:]
			}
			*notes = append(*notes, st.note())
			continue
		}
		*notes = append(*notes, st.note())
		what := ""
		switch {
		case len(alone) == 1:
			what = fmt.Sprintf("node %s appears", clipString(alone[0]))
		case len(alone) > 1:
			what = fmt.Sprintf("nodes %s appear", clipString(strings.Join(alone, " and ")))
		}
		if labelAlone {
			if what != "" {
				what += ", and "
			}
			what += fmt.Sprintf("label %q appears", clipString(st.label))
		}
		if what != "" {
			*notes = append(*notes, fmt.Sprintf("warning: %s:%d: %s only on this first line, read as data (a header? set "+
				"UserOptions.Header to HeaderPresent)", st.name, st.first.line, what))
		}
	}
	if len(dead) == 0 {
		return labels, nil
	}
	remap := ids.drop(dead)
	for i := range labels {
		labels[i].id = remap[labels[i].id]
	}
	for i := range edges.src {
		edges.src[i], edges.dst[i] = remap[edges.src[i]], remap[edges.dst[i]]
	}
	if pf != nil {
		for i := range pf.rows {
			pf.rows[i].id = remap[pf.rows[i].id]
		}
	}
	for i := range splits {
		splits[i].id = remap[splits[i].id]
	}
	return labels, nil
}

// noteDuplicateEdges reports edges given more than once (kept, as the
// loaders keep duplicates; UserOptions.Undirected removes them).
func noteDuplicateEdges(name string, el *edgeList, notes *[]string) {
	first := make(map[[2]int32]int32, len(el.src))
	var examples []string
	dups := 0
	for i := range el.src {
		key := [2]int32{el.src[i], el.dst[i]}
		if at, ok := first[key]; ok {
			dups++
			if len(examples) < 3 {
				examples = append(examples, fmt.Sprintf("line %d repeats line %d", el.lines[i], at))
			}
			continue
		}
		first[key] = el.lines[i]
	}
	if dups > 0 {
		more := ""
		if dups > len(examples) {
			more = "; ..."
		}
		plural := map[bool]string{true: "s", false: ""}[dups > 1]
		*notes = append(*notes, fmt.Sprintf("%s: %d duplicate edge%s (%s%s), kept", name, dups, plural, strings.Join(examples, "; "), more))
	}
}

// noteOddIDs reports, when nearly every node id is an integer, the few that
// are not (a typo such as "1O" makes every id a name under IDsAuto).
func noteOddIDs(ids *idTable, notes *[]string) {
	var odd []int
	for k, v := range ids.ints {
		if v < 0 {
			odd = append(odd, k)
		}
	}
	ints := len(ids.names) - len(odd)
	if len(odd) == 0 || ints < 2*len(odd) || len(odd) > 10 {
		return // integer ids, or names (a few integer-looking names among them are common)
	}
	for i, k := range odd {
		if i == 3 {
			*notes = append(*notes, fmt.Sprintf("warning: %d more node ids are not integers", len(odd)-3))
			break
		}
		*notes = append(*notes, fmt.Sprintf("warning: %s: node id %q is not an integer, unlike %d other ids: every id is read "+
			"as a name (fix it, or set UserOptions.IDs to IDsNames)", ids.first[k], clipString(ids.names[k]), ints))
	}
}

// ---- assembling ----

// ReadUserGraph reads a user graph from readers (see UserFiles and the
// format notes above): in.Edges is required, the others optional. Errors
// name the input and line.
func ReadUserGraph(in UserInputs, opts UserOptions) (*UserGraph, error) {
	if in.Edges == nil {
		return nil, errors.New("datasets: user graph: no edges input")
	}
	if opts.Name == "" {
		opts.Name = "user-graph"
	}
	maxNodes := opts.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxUserNodes
	}
	ids := newIDTable()
	ug := &UserGraph{FeatureFormat: "identity"}
	var (
		pf     *parsedFeatures
		labels []labelRec
		splits []splitRec
		nsplit int
		err    error
	)
	if in.Features != nil {
		if pf, err = readFeatures(in.Features, opts, ids, &ug.Notes); err != nil {
			return nil, err
		}
		ug.FeatureFormat = map[bool]string{true: "sparse", false: "dense"}[pf.sparse]
	}
	var labelStart, edgeStart fileStart
	if in.Labels != nil {
		if labels, err = readLabels(in.Labels, opts, ids, &labelStart); err != nil {
			return nil, err
		}
	}
	edges, err := readEdges(in.Edges, opts, ids, &edgeStart)
	if err != nil {
		return nil, err
	}
	if in.Splits != nil {
		if splits, nsplit, err = readSplits(in.Splits, opts, ids, &ug.Notes); err != nil {
			return nil, err
		}
	}
	if labels, err = resolveFirstLines(ids, &labelStart, labels, &edgeStart, edges, pf, splits, &ug.Notes); err != nil {
		return nil, err
	}
	noteDuplicateEdges(in.Edges.Name, edges, &ug.Notes)
	if opts.IDs == IDsAuto {
		noteOddIDs(ids, &ug.Notes)
	}

	// Node index of every interned id.
	node := make([]int32, len(ids.names))
	var n int
	ug.IntegerIDs = opts.IDs == IDsInteger || (opts.IDs == IDsAuto && ids.allInt)
	if ug.IntegerIDs {
		largest := -1
		for k, v := range ids.ints {
			if v < 0 {
				return nil, fmt.Errorf("%s: node id %q is not a non-negative integer (IDsInteger); use IDsNames for named nodes",
					ids.first[k], clipString(ids.names[k]))
			}
			if v >= int64(maxNodes) {
				return nil, fmt.Errorf("%s: node id %d exceeds the limit of %d nodes (UserOptions.MaxNodes)", ids.first[k], v, maxNodes)
			}
			node[k] = int32(v)
			if int(v)+1 > n {
				n, largest = int(v)+1, k
			}
		}
		// Integer ids make N the largest id plus one: one stray id asks for
		// every node below it (and, without a features file, as many
		// one-hot feature columns).
		if largest >= 0 && pf == nil {
			perNode := int64(userNodeBytes + InputLayerBytesPerFeature)
			if err := limits.CheckCount(fmt.Sprintf("%s: node id %d (%d nodes with one-hot features)", ids.first[largest],
				ids.ints[largest], n), int64(n), perNode); err != nil {
				return nil, err
			}
		}
		if pf != nil {
			n = len(pf.rows)
			seen := make([]int, n) // line of the row of each node
			for _, r := range pf.rows {
				v := node[r.id]
				if int(v) >= n {
					return nil, fmt.Errorf("%s:%d: node id %d outside 0..%d: with integer ids the %d feature rows must be the nodes 0..%d (1-based ids? use IDsNames)",
						in.Features.Name, r.line, v, n-1, n, n-1)
				}
				if seen[v] > 0 {
					return nil, fmt.Errorf("%s:%d: node %d has a second feature row (first on line %d)", in.Features.Name, r.line, v, seen[v])
				}
				seen[v] = r.line
			}
			for k := range ids.names {
				if int(node[k]) >= n {
					return nil, fmt.Errorf("%s: node %d has no row in %s (%d rows, nodes 0..%d)", ids.first[k], node[k], in.Features.Name, n, n-1)
				}
			}
		}
		ug.NodeIDs = make([]string, n)
		for v := range ug.NodeIDs {
			ug.NodeIDs[v] = strconv.Itoa(v)
		}
	} else {
		for k := range node {
			node[k] = -1
		}
		if pf != nil {
			for i, r := range pf.rows {
				if node[r.id] >= 0 {
					first := pf.rows[node[r.id]].line
					return nil, fmt.Errorf("%s:%d: node %q has a second feature row (first on line %d)", in.Features.Name, r.line, clipString(ids.names[r.id]), first)
				}
				node[r.id] = int32(i)
			}
			n = len(pf.rows)
			for k := range ids.names {
				if node[k] < 0 {
					return nil, fmt.Errorf("%s: node %q has no row in %s", ids.first[k], clipString(ids.names[k]), in.Features.Name)
				}
			}
		} else {
			for k := range node {
				node[k] = int32(k)
			}
			n = len(ids.names)
		}
		if n > maxNodes {
			return nil, fmt.Errorf("datasets: user graph has %d nodes, more than the limit %d (UserOptions.MaxNodes)", n, maxNodes)
		}
		if pf == nil {
			if err := limits.CheckCount(fmt.Sprintf("%s: %d distinct node ids (with one-hot features)", in.Edges.Name, n),
				int64(n), userNodeBytes+InputLayerBytesPerFeature); err != nil {
				return nil, err
			}
		}
		ug.NodeIDs = make([]string, n)
		for k, v := range node {
			ug.NodeIDs[v] = ids.names[k]
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no nodes (empty edges file and no features or labels)", in.Edges.Name)
	}

	spec := graph.Spec{Name: opts.Name, NumNodes: n}

	// Features, in node order.
	if pf != nil {
		order := make([]int, n) // node -> row
		for i, r := range pf.rows {
			order[node[r.id]] = i
		}
		if pf.sparse {
			rowPtr := make([]int32, n+1)
			cols := make([]int32, 0, len(pf.cols))
			vals := make([]float32, 0, len(pf.vals))
			for v := range n {
				r := pf.rows[order[v]]
				cols = append(cols, pf.cols[r.start:r.end]...)
				vals = append(vals, pf.vals[r.start:r.end]...)
				rowPtr[v+1] = int32(len(cols))
			}
			spec.Features, err = graph.NewSparseFeatures(n, pf.width, rowPtr, cols, vals)
		} else {
			data := make([]float32, 0, len(pf.vals))
			for v := range n {
				r := pf.rows[order[v]]
				data = append(data, pf.vals[r.start:r.end]...)
			}
			spec.Features, err = graph.NewDenseFeatures(n, pf.width, data)
		}
	} else {
		rowPtr, cols, vals := make([]int32, n+1), make([]int32, n), make([]float32, n)
		for v := range n {
			rowPtr[v+1], cols[v], vals[v] = int32(v+1), int32(v), 1
		}
		spec.Features, err = graph.NewSparseFeatures(n, n, rowPtr, cols, vals)
		ug.Notes = append(ug.Notes, fmt.Sprintf("no features file: one-hot identity features (%d columns)", n))
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: user graph features: %w", err)
	}

	// Labels.
	if labels != nil {
		y := make([]int32, n)
		for v := range y {
			y[v] = graph.Unlabeled
		}
		lineOf := make(map[int32]int, len(labels))
		classes, intLabels, note := labelClasses(labels)
		ug.ClassNames = make([]string, len(classes))
		classOf := make(map[string]int32, len(classes))
		for c, k := range classes {
			ug.ClassNames[c], classOf[k] = k, int32(c)
		}
		if intLabels {
			classOf["-1"] = graph.Unlabeled
		}
		ug.Notes = append(ug.Notes, in.Labels.Name+": "+note)
		for _, l := range labels {
			v := node[l.id]
			if first, dup := lineOf[v]; dup {
				return nil, fmt.Errorf("%s:%d: node %q has a second label (first on line %d)", in.Labels.Name, l.line, clipString(ug.NodeIDs[v]), first)
			}
			lineOf[v] = l.line
			y[v] = classOf[canonicalLabel(l.label, intLabels)]
		}
		spec.Labels, spec.NumClasses = y, len(ug.ClassNames)
	}

	// Edges.
	spec.Src, spec.Dst = make([]int32, len(edges.src)), make([]int32, len(edges.dst))
	for e := range edges.src {
		spec.Src[e], spec.Dst[e] = node[edges.src[e]], node[edges.dst[e]]
	}

	// Splits.
	if splits != nil {
		masks := make([][3][]bool, nsplit)
		for k := range masks {
			for m := range masks[k] {
				masks[k][m] = make([]bool, n)
			}
		}
		lineOf := make(map[int32]int, len(splits))
		for _, s := range splits {
			v := node[s.id]
			if first, dup := lineOf[v]; dup {
				return nil, fmt.Errorf("%s:%d: node %q has a second row (first on line %d)", in.Splits.Name, s.line, clipString(ug.NodeIDs[v]), first)
			}
			lineOf[v] = s.line
			for k, c := range s.codes {
				switch c {
				case 't':
					masks[k][0][v] = true
				case 'v':
					masks[k][1][v] = true
				case 's':
					masks[k][2][v] = true
				}
			}
		}
		for k, m := range masks {
			sp, err := graph.SplitFromMasks(m[0], m[1], m[2])
			if err != nil {
				return nil, fmt.Errorf("%s: split %d: %w", in.Splits.Name, k+1, err)
			}
			if len(sp.Train) == 0 {
				return nil, fmt.Errorf("%s: split %d has no training node", in.Splits.Name, k+1)
			}
			if spec.Labels != nil {
				for _, set := range [][]int32{sp.Train, sp.Val, sp.Test} {
					for _, v := range set {
						if spec.Labels[v] == graph.Unlabeled {
							return nil, fmt.Errorf("%s:%d: split %d uses node %q, which has no label", in.Splits.Name, lineOf[v], k+1, clipString(ug.NodeIDs[v]))
						}
					}
				}
			}
			spec.Splits = append(spec.Splits, sp)
		}
	}

	g, err := graph.New(spec)
	if err != nil {
		return nil, fmt.Errorf("datasets: user graph: %w", err)
	}
	if opts.Undirected {
		g = g.ToUndirected()
		ug.Notes = append(ug.Notes, fmt.Sprintf("edges made undirected: %d directed edges", g.NumEdges()))
	}
	ug.Graph = g
	return ug, nil
}

// ---- writing ----

// WriteUserFiles writes g into dir as edges.csv, features.csv (dense rows,
// or sparse index:value rows for sparse features), labels.csv (when g has
// labels) and splits.csv (when g has splits), each with a header line, in
// the format LoadUserFiles reads; node ids are 0..N-1. Every file is written
// to a temp file and renamed. It returns the paths (with IDs set to
// IDsInteger and the graph's name).
func WriteUserFiles(dir string, g *graph.Graph) (UserFiles, error) {
	if g == nil {
		return UserFiles{}, errors.New("datasets: WriteUserFiles: nil graph")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return UserFiles{}, fmt.Errorf("datasets: WriteUserFiles: %w", err)
	}
	uf := UserFiles{UserOptions: UserOptions{Name: g.Name(), IDs: IDsInteger, Header: HeaderPresent}}
	write := func(name string, fill func(b *bytes.Buffer)) (string, error) {
		var b bytes.Buffer
		fill(&b)
		path := filepath.Join(dir, name)
		tmp, err := os.CreateTemp(dir, "."+name+".tmp*")
		if err != nil {
			return "", fmt.Errorf("datasets: WriteUserFiles: %w", err)
		}
		if _, err := tmp.Write(b.Bytes()); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return "", fmt.Errorf("datasets: WriteUserFiles %s: %w", path, err)
		}
		if err := tmp.Close(); err != nil {
			os.Remove(tmp.Name())
			return "", fmt.Errorf("datasets: WriteUserFiles %s: %w", path, err)
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return "", fmt.Errorf("datasets: WriteUserFiles %s: %w", path, err)
		}
		return path, nil
	}
	num := func(b *bytes.Buffer, x float32) { b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32)) }
	var err error
	if uf.Edges, err = write("edges.csv", func(b *bytes.Buffer) {
		b.WriteString("source,target\n")
		src, dst := g.Src(), g.Dst()
		for e := range src {
			fmt.Fprintf(b, "%d,%d\n", src[e], dst[e])
		}
	}); err != nil {
		return uf, err
	}
	if f := g.Features(); f != nil {
		if uf.Features, err = write("features.csv", func(b *bytes.Buffer) {
			if f.IsSparse() {
				b.WriteString("node features\n")
				for v := range f.NumRows() {
					b.WriteString(strconv.Itoa(v))
					cols, vals := f.SparseRow(v)
					for k := range cols {
						fmt.Fprintf(b, " %d:", cols[k])
						num(b, vals[k])
					}
					b.WriteByte('\n')
				}
				return
			}
			b.WriteString("node")
			for c := range f.NumCols() {
				fmt.Fprintf(b, ",f%d", c)
			}
			b.WriteByte('\n')
			for v := range f.NumRows() {
				b.WriteString(strconv.Itoa(v))
				for _, x := range f.DenseRow(v) {
					b.WriteByte(',')
					num(b, x)
				}
				b.WriteByte('\n')
			}
		}); err != nil {
			return uf, err
		}
		if f.IsSparse() {
			uf.NumFeatures = f.NumCols()
		}
	}
	if y := g.Labels(); y != nil {
		if uf.Labels, err = write("labels.csv", func(b *bytes.Buffer) {
			b.WriteString("node,label\n")
			for v, c := range y {
				if c != graph.Unlabeled {
					fmt.Fprintf(b, "%d,%d\n", v, c)
				}
			}
		}); err != nil {
			return uf, err
		}
	}
	if sp := g.Splits(); len(sp) > 0 {
		if uf.Splits, err = write("splits.csv", func(b *bytes.Buffer) {
			b.WriteString("node")
			for k := range sp {
				fmt.Fprintf(b, ",split%d", k)
			}
			b.WriteByte('\n')
			code := make([][]string, len(sp))
			for k, s := range sp {
				code[k] = make([]string, g.NumNodes())
				for _, set := range []struct {
					nodes []int32
					name  string
				}{{s.Train, "train"}, {s.Val, "val"}, {s.Test, "test"}} {
					for _, v := range set.nodes {
						code[k][v] = set.name
					}
				}
			}
			for v := range g.NumNodes() {
				b.WriteString(strconv.Itoa(v))
				for k := range sp {
					c := code[k][v]
					if c == "" {
						c = "-"
					}
					b.WriteString("," + c)
				}
				b.WriteByte('\n')
			}
		}); err != nil {
			return uf, err
		}
	}
	return uf, nil
}
