package testkit_test

import (
	"bufio"
	"bytes"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/gridbridge/gridbridge/"

// TestAPINamesNoEmulatorType walks every exported name of the package —
// functions, types, their exported fields and methods — and fails when a
// signature names a type of the emulator's own packages: the testkit's API
// is its own, so the engine can change under it.
func TestAPINamesNoEmulatorType(t *testing.T) {
	t.Parallel()
	pkg := loadPackage(t, module+"testkit")
	w := walker{seen: map[types.Type]bool{}, bad: map[string]bool{}}
	scope := pkg.Scope()
	// Types first, so a method's finding names its type, not the first
	// function that returns it.
	for _, typesFirst := range []bool{true, false} {
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if _, isType := obj.(*types.TypeName); !obj.Exported() || isType != typesFirst {
				continue
			}
			w.where = name
			w.typ(obj.Type())
		}
	}
	var bad []string
	for b := range w.bad {
		bad = append(bad, b)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	if len(scope.Names()) < 50 {
		t.Fatalf("walked %d names: the package did not load whole", len(scope.Names()))
	}
}

type walker struct {
	where string
	seen  map[types.Type]bool
	bad   map[string]bool
}

// foreign reports whether path is a project package outside the testkit.
func foreign(path string) bool {
	rest, ok := strings.CutPrefix(path, module)
	return ok && rest != "testkit" && !strings.HasPrefix(rest, "testkit/")
}

func (w *walker) typ(t types.Type) {
	if t == nil || w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && foreign(p.Path()) {
			w.bad[w.where+" names "+p.Path()+"."+t.Obj().Name()] = true
			return
		}
		if p := t.Obj().Pkg(); p == nil || !strings.HasPrefix(p.Path(), module) {
			return // another module's type: its own API
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.typ(t.TypeArgs().At(i))
		}
		where := w.where
		w.where = t.Obj().Name()
		w.typ(t.Underlying())
		w.methods(t)
		w.where = where
	case *types.Alias:
		w.typ(types.Unalias(t))
	case *types.Pointer:
		w.typ(t.Elem())
	case *types.Slice:
		w.typ(t.Elem())
	case *types.Array:
		w.typ(t.Elem())
	case *types.Map:
		w.typ(t.Key())
		w.typ(t.Elem())
	case *types.Chan:
		w.typ(t.Elem())
	case *types.Signature:
		w.tuple(t.Params())
		w.tuple(t.Results())
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if f := t.Field(i); f.Exported() || f.Embedded() {
				w.typ(f.Type())
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if m := t.Method(i); m.Exported() {
				w.typ(m.Type())
			}
		}
	}
}

func (w *walker) tuple(t *types.Tuple) {
	for i := 0; i < t.Len(); i++ {
		w.typ(t.At(i).Type())
	}
}

func (w *walker) methods(t types.Type) {
	for _, recv := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(recv)
		for i := 0; i < ms.Len(); i++ {
			if m := ms.At(i).Obj(); m.Exported() {
				where := w.where
				w.where += "." + m.Name()
				w.typ(m.Type())
				w.where = where
			}
		}
	}
}

// loadPackage type-checks path from the compiler's export data, which go
// list builds (or finds in the build cache) for it and its dependencies.
func loadPackage(t *testing.T, path string) *types.Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", path)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if p, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			exports[p] = file
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(p string) (io.ReadCloser, error) {
		return os.Open(exports[p])
	})
	pkg, err := imp.Import(path)
	if err != nil {
		t.Fatalf("importing %s: %v", path, err)
	}
	return pkg
}
