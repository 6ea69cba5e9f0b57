package lang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Use is one message the code makes (see Msg): its id, its English plural
// if it has one, and where it is made ("engine/game/schedule.go:549").
type Use struct {
	ID, Other, Pos string
}

// Uses finds every message id the Go files of dirs make (tests left out;
// a dir ending in "/..." takes its subdirectories too): the first argument
// of each call to lang.M and lang.MN (and MN's second, the plural), and
// of each call to a function named in also, a package's own wrappers that
// take an id first ("tell", "engine.Tell" does not: it takes a Msg). An id
// must be a string literal or a constant of the file's package; an id
// computed at run time is reported as an error, since no test could then
// know whether it has a translation.
//
// The catalog tests call it to check that every id has a translation in
// every language (Missing): a sentence reworded in English is a new id,
// and fails them until its translation follows.
func Uses(dirs []string, also ...string) ([]Use, error) {
	var out []Use
	for _, dir := range dirs {
		files, err := goFiles(dir)
		if err != nil {
			return nil, err
		}
		byPkg := map[string][]string{}
		for _, f := range files {
			byPkg[filepath.Dir(f)] = append(byPkg[filepath.Dir(f)], f)
		}
		for _, list := range byPkg {
			u, err := usesIn(list, also)
			if err != nil {
				return nil, err
			}
			out = append(out, u...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out, nil
}

func goFiles(dir string) ([]string, error) {
	deep := strings.HasSuffix(dir, "/...")
	dir = strings.TrimSuffix(dir, "/...")
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (!deep || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// usesIn reads the files of one package: its constants first, so that an
// id may be one.
func usesIn(files []string, also []string) ([]Use, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	consts := map[string]string{}
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, af)
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i < len(vs.Values) {
						if s, ok := literal(vs.Values[i], nil); ok {
							consts[name.Name] = s
						}
					}
				}
			}
		}
	}
	names := map[string]bool{}
	for _, a := range also {
		names[a] = true
	}
	var out []Use
	var bad []string
	for _, af := range parsed {
		// engine/lang may be imported under another name ("enlang").
		pkgName := "lang"
		for _, im := range af.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "orrery/engine/lang" && im.Name != nil {
				pkgName = im.Name.Name
			}
		}
		// A wrapper named in also passes its own id on: its parameters
		// are not ids of their own.
		var params map[string]bool
		ast.Inspect(af, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok {
				params = nil
				if names[fd.Name.Name] {
					params = map[string]bool{}
					for _, f := range fd.Type.Params.List {
						for _, nm := range f.Names {
							params[nm.Name] = true
						}
					}
				}
				return true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			name := callName(call.Fun)
			if after, ok := strings.CutPrefix(name, pkgName+"."); ok {
				name = "lang." + after
			}
			plural := name == "lang.MN"
			if name != "lang.M" && !plural && !names[name] {
				return true
			}
			pos := fset.Position(call.Pos())
			where := fmt.Sprintf("%s:%d", filepath.ToSlash(pos.Filename), pos.Line)
			if id, ok := call.Args[0].(*ast.Ident); ok && params[id.Name] {
				return true
			}
			id, ok := literal(call.Args[0], consts)
			if !ok {
				bad = append(bad, where+": "+name+" with an id that is not a constant")
				return true
			}
			u := Use{ID: id, Pos: where}
			if plural && len(call.Args) > 1 {
				if o, ok := literal(call.Args[1], consts); ok {
					u.Other = o
				}
			}
			out = append(out, u)
			return true
		})
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("message ids must be constants, for the catalog tests to find them:\n%s", strings.Join(bad, "\n"))
	}
	return out, nil
}

func callName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// literal is the value of a string literal, a constant of consts, or a
// sum of those.
func literal(e ast.Expr, consts map[string]string) (string, bool) {
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(v.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[v.Name]
		return s, ok
	case *ast.BinaryExpr:
		if v.Op != token.ADD {
			return "", false
		}
		a, ok1 := literal(v.X, consts)
		b, ok2 := literal(v.Y, consts)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return literal(v.X, consts)
	}
	return "", false
}

// Missing lists, for each language of langs but English, the uses whose
// id none of cats translates, and those whose translation takes another
// number of arguments than the id: one line each, with where the id is
// made, for a test to print.
func Missing(uses []Use, langs []Tag, cats ...*Catalog) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range langs {
		if t == English {
			continue
		}
		for _, u := range uses {
			key := string(t) + "\x00" + u.ID
			if seen[key] {
				continue
			}
			seen[key] = true
			var forms []string
			for _, c := range cats {
				if c == nil {
					continue
				}
				if f, ok := c.msgs[t][u.ID]; ok && len(f) > 0 && f[0] != "" {
					forms = f
					break
				}
			}
			switch {
			case forms == nil:
				out = append(out, fmt.Sprintf("%s: %s: no translation of %q", u.Pos, t, u.ID))
			case u.Other != "" && len(forms) < Forms(t):
				out = append(out, fmt.Sprintf("%s: %s: %q needs %d plural forms, has %d", u.Pos, t, u.ID, Forms(t), len(forms)))
			default:
				for _, f := range forms {
					if argCount(f) != argCount(u.ID) {
						out = append(out, fmt.Sprintf("%s: %s: the translation %q of %q takes %d arguments, not %d", u.Pos, t, f, u.ID, argCount(f), argCount(u.ID)))
						break
					}
				}
			}
		}
	}
	return out
}

// argCount counts the arguments a format takes: its verbs but %%, or the
// highest explicit index ("%[3]s").
func argCount(f string) int {
	n, top := 0, 0
	for _, v := range verb.FindAllString(f, -1) {
		if v == "%%" {
			continue
		}
		n++
		if i := strings.Index(v, "["); i >= 0 {
			if k, err := strconv.Atoi(v[i+1 : strings.Index(v, "]")]); err == nil && k > top {
				top = k
			}
		}
	}
	if top > 0 {
		return top
	}
	return n
}
