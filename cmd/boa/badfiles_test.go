package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// configBadFiles returns the study files config's TestErrors refuses,
// read from its source: the table stays where config's tests keep it, and
// a case added there is checked by boa validate's test too. Each case is
// {name, doc, want}, doc a string literal or a sum of literals and the
// test's local string variables; a case of another form fails the test,
// rather than being skipped.
func configBadFiles(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../../config/config_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Name.Name == "TestErrors" {
			fn = d
		}
	}
	if fn == nil {
		t.Fatal("config/config_test.go has no TestErrors")
	}
	locals := map[string]string{}
	var eval func(e ast.Expr) (string, error)
	eval = func(e ast.Expr) (string, error) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.STRING {
				return strconv.Unquote(e.Value)
			}
		case *ast.Ident:
			if v, ok := locals[e.Name]; ok {
				return v, nil
			}
		case *ast.BinaryExpr:
			if e.Op == token.ADD {
				a, err := eval(e.X)
				if err != nil {
					return "", err
				}
				b, err := eval(e.Y)
				return a + b, err
			}
		}
		return "", fmt.Errorf("%s: not a string this test can read", fset.Position(e.Pos()))
	}
	files := map[string]string{}
	var bad error
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if v, err := eval(n.Rhs[0]); err == nil {
						locals[id.Name] = v
					}
				}
			}
		case *ast.CompositeLit:
			if _, isTable := n.Type.(*ast.ArrayType); isTable {
				for _, el := range n.Elts {
					c, ok := el.(*ast.CompositeLit)
					if !ok || len(c.Elts) != 3 {
						bad = fmt.Errorf("%s: a case that is not {name, doc, want}", fset.Position(el.Pos()))
						return false
					}
					name, err1 := eval(c.Elts[0])
					doc, err2 := eval(c.Elts[1])
					if err1 != nil || err2 != nil {
						bad = fmt.Errorf("case at %s: %v %v", fset.Position(c.Pos()), err1, err2)
						return false
					}
					files[name] = doc
				}
				return false
			}
		}
		return true
	})
	if bad != nil {
		t.Fatal(bad)
	}
	if len(files) < 30 {
		t.Fatalf("read only %d cases from config's TestErrors", len(files))
	}
	return files
}
