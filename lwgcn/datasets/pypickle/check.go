package pypickle

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
)

// check walks the opcode stream once, without building any values, tracking
// only how many items each opcode leaves on gopickle's stack, and rejects
// inputs on which gopickle v0.3.0 would panic or allocate without bound
// instead of returning an error:
//   - length prefixes or frame sizes larger than the rest of the input
//     (gopickle allocates the announced size before reading);
//   - DICT/SETITEMS with an odd number of items (gopickle indexes items[i+1]);
//   - LONG1/LONG4 with zero bytes (gopickle indexes bytes[len-1]); Python 2
//     writes 0L as LONG1 with no bytes, so that case is rewritten in place to
//     the equivalent BININT1 0 instead of being refused;
//   - opcode 0xff (gopickle's dispatch table has 255 entries);
//   - sets, frozensets, array._array_reconstructor and collections.OrderedDict,
//     whose gopickle implementations hash or index arbitrary values;
//   - persistent ids, extensions and out-of-band buffers, which need hooks.
//
// It returns the input, or a rewritten copy. It does not interpret the pickle:
// gopickle does that afterwards.
func check(data []byte) ([]byte, error) {
	c := checker{data: data, memo: map[int]sym{}}
	return c.run()
}

type symKind uint8

const (
	symOther symKind = iota
	symMark
	symStr
)

// sym is what the checker knows about one stack item: a mark, a short
// literal string (needed to vet STACK_GLOBAL), or anything else.
type sym struct {
	kind symKind
	s    string
}

type checker struct {
	data    []byte
	out     []byte // copy made on the first rewrite
	pos     int
	opStart int
	stack   []sym
	marks   []int // stack positions of marks
	memo    map[int]sym
}

func (c *checker) errorf(format string, args ...any) error {
	return fmt.Errorf("pickle: offset %d (opcode 0x%02x): %s", c.opStart, c.data[c.opStart], fmt.Sprintf(format, args...))
}

func (c *checker) take(n uint64) ([]byte, error) {
	if n > uint64(len(c.data)-c.pos) {
		return nil, c.errorf("needs %d bytes but only %d remain (truncated or corrupt)", n, len(c.data)-c.pos)
	}
	b := c.data[c.pos : c.pos+int(n)]
	c.pos += int(n)
	return b, nil
}

func (c *checker) line() (string, error) {
	for i := c.pos; i < len(c.data); i++ {
		if c.data[i] == '\n' {
			s := string(c.data[c.pos:i])
			c.pos = i + 1
			return s, nil
		}
	}
	return "", c.errorf("line argument has no terminating newline (truncated)")
}

// frameLen is the number of items above the last mark (gopickle's "stack").
func (c *checker) frameLen() int {
	if len(c.marks) == 0 {
		return len(c.stack)
	}
	return len(c.stack) - c.marks[len(c.marks)-1] - 1
}

func (c *checker) push(s sym) { c.stack = append(c.stack, s) }

func (c *checker) pop(n int) ([]sym, error) {
	if c.frameLen() < n {
		return nil, c.errorf("stack underflow")
	}
	items := c.stack[len(c.stack)-n:]
	c.stack = c.stack[:len(c.stack)-n]
	return items, nil
}

func (c *checker) top() (sym, error) {
	if c.frameLen() == 0 {
		return sym{}, c.errorf("stack underflow")
	}
	return c.stack[len(c.stack)-1], nil
}

func (c *checker) popMark() (int, error) {
	if len(c.marks) == 0 {
		return 0, c.errorf("no MARK on the stack")
	}
	m := c.marks[len(c.marks)-1]
	c.marks = c.marks[:len(c.marks)-1]
	n := len(c.stack) - m - 1
	c.stack = c.stack[:m]
	return n, nil
}

func (c *checker) checkClass(module, name string) error {
	if (module == "array" && name == "_array_reconstructor") || (module == "collections" && name == "OrderedDict") {
		return c.errorf("class %s.%s is not supported", module, name)
	}
	return nil
}

func (c *checker) strSym(b []byte) sym {
	if len(b) <= 256 {
		return sym{kind: symStr, s: string(b)}
	}
	return sym{}
}

func (c *checker) run() ([]byte, error) {
	if len(c.data) == 0 {
		return nil, fmt.Errorf("pickle: empty input")
	}
	for {
		if c.pos >= len(c.data) {
			return nil, fmt.Errorf("pickle: input ends at offset %d without STOP (truncated)", c.pos)
		}
		c.opStart = c.pos
		op := c.data[c.pos]
		c.pos++
		if err := c.step(op); err != nil {
			if err == errStop {
				if c.out != nil {
					return c.out, nil
				}
				return c.data, nil
			}
			return nil, err
		}
	}
}

var errStop = fmt.Errorf("stop")

func (c *checker) step(op byte) error {
	var err error
	switch op {
	case '(': // MARK
		c.marks = append(c.marks, len(c.stack))
		c.push(sym{kind: symMark})
	case '.': // STOP
		if _, err = c.pop(1); err != nil {
			return err
		}
		return errStop
	case '0': // POP: gopickle pops the mark when the frame is empty
		if c.frameLen() == 0 {
			_, err = c.popMark()
		} else {
			_, err = c.pop(1)
		}
	case '1': // POP_MARK
		_, err = c.popMark()
	case '2': // DUP
		var t sym
		if t, err = c.top(); err == nil {
			c.push(t)
		}
	case 'F', 'I', 'L': // FLOAT, INT, LONG (decimal lines)
		if _, err = c.line(); err == nil {
			c.push(sym{})
		}
	case 'J': // BININT
		_, err = c.take(4)
		c.push(sym{})
	case 'K': // BININT1
		_, err = c.take(1)
		c.push(sym{})
	case 'M': // BININT2
		_, err = c.take(2)
		c.push(sym{})
	case 'G': // BINFLOAT
		_, err = c.take(8)
		c.push(sym{})
	case 'N', ')', ']', '}', 0x88, 0x89: // NONE, EMPTY_TUPLE/LIST/DICT, NEWTRUE, NEWFALSE
		c.push(sym{})
	case 'S', 'V': // STRING, UNICODE
		var s string
		if s, err = c.line(); err == nil {
			if op == 'S' && len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
				s = s[1 : len(s)-1]
			}
			c.push(c.strSym([]byte(s)))
		}
	case 'T': // BINSTRING: signed 4-byte length
		var b []byte
		if b, err = c.take(4); err == nil {
			n := int32(binary.LittleEndian.Uint32(b))
			if n < 0 {
				return c.errorf("negative string length %d", n)
			}
			if b, err = c.take(uint64(n)); err == nil {
				c.push(c.strSym(b))
			}
		}
	case 'U', 0x8c: // SHORT_BINSTRING, SHORT_BINUNICODE
		var b []byte
		if b, err = c.take(1); err == nil {
			if b, err = c.take(uint64(b[0])); err == nil {
				c.push(c.strSym(b))
			}
		}
	case 'X': // BINUNICODE
		var b []byte
		if b, err = c.take(4); err == nil {
			if b, err = c.take(uint64(binary.LittleEndian.Uint32(b))); err == nil {
				c.push(c.strSym(b))
			}
		}
	case 0x8d: // BINUNICODE8
		var b []byte
		if b, err = c.take(8); err == nil {
			if b, err = c.take(binary.LittleEndian.Uint64(b)); err == nil {
				c.push(c.strSym(b))
			}
		}
	case 'B': // BINBYTES
		var b []byte
		if b, err = c.take(4); err == nil {
			_, err = c.take(uint64(binary.LittleEndian.Uint32(b)))
			c.push(sym{})
		}
	case 'C': // SHORT_BINBYTES
		var b []byte
		if b, err = c.take(1); err == nil {
			_, err = c.take(uint64(b[0]))
			c.push(sym{})
		}
	case 0x8e, 0x96: // BINBYTES8, BYTEARRAY8
		var b []byte
		if b, err = c.take(8); err == nil {
			_, err = c.take(binary.LittleEndian.Uint64(b))
			c.push(sym{})
		}
	case 0x8a: // LONG1
		var b []byte
		if b, err = c.take(1); err == nil {
			if b[0] == 0 {
				c.rewrite(c.opStart, 'K') // LONG1 0x00 == BININT1 0x00: the int 0
			}
			_, err = c.take(uint64(b[0]))
			c.push(sym{})
		}
	case 0x8b: // LONG4
		var b []byte
		if b, err = c.take(4); err == nil {
			n := int32(binary.LittleEndian.Uint32(b))
			if n <= 0 {
				return c.errorf("LONG4 with byte count %d", n)
			}
			_, err = c.take(uint64(n))
			c.push(sym{})
		}
	case 'R', 0x81: // REDUCE, NEWOBJ: pop 2, push 1
		if _, err = c.pop(2); err == nil {
			c.push(sym{})
		}
	case 0x92: // NEWOBJ_EX
		if _, err = c.pop(3); err == nil {
			c.push(sym{})
		}
	case 'a': // APPEND
		if _, err = c.pop(2); err == nil {
			c.push(sym{})
		}
	case 'b': // BUILD: pops the state, keeps the instance
		if _, err = c.pop(1); err == nil {
			_, err = c.top()
		}
	case 's': // SETITEM
		if _, err = c.pop(2); err == nil {
			_, err = c.top()
		}
	case 'd', 'u': // DICT, SETITEMS
		var n int
		if n, err = c.popMark(); err != nil {
			return err
		}
		if n%2 != 0 {
			return c.errorf("dict items after MARK are odd in number (%d)", n)
		}
		if op == 'u' {
			if _, err = c.pop(1); err != nil {
				return err
			}
		}
		c.push(sym{})
	case 'e': // APPENDS
		if _, err = c.popMark(); err == nil {
			if _, err = c.pop(1); err == nil {
				c.push(sym{})
			}
		}
	case 'l', 't': // LIST, TUPLE
		if _, err = c.popMark(); err == nil {
			c.push(sym{})
		}
	case 'o': // OBJ
		var n int
		if n, err = c.popMark(); err == nil {
			if n == 0 {
				return c.errorf("OBJ without a class")
			}
			c.push(sym{})
		}
	case 0x85, 0x86, 0x87: // TUPLE1..3
		if _, err = c.pop(int(op - 0x84)); err == nil {
			c.push(sym{})
		}
	case 'c', 'i': // GLOBAL, INST: module and name lines
		var module, name string
		if module, err = c.line(); err != nil {
			return err
		}
		if name, err = c.line(); err != nil {
			return err
		}
		if err = c.checkClass(module, name); err != nil {
			return err
		}
		if op == 'i' {
			if _, err = c.popMark(); err != nil {
				return err
			}
		}
		c.push(sym{})
	case 0x93: // STACK_GLOBAL
		var items []sym
		if items, err = c.pop(2); err != nil {
			return err
		}
		if items[0].kind != symStr || items[1].kind != symStr {
			return c.errorf("STACK_GLOBAL needs literal module and name strings")
		}
		if err = c.checkClass(items[0].s, items[1].s); err != nil {
			return err
		}
		c.push(sym{})
	case 'g', 'h', 'j': // GET, BINGET, LONG_BINGET
		var i int
		switch op {
		case 'g':
			var s string
			if s, err = c.line(); err != nil {
				return err
			}
			if i, err = strconv.Atoi(s); err != nil {
				return c.errorf("bad memo index %q", s)
			}
		case 'h':
			var b []byte
			if b, err = c.take(1); err != nil {
				return err
			}
			i = int(b[0])
		default:
			var b []byte
			if b, err = c.take(4); err != nil {
				return err
			}
			i = int(binary.LittleEndian.Uint32(b))
		}
		c.push(c.memo[i]) // a missing entry is nil in gopickle: symOther
	case 'p', 'q', 'r', 0x94: // PUT, BINPUT, LONG_BINPUT, MEMOIZE
		var i int
		switch op {
		case 'p':
			var s string
			if s, err = c.line(); err != nil {
				return err
			}
			if i, err = strconv.Atoi(s); err != nil || i < 0 {
				return c.errorf("bad memo index %q", s)
			}
		case 'q':
			var b []byte
			if b, err = c.take(1); err != nil {
				return err
			}
			i = int(b[0])
		case 'r':
			var b []byte
			if b, err = c.take(4); err != nil {
				return err
			}
			i = int(binary.LittleEndian.Uint32(b))
		default:
			i = len(c.memo)
		}
		var t sym
		if t, err = c.top(); err == nil {
			c.memo[i] = t
		}
	case 0x80: // PROTO
		var b []byte
		if b, err = c.take(1); err == nil && b[0] > 5 {
			return c.errorf("unsupported pickle protocol %d", b[0])
		}
	case 0x95: // FRAME
		var b []byte
		if b, err = c.take(8); err == nil {
			if n := binary.LittleEndian.Uint64(b); n > uint64(len(c.data)-c.pos) || n > math.MaxInt32 {
				return c.errorf("frame of %d bytes but only %d remain", n, len(c.data)-c.pos)
			}
		}
	case 0x8f, 0x90, 0x91:
		return c.errorf("sets are not supported")
	case 'P', 'Q':
		return c.errorf("persistent ids are not supported")
	case 0x82, 0x83, 0x84:
		return c.errorf("extension codes are not supported")
	case 0x97, 0x98:
		return c.errorf("out-of-band buffers are not supported")
	default:
		return c.errorf("unknown opcode")
	}
	return err
}

// rewrite replaces one byte, copying the input first so callers' data is
// never modified.
func (c *checker) rewrite(at int, b byte) {
	if c.out == nil {
		c.out = append([]byte(nil), c.data...)
	}
	c.out[at] = b
}
