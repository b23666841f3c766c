package frontend

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.temporal.io/api/serviceerror"
)

// The list filter language of visibility queries (ListWorkflowExecutions,
// CountWorkflowExecutions, ...), as far as the embedded server serves it:
//
//	filter     = [ expr ] [ "GROUP BY" name ]
//	expr       = and { "OR" and }
//	and        = unary { "AND" unary }
//	unary      = "NOT" unary | "(" expr ")" | condition
//	condition  = name op value
//	           | name [ "NOT" ] "IN" "(" value { "," value } ")"
//	           | name [ "NOT" ] "BETWEEN" value "AND" value
//	           | name [ "NOT" ] "STARTS_WITH" value
//	           | name "IS" [ "NOT" ] "NULL"
//	op         = "=" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//	value      = 'string' | "string" | number | TRUE | FALSE
//
// Keywords are case-insensitive; a name may be quoted with backquotes.
// This file reads a filter into a tree of conditions (parseListFilter);
// visibilityfilter.go gives names their types and evaluates the tree on a
// run.

// supportedFilters says what the embedded server's filters support, for
// the errors that refuse the rest.
const supportedFilters = "the embedded Temporal server's list filters support comparisons (=, !=, <, <=, >, >=), IN, STARTS_WITH, BETWEEN, " +
	"IS NULL and IS NOT NULL, joined with AND, OR, NOT and parentheses, and GROUP BY ExecutionStatus in counts: " +
	"run a Temporal dev server (`temporal server start-dev`) for the rest"

// invalidQuery is the InvalidArgument error of a filter, worded as a
// server words it.
func invalidQuery(format string, args ...any) error {
	return serviceerror.NewInvalidArgument("invalid query: " + fmt.Sprintf(format, args...))
}

// unsupportedQuery refuses what a server may serve but the embedded one
// does not, saying what it serves.
func unsupportedQuery(format string, args ...any) error {
	return invalidQuery("%s: %s", fmt.Sprintf(format, args...), supportedFilters)
}

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokName
	tokString
	tokNumber
	tokOp // = != <> < <= > >= ( ) ,
)

type token struct {
	kind tokenKind
	text string // a name or keyword, a string's value, a number, an operator
	pos  int    // byte offset in the filter
}

// lexFilter splits a filter into tokens.
func lexFilter(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(c):
			i += size
		case c == '\'' || c == '"':
			value, n, err := lexString(s[i:])
			if err != nil {
				return nil, invalidQuery("malformed SQL query: %v at position %d", err, i+1)
			}
			out = append(out, token{tokString, value, i})
			i += n
		case c == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				return nil, invalidQuery("malformed SQL query: unterminated quoted name at position %d", i+1)
			}
			out = append(out, token{tokName, s[i+1 : i+1+end], i})
			i += end + 2
		case c == '-' || c == '.' || unicode.IsDigit(c):
			j := i + 1
			for j < len(s) && (unicode.IsDigit(rune(s[j])) || strings.ContainsRune(".eE", rune(s[j])) ||
				(strings.ContainsRune("+-", rune(s[j])) && strings.ContainsRune("eE", rune(s[j-1])))) {
				j++
			}
			out = append(out, token{tokNumber, s[i:j], i})
			i = j
		case c == '_' || unicode.IsLetter(c):
			j := i + size
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += n
			}
			out = append(out, token{tokName, s[i:j], i})
			i = j
		default:
			op := string(c)
			if c < utf8.RuneSelf && i+1 < len(s) {
				if two := s[i : i+2]; two == "!=" || two == "<>" || two == "<=" || two == ">=" {
					op = two
				}
			}
			switch op {
			case "=", "!=", "<>", "<", "<=", ">", ">=", "(", ")", ",":
			default:
				return nil, invalidQuery("malformed SQL query: unexpected %q at position %d", op, i+1)
			}
			out = append(out, token{tokOp, op, i})
			i += len(op)
		}
	}
	return append(out, token{tokEOF, "", len(s)}), nil
}

// lexString reads a quoted string: its value, and how many bytes it took.
// A quote is doubled or backslash-escaped inside.
func lexString(s string) (string, int, error) {
	quote := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == quote && i+1 < len(s) && s[i+1] == quote:
			i++
			b.WriteByte(quote)
		case c == quote:
			return b.String(), i + 1, nil
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// filterNode is a parsed filter: a condition, or conditions joined.
type filterNode struct {
	op       string // "AND", "OR", "NOT", or a condition's operator
	children []*filterNode
	// A condition: its attribute and values (literals as written: string,
	// int64, float64 or bool).
	name   string
	values []any
	negate bool // NOT IN, NOT BETWEEN, NOT STARTS_WITH, IS NOT NULL
}

// parsedFilter is a filter: its conditions (nil: every run) and the
// attribute it groups by ("" for none).
type parsedFilter struct {
	where   *filterNode
	groupBy string
}

type filterParser struct {
	toks []token
	i    int
}

// parseListFilter reads a filter.
func parseListFilter(query string) (parsedFilter, error) {
	toks, err := lexFilter(query)
	if err != nil {
		return parsedFilter{}, err
	}
	p := &filterParser{toks: toks}
	var out parsedFilter
	if !p.atKeyword("ORDER", "GROUP", "LIMIT") && p.peek().kind != tokEOF {
		if out.where, err = p.expr(); err != nil {
			return parsedFilter{}, err
		}
	}
	switch {
	case p.atKeyword("GROUP"):
		p.i++
		if !p.takeKeyword("BY") {
			return parsedFilter{}, invalidQuery("malformed SQL query: GROUP must be followed by BY")
		}
		name := p.next()
		if name.kind != tokName {
			return parsedFilter{}, invalidQuery("malformed SQL query: GROUP BY needs an attribute name")
		}
		out.groupBy = name.text
		if p.peek().kind == tokOp && p.peek().text == "," {
			return parsedFilter{}, invalidQuery("operation is not supported: 'GROUP BY' clause supports only a single field")
		}
	case p.atKeyword("ORDER"):
		return parsedFilter{}, unsupportedQuery("'ORDER BY' clause (runs are listed as a server lists them: open ones first, then by close time, the newest first)")
	case p.atKeyword("LIMIT"):
		return parsedFilter{}, invalidQuery("operation is not supported: 'LIMIT' clause")
	}
	if t := p.peek(); t.kind != tokEOF {
		return parsedFilter{}, invalidQuery("malformed SQL query: unexpected %q at position %d", t.text, t.pos+1)
	}
	return out, nil
}

func (p *filterParser) peek() token { return p.toks[p.i] }

func (p *filterParser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *filterParser) atKeyword(words ...string) bool {
	t := p.peek()
	if t.kind != tokName {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.text, w) {
			return true
		}
	}
	return false
}

func (p *filterParser) takeKeyword(word string) bool {
	if p.atKeyword(word) {
		p.i++
		return true
	}
	return false
}

func (p *filterParser) takeOp(op string) bool {
	if t := p.peek(); t.kind == tokOp && t.text == op {
		p.i++
		return true
	}
	return false
}

func (p *filterParser) expr() (*filterNode, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.takeKeyword("OR") {
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = &filterNode{op: "OR", children: []*filterNode{left, right}}
	}
	return left, nil
}

func (p *filterParser) and() (*filterNode, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.takeKeyword("AND") {
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = &filterNode{op: "AND", children: []*filterNode{left, right}}
	}
	return left, nil
}

func (p *filterParser) unary() (*filterNode, error) {
	if p.takeKeyword("NOT") {
		inner, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &filterNode{op: "NOT", children: []*filterNode{inner}}, nil
	}
	if p.takeOp("(") {
		inner, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.takeOp(")") {
			return nil, invalidQuery("malformed SQL query: a parenthesis is not closed at position %d", p.peek().pos+1)
		}
		return inner, nil
	}
	return p.condition()
}

func (p *filterParser) condition() (*filterNode, error) {
	name := p.next()
	if name.kind != tokName || isReservedWord(name.text) {
		if name.kind == tokEOF {
			return nil, invalidQuery("invalid expression: incomplete expression")
		}
		return nil, invalidQuery("malformed SQL query: expected an attribute name at position %d, found %q", name.pos+1, name.text)
	}
	n := &filterNode{name: name.text}
	if p.peek().kind == tokOp && p.peek().text == "(" {
		return nil, unsupportedQuery("function %s()", name.text)
	}
	if p.takeKeyword("IS") {
		n.op = "IS NULL"
		n.negate = p.takeKeyword("NOT")
		if !p.takeKeyword("NULL") {
			return nil, invalidQuery("invalid expression: 'IS' operator can only be used as 'IS NULL' or 'IS NOT NULL'")
		}
		return n, nil
	}
	n.negate = p.takeKeyword("NOT")
	t := p.next()
	switch {
	case t.kind == tokName && strings.EqualFold(t.text, "IN"):
		n.op = "IN"
		if !p.takeOp("(") {
			return nil, invalidQuery("malformed SQL query: IN needs a parenthesized list of values")
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.values = append(n.values, v)
			if p.takeOp(")") {
				return n, nil
			}
			if !p.takeOp(",") {
				return nil, invalidQuery("malformed SQL query: expected ',' or ')' at position %d", p.peek().pos+1)
			}
		}
	case t.kind == tokName && strings.EqualFold(t.text, "BETWEEN"):
		n.op = "BETWEEN"
		from, err := p.value()
		if err != nil {
			return nil, err
		}
		if !p.takeKeyword("AND") {
			return nil, invalidQuery("malformed SQL query: BETWEEN needs AND between its bounds")
		}
		to, err := p.value()
		if err != nil {
			return nil, err
		}
		n.values = []any{from, to}
		return n, nil
	case t.kind == tokName && strings.EqualFold(t.text, "STARTS_WITH"):
		n.op = "STARTS_WITH"
	case n.negate:
		return nil, invalidQuery("malformed SQL query: NOT must be followed by IN, BETWEEN or STARTS_WITH here, found %q", t.text)
	case t.kind == tokOp && t.text != "(" && t.text != ")" && t.text != ",":
		n.op = t.text
		if n.op == "<>" {
			n.op = "!="
		}
	case t.kind == tokEOF:
		return nil, invalidQuery("invalid expression: incomplete expression")
	case t.kind == tokName && !isReservedWord(t.text):
		n.op = strings.ToUpper(t.text) // LIKE, MATCH, ...: refused with the attribute's type (visibilityfilter.go)
	default:
		return nil, invalidQuery("malformed SQL query: unexpected %q at position %d", t.text, t.pos+1)
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	n.values = []any{v}
	return n, nil
}

// value reads a literal: a string, a number (int64 or float64) or a
// boolean.
func (p *filterParser) value() (any, error) {
	t := p.next()
	switch t.kind {
	case tokString:
		return t.text, nil
	case tokNumber:
		if i, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			return i, nil
		}
		if f, err := strconv.ParseFloat(t.text, 64); err == nil {
			return f, nil
		}
		return nil, invalidQuery("invalid expression: unable to parse value %q", t.text)
	case tokName:
		switch {
		case strings.EqualFold(t.text, "TRUE"):
			return true, nil
		case strings.EqualFold(t.text, "FALSE"):
			return false, nil
		}
		return nil, invalidQuery("operation is not supported: column name on the right side of comparison expression (did you forget to quote %q?)", t.text)
	case tokEOF:
		return nil, invalidQuery("invalid expression: incomplete expression")
	}
	return nil, invalidQuery("malformed SQL query: expected a value at position %d, found %q", t.pos+1, t.text)
}

func isReservedWord(s string) bool {
	switch strings.ToUpper(s) {
	case "AND", "OR", "NOT", "IN", "BETWEEN", "IS", "NULL", "GROUP", "ORDER", "BY", "LIMIT", "STARTS_WITH":
		return true
	}
	return false
}
