package npy

import (
	"fmt"
	"strconv"
)

// The .npy header is a Python literal (repr of a dict). litParser reads the
// subset NumPy writes: dicts with string keys, strings, True/False/None,
// integers (with Python 2's L suffix), tuples and lists.
type (
	litDict  map[string]any
	litTuple []any
)

const maxLitDepth = 16

type litParser struct {
	s     string
	pos   int
	depth int
}

func (p *litParser) parse() (any, error) {
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at offset %d", p.s[p.pos:min(p.pos+10, len(p.s))], p.pos)
	}
	return v, nil
}

func (p *litParser) skipSpace() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *litParser) value() (any, error) {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxLitDepth {
		return nil, p.errorf("nesting deeper than %d", maxLitDepth)
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.dict()
	case c == '(':
		items, err := p.seq('(', ')')
		return litTuple(items), err
	case c == '[':
		return p.seq('[', ']')
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.integer()
	default:
		for _, w := range []struct {
			word string
			v    any
		}{{"True", true}, {"False", false}, {"None", nil}} {
			if len(p.s)-p.pos >= len(w.word) && p.s[p.pos:p.pos+len(w.word)] == w.word {
				p.pos += len(w.word)
				return w.v, nil
			}
		}
		return nil, p.errorf("unexpected character %q", c)
	}
}

func (p *litParser) dict() (any, error) {
	p.pos++ // '{'
	d := litDict{}
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errorf("unterminated dict")
		}
		if p.s[p.pos] == '}' {
			p.pos++
			return d, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		ks, ok := k.(string)
		if !ok {
			return nil, p.errorf("dict key is not a string")
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return nil, p.errorf("expected ':' after key %q", ks)
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		d[ks] = v
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
		} else if p.pos < len(p.s) && p.s[p.pos] != '}' {
			return nil, p.errorf("expected ',' or '}' in dict")
		}
	}
}

func (p *litParser) seq(open, closing byte) ([]any, error) {
	p.pos++ // open
	items := []any{}
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errorf("unterminated %q", open)
		}
		if p.s[p.pos] == closing {
			p.pos++
			return items, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
		} else if p.pos < len(p.s) && p.s[p.pos] != closing {
			return nil, p.errorf("expected ',' or %q", closing)
		}
	}
}

func (p *litParser) str() (any, error) {
	q := p.s[p.pos]
	p.pos++
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != q {
		if p.s[p.pos] == '\\' {
			return nil, p.errorf("escape sequences are not supported in header strings")
		}
		p.pos++
	}
	if p.pos >= len(p.s) {
		return nil, p.errorf("unterminated string")
	}
	s := p.s[start:p.pos]
	p.pos++
	return s, nil
}

func (p *litParser) integer() (any, error) {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
	if err != nil {
		return nil, p.errorf("bad integer %q", p.s[start:p.pos])
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'L' || p.s[p.pos] == 'l') {
		p.pos++
	}
	return n, nil
}
