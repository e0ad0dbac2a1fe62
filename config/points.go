package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"
)

// LoadPoints reads a file of configurations to queue (boa enqueue --file):
// a YAML list of mappings from parameter name to value, one item such as
// "- {lr: 0.01, layers: 2, act: relu}" per configuration, or the same as
// a JSON array of objects, which is YAML too. One list rather than a
// document or a JSON line per configuration, so that a file has one form
// whatever wrote it, and its errors a line. Values are checked against a
// study's space by the caller.
func LoadPoints(path string) ([]map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	points, err := parsePoints(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return points, nil
}

const pointsForm = "want a list of configurations such as\n  - {x: 0.5, kernel: rbf}\n  - {x: 0.25, kernel: poly}"

func parsePoints(data []byte) ([]map[string]any, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty: " + pointsForm)
		}
		return nil, err
	}
	var second yaml.Node
	if dec.Decode(&second) == nil {
		line := second.Line
		if len(second.Content) > 0 {
			line = second.Content[0].Line // as ParseYAML: the document's first line, not its ---
		}
		return nil, fmt.Errorf("line %d: a second YAML document: put every configuration in one list", line)
	}
	list := &doc
	if list.Kind == yaml.DocumentNode && len(list.Content) == 1 {
		list = list.Content[0]
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: %s", list.Line, pointsForm)
	}
	if len(list.Content) == 0 {
		return nil, fmt.Errorf("line %d: the list is empty: %s", list.Line, pointsForm)
	}
	out := make([]map[string]any, len(list.Content))
	for i, n := range list.Content {
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: configuration %d: want a mapping from parameter name to value, such as {x: 0.5}", n.Line, i+1)
		}
		if err := n.Decode(&out[i]); err != nil {
			return nil, fmt.Errorf("line %d: configuration %d: %w", n.Line, i+1, err)
		}
	}
	return out, nil
}
