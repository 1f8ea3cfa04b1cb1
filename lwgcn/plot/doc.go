// Package plot renders the figures and tables of lwgcn as self-contained SVG
// and HTML, using only the standard library.
//
// Every figure is built with a small builder and rendered with SVG (a string
// holding one complete <svg> element) or WriteSVG. The output has no
// JavaScript, no external fonts, stylesheets or images, and is deterministic:
// the same input gives the same bytes, so figures can be committed next to the
// results they show and diffed.
//
// Figure types:
//
//   - LinePlot (NewLine): named series of (x, y) with an optional symmetric
//     error drawn as a translucent band or as error bars, markers, dashed
//     lines, labelled reference lines (VLine, HLine) and an optional log y axis.
//     NewScatter returns a LinePlot whose series draw markers only.
//   - Facets (NewFacets): a row of LinePlots sharing the y range and one legend.
//   - Histogram (NewHistogram): overlaid distributions normalised to density.
//   - Heatmap (NewHeatmap): a matrix with row and column labels, a sequential
//     or diverging colour scale, a colour bar and optional cell annotations.
//   - Bars (NewBars): grouped bars with optional error bars and value labels.
//
// All series share one Series type. Colours come from the Okabe-Ito palette,
// which stays distinguishable under the common forms of colour blindness;
// series also cycle marker shapes so figures survive greyscale printing.
// Axes use "nice" ticks (1, 2 or 5 times a power of ten) that cover the data.
//
// Bad data never panics: NaN and infinite points are skipped (breaking the
// line), empty series are ignored, a single point or a constant series gets a
// padded range, and non-positive values are skipped on a log axis.
//
// Table renders result tables (mean ± std cells, best value per column in
// bold, second best underlined, a provenance footer) as an HTML fragment with
// inline styles and as GitHub-flavoured Markdown.
package plot
