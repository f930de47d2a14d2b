// Command gen extracts from one AWS Smithy model (JSON AST) the facts that
// constrain a service's input: its operations, their input members, which
// are required, length and range bounds, enums and patterns. It writes them
// as a Go table for package awsmodel; the model itself is not copied.
//
//	go run ./compat/aws/awsmodel/gen -model eventbridge.json -func EventBridge -out compat/aws/awsmodel/eventbridge_table.go
//
// See package awsmodel for where the models come from.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"
)

type trait = json.RawMessage

type astMember struct {
	Target string           `json:"target"`
	Traits map[string]trait `json:"traits"`
}

type astShape struct {
	Type    string               `json:"type"`
	Members map[string]astMember `json:"members"`
	Member  *astMember           `json:"member"`
	Key     *astMember           `json:"key"`
	Value   *astMember           `json:"value"`
	Traits  map[string]trait     `json:"traits"`
	Input   *astMember           `json:"input"`
	Errors  []astMember          `json:"errors"`
	Version string               `json:"version"`
}

type model struct {
	Shapes map[string]astShape
	// order is each shape's member names in the model's order: AWS lists
	// violations, and writes a structure's members, in that order.
	order map[string][]string
}

func readModel(raw []byte) (model, error) {
	var file struct {
		Shapes map[string]json.RawMessage `json:"shapes"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return model{}, err
	}
	m := model{Shapes: map[string]astShape{}, order: map[string][]string{}}
	for id, rawShape := range file.Shapes {
		var s astShape
		if err := json.Unmarshal(rawShape, &s); err != nil {
			return model{}, fmt.Errorf("%s: %v", id, err)
		}
		m.Shapes[id] = s
		var members struct {
			Members json.RawMessage `json:"members"`
		}
		_ = json.Unmarshal(rawShape, &members)
		if len(members.Members) > 0 {
			keys, err := objectKeys(members.Members)
			if err != nil {
				return model{}, fmt.Errorf("%s: %v", id, err)
			}
			m.order[id] = keys
		}
	}
	return m, nil
}

// objectKeys returns a JSON object's keys in their order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// shape is a table row under construction; key identifies it so that equal
// rows are written once.
type shape struct {
	typ            string
	members        []member
	elem, key      int
	length, rng    bound
	enum           []string
	pattern        string
	sensitive      bool
	discriminator  string
	variants       []variantRow
	structID       string
	structResolved bool
}

type variantRow struct {
	value string
	shape int
}

type member struct {
	name     string
	required bool
	shape    int
	in, wire string
}

type bound struct {
	min, max       float64
	hasMin, hasMax bool
}

type gen struct {
	m      model
	shapes []*shape
	byKey  map[string]int
	// structs maps a structure's id to its row, so recursive shapes end.
	structs map[string]int
}

func main() {
	modelPath := flag.String("model", "", "the Smithy JSON model")
	fn := flag.String("func", "", "the name of the Go function that returns the table")
	out := flag.String("out", "", "the Go file to write")
	armSchema := flag.Bool("arm", false, "the model is an Azure Resource Manager template schema (package armspec)")
	resources := flag.String("resources", "", "with -arm: the resource types to take, comma-separated (default all)")
	apiVersion := flag.String("api-version", "", "with -arm: the API version the schema is of")
	flag.Parse()
	if *modelPath == "" || *fn == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	raw, err := os.ReadFile(*modelPath)
	if err != nil {
		log.Fatal(err)
	}
	g := &gen{byKey: map[string]int{}, structs: map[string]int{}}
	var src []byte
	if *armSchema {
		var names []string
		if *resources != "" {
			names = strings.Split(*resources, ",")
		}
		src, err = g.writeARM(*fn, raw, names, *apiVersion)
		if err == nil {
			src, err = format.Source(src)
		}
	} else {
		if g.m, err = readModel(raw); err != nil {
			log.Fatalf("%s: %v", *modelPath, err)
		}
		src, err = g.write(*fn)
	}
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

func (g *gen) write(fn string) ([]byte, error) {
	var svcName, protocol, version string
	var ops []string
	for id, s := range g.m.Shapes {
		switch s.Type {
		case "service":
			version = s.Version
			var meta struct {
				SdkID string `json:"sdkId"`
			}
			_ = json.Unmarshal(s.Traits["aws.api#service"], &meta)
			svcName = meta.SdkID
			for t := range s.Traits {
				if p, ok := strings.CutPrefix(t, "aws.protocols#"); ok && p != "awsQueryError" && p != "awsQueryCompatible" {
					protocol = p
				}
			}
		case "operation":
			ops = append(ops, id)
		}
	}
	sort.Strings(ops)
	type opRow struct {
		name, method, uri string
		input             int
		errors            []string
	}
	var rows []opRow
	for _, id := range ops {
		s := g.m.Shapes[id]
		row := opRow{name: local(id), input: -1}
		if s.Input != nil && s.Input.Target != "smithy.api#Unit" {
			row.input = g.structure(s.Input.Target)
		}
		var http struct {
			Method string `json:"method"`
			URI    string `json:"uri"`
		}
		if t, ok := s.Traits["smithy.api#http"]; ok {
			_ = json.Unmarshal(t, &http)
		}
		row.method, row.uri = http.Method, http.URI
		for _, e := range s.Errors {
			row.errors = append(row.errors, local(e.Target))
		}
		rows = append(rows, row)
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by compat/aws/awsmodel/gen from the %s model (API version %s); DO NOT EDIT.\n\n", svcName, version)
	fmt.Fprintf(&b, "package awsmodel\n\n")
	fmt.Fprintf(&b, "// %s returns the input constraints of the %s model.\n", fn, svcName)
	fmt.Fprintf(&b, "func %s() *Service {\n\treturn &Service{\n\t\tName: %q, Protocol: %q,\n\t\tOperations: []Operation{\n", fn, svcName, protocol)
	for _, r := range rows {
		fmt.Fprintf(&b, "\t\t\t{Name: %q, Input: %d", r.name, r.input)
		if r.method != "" {
			fmt.Fprintf(&b, ", Method: %q, URI: %q", r.method, r.uri)
		}
		if len(r.errors) > 0 {
			fmt.Fprintf(&b, ", Errors: %s", strs(r.errors))
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t\t},\n\t\tShapes: []Shape{\n")
	g.writeShapes(&b, "")
	b.WriteString("\t\t},\n\t}\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return b.Bytes(), fmt.Errorf("formatting the table: %v", err)
	}
	return src, nil
}

// structure returns the row of the structure or union id, adding it (and
// what it reaches) when new.
func (g *gen) structure(id string) int {
	if i, ok := g.structs[id]; ok {
		return i
	}
	s := g.m.Shapes[id]
	row := &shape{typ: s.Type, structID: id}
	_, row.sensitive = s.Traits["smithy.api#sensitive"]
	g.shapes = append(g.shapes, row)
	i := len(g.shapes) - 1
	g.structs[id] = i
	for _, n := range g.m.order[id] {
		am := s.Members[n]
		m := member{name: n, shape: g.member(am)}
		if _, ok := am.Traits["smithy.api#required"]; ok {
			m.required = true
		}
		for trait, loc := range map[string]string{"smithy.api#httpLabel": "InLabel", "smithy.api#httpQuery": "InQuery", "smithy.api#httpHeader": "InHeader"} {
			if t, ok := am.Traits[trait]; ok {
				m.in, m.wire = loc, n
				var name string
				if json.Unmarshal(t, &name) == nil && name != "" {
					m.wire = name
				}
			}
		}
		row.members = append(row.members, m)
	}
	return i
}

// member returns the row of a member's shape: its target's with the
// member's own constraint traits over them.
func (g *gen) member(am astMember) int {
	target := g.m.Shapes[am.Target]
	typ := target.Type
	if typ == "" {
		typ = prelude(am.Target)
	}
	if typ == "structure" || typ == "union" {
		return g.structure(am.Target)
	}
	s := &shape{typ: typ}
	g.constraints(s, target.Traits)
	g.constraints(s, am.Traits)
	switch typ {
	case "enum":
		s.typ = "string"
		for _, n := range g.m.order[am.Target] {
			v := n
			var val string
			if json.Unmarshal(target.Members[n].Traits["smithy.api#enumValue"], &val) == nil && val != "" {
				v = val
			}
			s.enum = append(s.enum, v)
		}
	case "intEnum":
		s.typ = "integer"
	case "list", "set":
		s.typ = "list"
		s.elem = g.member(*target.Member)
	case "map":
		s.key = g.member(*target.Key)
		s.elem = g.member(*target.Value)
	}
	return g.intern(s)
}

func (g *gen) constraints(s *shape, traits map[string]trait) {
	if t, ok := traits["smithy.api#length"]; ok {
		s.length = readBound(t)
	}
	if t, ok := traits["smithy.api#range"]; ok {
		s.rng = readBound(t)
	}
	if t, ok := traits["smithy.api#pattern"]; ok {
		_ = json.Unmarshal(t, &s.pattern)
	}
	if _, ok := traits["smithy.api#sensitive"]; ok {
		s.sensitive = true
	}
	if t, ok := traits["smithy.api#enum"]; ok {
		var defs []struct {
			Value string `json:"value"`
		}
		_ = json.Unmarshal(t, &defs)
		s.enum = nil
		for _, d := range defs {
			s.enum = append(s.enum, d.Value)
		}
	}
}

func readBound(t trait) bound {
	var v struct {
		Min *float64 `json:"min"`
		Max *float64 `json:"max"`
	}
	_ = json.Unmarshal(t, &v)
	var b bound
	if v.Min != nil {
		b.min, b.hasMin = *v.Min, true
	}
	if v.Max != nil {
		b.max, b.hasMax = *v.Max, true
	}
	return b
}

func (g *gen) intern(s *shape) int {
	key := fmt.Sprintf("%s|%d|%d|%v|%v|%q|%q|%v|%q|%v", s.typ, s.elem, s.key, s.length, s.rng, s.enum, s.pattern, s.sensitive, s.discriminator, s.variants)
	if i, ok := g.byKey[key]; ok {
		return i
	}
	g.shapes = append(g.shapes, s)
	g.byKey[key] = len(g.shapes) - 1
	return len(g.shapes) - 1
}

func prelude(id string) string {
	name := strings.TrimPrefix(id, "smithy.api#")
	name = strings.TrimPrefix(name, "Primitive")
	switch name {
	case "String":
		return "string"
	case "Integer", "Short", "Byte":
		return "integer"
	case "Long", "BigInteger":
		return "long"
	case "Float", "Double", "BigDecimal":
		return "float"
	case "Boolean":
		return "boolean"
	case "Timestamp":
		return "timestamp"
	case "Blob":
		return "blob"
	case "Document":
		return "document"
	}
	return "document"
}

func goType(t string) string {
	switch t {
	case "string":
		return "String"
	case "integer", "short", "byte":
		return "Integer"
	case "long", "bigInteger":
		return "Long"
	case "float", "double", "bigDecimal":
		return "Float"
	case "boolean":
		return "Boolean"
	case "timestamp":
		return "Timestamp"
	case "blob":
		return "Blob"
	case "structure":
		return "Structure"
	case "union":
		return "Union"
	case "list":
		return "List"
	case "map":
		return "Map"
	}
	return "Document"
}

func boundLit(b bound) string {
	if !b.hasMin && !b.hasMax {
		return ""
	}
	var parts []string
	if b.hasMin {
		parts = append(parts, "Min: "+strconv.FormatFloat(b.min, 'g', -1, 64), "HasMin: true")
	}
	if b.hasMax {
		parts = append(parts, "Max: "+strconv.FormatFloat(b.max, 'g', -1, 64), "HasMax: true")
	}
	return "Bound{" + strings.Join(parts, ", ") + "}"
}

func strs(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func local(id string) string {
	_, name, _ := strings.Cut(id, "#")
	return name
}

// writeShapes writes the rows of the table, each type qualified with q
// ("awsmodel." outside package awsmodel).
func (g *gen) writeShapes(w io.Writer, q string) {
	for i, s := range g.shapes {
		fmt.Fprintf(w, "\t\t\t/* %d */ {Type: %s%s", i, q, goType(s.typ))
		if s.structID != "" {
			fmt.Fprintf(w, ", Name: %q", local(s.structID))
		}
		if len(s.members) > 0 {
			io.WriteString(w, ", Members: []"+q+"Member{")
			for j, m := range s.members {
				if j > 0 {
					io.WriteString(w, ", ")
				}
				fmt.Fprintf(w, "{Name: %q, Shape: %d", m.name, m.shape)
				if m.required {
					io.WriteString(w, ", Required: true")
				}
				if m.in != "" {
					fmt.Fprintf(w, ", In: %s%s, Wire: %q", q, m.in, m.wire)
				}
				io.WriteString(w, "}")
			}
			io.WriteString(w, "}")
		}
		if s.typ == "list" || s.typ == "map" {
			fmt.Fprintf(w, ", Elem: %d", s.elem)
		}
		if s.typ == "map" {
			fmt.Fprintf(w, ", Key: %d", s.key)
		}
		if bs := boundLit(s.length); bs != "" {
			fmt.Fprintf(w, ", Length: %s%s", q, bs)
		}
		if bs := boundLit(s.rng); bs != "" {
			fmt.Fprintf(w, ", Range: %s%s", q, bs)
		}
		if len(s.enum) > 0 {
			fmt.Fprintf(w, ", Enum: %s", strs(s.enum))
		}
		if s.pattern != "" {
			fmt.Fprintf(w, ", Pattern: %s", strconv.Quote(s.pattern))
		}
		if s.discriminator != "" {
			fmt.Fprintf(w, ", Discriminator: %q, Variants: []%sVariant{", s.discriminator, q)
			for j, v := range s.variants {
				if j > 0 {
					io.WriteString(w, ", ")
				}
				fmt.Fprintf(w, "{Value: %q, Shape: %d}", v.value, v.shape)
			}
			io.WriteString(w, "}")
		}
		if s.sensitive {
			io.WriteString(w, ", Sensitive: true")
		}
		io.WriteString(w, "},\n")
	}
}
