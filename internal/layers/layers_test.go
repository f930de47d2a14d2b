package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gridbridge/gridbridge/"

// imports lists every non-test package of the module with the module's
// packages it imports, by path relative to the module.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		pkgs[pkg] = nil
		for _, imp := range fields[1:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				pkgs[pkg] = append(pkgs[pkg], rel)
			}
		}
	}
	return pkgs
}

func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// kit reports the shared packages below the faces: what every face may use.
func kit(pkg string) bool {
	return under(pkg, "compat/aws") || under(pkg, "compat/azure") || under(pkg, "compat/entra") || under(pkg, "internal")
}

// face is the top-level directory of a cloud face under compat/, or "".
func face(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, "compat/")
	if !ok || kit(pkg) {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return "compat/" + name
}

func TestImportsPointOneWay(t *testing.T) {
	t.Parallel()
	for pkg, deps := range imports(t) {
		for _, dep := range deps {
			var why string
			switch {
			case under(pkg, "emulator/engine") && !under(dep, "emulator/engine"):
				why = "the engine imports nothing of the project"
			case under(dep, "testkit") || under(dep, "fakes") || under(dep, "internal/facetest") || under(dep, "internal/testbinary"):
				if !under(pkg, "testkit") && !under(pkg, "examples") && !under(pkg, "internal/facetest") && !under(pkg, "compat/eventgrid/internal/routetest") {
					why = "production code imports no test helper"
				}
			case strings.HasPrefix(pkg, "compat/") && under(dep, "emulator") && !under(dep, "emulator/engine"):
				why = "a face or kit imports only emulator/engine of the server"
			case kit(pkg) && face(dep) != "":
				why = "a kit imports no face"
			case face(pkg) != "" && face(dep) != "" && face(pkg) != face(dep) && dep == face(dep):
				why = "a face imports no other face's top-level package"
			case under(dep, "cmd"):
				why = "nothing imports the binary"
			}
			if why != "" {
				t.Errorf("%s imports %s: %s", pkg, dep, why)
			}
		}
	}
}

func TestFacesAndKitsAreTold(t *testing.T) {
	t.Parallel()
	for pkg, want := range map[string]string{
		"compat/eventbridge":          "compat/eventbridge",
		"compat/eventbridge/eventsv2": "compat/eventbridge",
		"compat/sqs":                  "compat/sqs",
		"compat/aws/frame":            "",
		"compat/azure/arm":            "",
		"compat/entra":                "",
		"emulator":                    "",
	} {
		if got := face(pkg); got != want {
			t.Errorf("face(%s) = %q, want %q", pkg, got, want)
		}
	}
}
