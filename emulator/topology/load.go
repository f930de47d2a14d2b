package topology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxFileBytes bounds a topology file; real ones are a few kilobytes.
const maxFileBytes = 4 << 20

// Load reads and validates the topology file at path, JSON or YAML.
// Problems are reported as an *InvalidFileError naming path, line and field.
func Load(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("topology file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("topology file %s: %w", path, err)
	}
	if len(data) > maxFileBytes {
		return nil, &InvalidFileError{Problems: []Problem{{File: path, Message: fmt.Sprintf("is larger than %d bytes", maxFileBytes)}}}
	}
	return Parse(path, data)
}

// Parse validates a topology file's contents; name is how messages call the
// file. JSON is read as what it is, a subset of YAML, after a JSON syntax
// check so that a JSON file's syntax errors read as JSON's.
func Parse(name string, data []byte) (*File, error) {
	// Editors on Windows may start a file with a byte-order mark, which
	// YAML ignores and JSON's parser refuses.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	d := &decoder{problems: problems{file: name}}
	root := d.parse(data)
	if root == nil {
		return nil, d.err()
	}
	f := d.topLevel(root, name)
	if err := d.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// parse returns the file's top node, or nil after a problem.
func (d *decoder) parse(data []byte) *yaml.Node {
	if looksLikeJSON(d.file, data) {
		if line, msg := jsonSyntax(data); msg != "" {
			d.add(line, "", "JSON syntax error: %s", msg)
			return nil
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			d.add(0, "", "is empty; declare eventgrid and/or eventbridge resources")
		} else {
			line, msg := yamlSyntax(err)
			d.add(line, "", "YAML syntax error: %s", msg)
		}
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		d.add(next.Line, "", "holds more than one YAML document (---); put everything in one")
		return nil
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		d.add(0, "", "is empty; declare eventgrid and/or eventbridge resources")
		return nil
	}
	return doc.Content[0]
}

func looksLikeJSON(name string, data []byte) bool {
	return strings.HasSuffix(strings.ToLower(name), ".json") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
}

// jsonSyntax returns the line and message of a JSON syntax error, or "".
func jsonSyntax(data []byte) (int, string) {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return 0, ""
	case errors.As(err, &se):
		return 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")), se.Error()
	}
	return 0, err.Error()
}

// yamlSyntax splits "yaml: line 3: did not find expected key" into its
// line and message.
func yamlSyntax(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := regexp.MustCompile(`^line (\d+): (.*)$`).FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, msg
}

// topLevel reads the top level.
func (d *decoder) topLevel(root *yaml.Node, name string) *File {
	top, ok := d.readObject(root, "", root.Line, []string{"eventgrid", "eventbridge"}, false)
	if !ok {
		return nil
	}
	if root.Kind == yaml.MappingNode && len(root.Content) == 0 {
		d.add(root.Line, "", "declares nothing; expected eventgrid and/or eventbridge")
	}
	return &File{Name: name, EventGrid: d.eventGrid(top), EventBridge: d.eventBridge(top)}
}
