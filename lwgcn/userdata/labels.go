package userdata

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// labelClasses numbers the classes of a labels file. Integer labels (every
// label an integer >= -1, -1 meaning unlabeled) are class numbers as given
// when they are dense: the largest label L satisfies L+1 <= 2K, K the number
// of distinct labels, so at least half of the classes 0..L have a node (a
// class without labelled nodes stays a class). Otherwise they are numbered by
// increasing value among the values present, K classes: a stray 2000000000
// makes one class, not two billion (the loader used to allocate by the
// largest label and die out of memory, or build a 10^8-class graph that the
// homophily measures could not hold). Any other labels are names, numbered
// in sorted order. classes[c] is class c's label in the file (canonical integer text, so "07" and "7" are one
// class); UserGraph.ClassNames keeps it to map back.
func labelClasses(labels []labelRec) (classes []string, intLabels bool, note string) {
	intLabels = true
	var values []int64
	for _, l := range labels {
		x, err := strconv.ParseInt(l.label, 10, 64)
		if err != nil || x < -1 {
			intLabels = false
			break
		}
		if x >= 0 {
			values = append(values, x)
		}
	}
	if intLabels {
		slices.Sort(values)
		values = slices.Compact(values)
		if len(values) == 0 {
			return nil, true, "every label is -1 (unlabeled)"
		}
		if largest := values[len(values)-1]; largest+1 <= 2*int64(len(values)) {
			classes = make([]string, largest+1)
			for c := range classes {
				classes[c] = strconv.Itoa(c)
			}
			return classes, true, fmt.Sprintf("integer labels 0..%d (-1: unlabeled)", largest)
		}
		for _, x := range values {
			classes = append(classes, strconv.FormatInt(x, 10))
		}
		return classes, true, fmt.Sprintf("%d distinct integer labels, not 0..%d: class c is the c-th smallest "+
			"(ClassNames maps back: %s)", len(values), len(values)-1, clipString(strings.Join(classes, ", ")))
	}
	set := map[string]bool{}
	for _, l := range labels {
		set[l.label] = true
	}
	for k := range set {
		classes = append(classes, k)
	}
	slices.Sort(classes)
	return classes, false, fmt.Sprintf("%d named classes, numbered in sorted order (%s)", len(classes),
		clipString(strings.Join(classes, ", ")))
}

// canonicalLabel is the key of label in labelClasses' numbering.
func canonicalLabel(label string, intLabels bool) string {
	if !intLabels {
		return label
	}
	x, _ := strconv.ParseInt(label, 10, 64)
	return strconv.FormatInt(x, 10)
}
