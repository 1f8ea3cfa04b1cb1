package userdata

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitFields(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"a,b,c", []string{"a", "b", "c"}},
		{" a , b ,c ", []string{"a", "b", "c"}},
		{"a,,b,", []string{"a", "", "b", ""}},
		{"a\tb c\td", []string{"a", "b c", "d"}},
		{"a  b\t", []string{"a  b", ""}}, // a tab makes the line tab-separated
		{"a   b  c", []string{"a", "b", "c"}},
		{`"x, y",z`, []string{"x, y", "z"}},
		{`"say ""hi""" 3`, []string{`say "hi"`, "3"}},
		{`"a" "b"`, []string{"a", "b"}},
		{`""`, []string{""}},
	}
	for _, c := range cases {
		got, err := splitFields(c.line)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitFields(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
	for _, bad := range []string{`"open`, `"a"b,c`, `"a""`} {
		if _, err := splitFields(bad); err == nil {
			t.Errorf("splitFields(%q): no error", bad)
		}
	}
}

func TestHeaderDetection(t *testing.T) {
	cases := []struct {
		text   string
		header bool
	}{
		{"source,target\n0,1\n", true},  // column names
		{"src dst\nalice bob\n", true},  // column names, named nodes
		{"node,f1,f2\n0,0.5,1\n", true}, // a name above a number
		{"name,label\nalice,spam\n", true},
		{"0,1\n1,2\n", false},
		{"alice,bob\ncarol,dan\n", false},
		{"x1,x2\nx2,x3\n", false}, // both lines look like names: data
		{"label\n", true},         // a single line of column names
		{"0 1:1 3:2\n1 2:1\n", false},
	}
	for _, c := range cases {
		rr := newRecordReader(&NamedReader{Name: "f", R: strings.NewReader(c.text)})
		st, err := rr.start(HeaderAuto)
		if err != nil || (st.header != nil) != c.header {
			t.Errorf("%q: header %v (err %v), want %v", c.text, st.header != nil, err, c.header)
		}
	}
}
