// Package userdata reads researchers' own graphs from text files (edges,
// dense or sparse features, integer or named labels, splits): a generic,
// forgiving CSV/TSV loader that says what it inferred and names the file
// and line of every error, checks every size against the memory budget
// (lwgcn/limits) before allocating, and writes a graph back in the same
// format (LoadUserFiles, ReadUserGraph, WriteUserFiles). The registered
// benchmark datasets are lwgcn/datasets'.
package userdata
