package plot

import (
	"fmt"
	"math"
)

// Palette is the Okabe-Ito colour-blind-safe palette, ordered so that the
// first colours contrast most on white (yellow, the weakest, comes last).
var Palette = []string{
	"#0072B2", // blue
	"#D55E00", // vermillion
	"#009E73", // bluish green
	"#CC79A7", // reddish purple
	"#E69F00", // orange
	"#56B4E9", // sky blue
	"#000000", // black
	"#F0E442", // yellow
}

// Color returns palette colour i (cycling), so that related series in
// different figures, or a line and its Monte Carlo markers, can share one.
func Color(i int) string {
	n := len(Palette)
	return Palette[((i%n)+n)%n]
}

// colormap is a piecewise-linear colour scale over [0, 1].
type colormap [][3]float64

// viridis (sequential, perceptually uniform, colour-blind safe), sampled at 9 stops.
var viridis = hexStops("#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725")

// blueRed is ColorBrewer RdBu reversed (low = blue, centre = white, high = red).
var blueRed = hexStops("#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7", "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f")

func hexStops(hex ...string) colormap {
	m := make(colormap, len(hex))
	for i, h := range hex {
		var r, g, b int
		fmt.Sscanf(h, "#%02x%02x%02x", &r, &g, &b)
		m[i] = [3]float64{float64(r), float64(g), float64(b)}
	}
	return m
}

// at returns the colour at t in [0, 1] (clamped) as an RGB triple.
func (m colormap) at(t float64) [3]float64 {
	if math.IsNaN(t) {
		t = 0
	}
	t = math.Max(0, math.Min(1, t))
	pos := t * float64(len(m)-1)
	i := int(math.Floor(pos))
	if i >= len(m)-1 {
		return m[len(m)-1]
	}
	f := pos - float64(i)
	var c [3]float64
	for k := range 3 {
		c[k] = m[i][k] + f*(m[i+1][k]-m[i][k])
	}
	return c
}

func rgbHex(c [3]float64) string {
	return fmt.Sprintf("#%02x%02x%02x", clampByte(c[0]), clampByte(c[1]), clampByte(c[2]))
}

func clampByte(v float64) int { return int(math.Max(0, math.Min(255, math.Round(v)))) }

// luminance is the relative luminance (WCAG) of an RGB triple, used to pick
// black or white annotation text.
func luminance(c [3]float64) float64 {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
}
