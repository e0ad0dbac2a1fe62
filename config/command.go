package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/runner"
)

// Command is an objective's command as a study file writes it: the
// program and its arguments, each item a string or a group, a list of
// strings, that is left out as a whole in a trial where an optional
// placeholder {x?} in it has no value (x is an inactive conditional
// parameter):
//
//	command: [python3, train.py, --kernel, "{kernel}", [--degree, "{degree?}"]]
//
// A lone "{degree?}" would leave --degree without its value; a single
// argument "--degree={degree?}" is left out by itself. A group of one is
// that argument.
type Command []Arg

// Arg is one item of a Command: one argument, or a group of them.
type Arg []string

// Runner is the command as package runner takes it: the arguments in one
// list, the groups as runs of it.
func (c Command) Runner() runner.Command {
	var rc runner.Command
	for _, a := range c {
		if len(a) > 1 {
			rc.Groups = append(rc.Groups, runner.Group{From: len(rc.Args), To: len(rc.Args) + len(a)})
		}
		rc.Args = append(rc.Args, a...)
	}
	return rc
}

// errArg is what an item of a command must be.
var errArg = errors.New("each item of objective.command is an argument (a string) or a group of arguments (a list of strings, such as [--degree, \"{degree?}\"])")

func (a *Arg) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return errArg
		}
		*a = Arg{n.Value}
		return nil
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return fmt.Errorf("line %d: an empty group in objective.command", n.Line)
		}
		out := make(Arg, len(n.Content))
		for i, c := range n.Content {
			if c.Kind != yaml.ScalarNode || c.ShortTag() == "!!null" {
				return fmt.Errorf("line %d: %w; groups do not nest", c.Line, errArg)
			}
			out[i] = c.Value
		}
		*a = out
		return nil
	}
	return errArg
}

func (a Arg) MarshalYAML() (any, error) {
	if len(a) == 1 {
		return a[0], nil
	}
	return []string(a), nil
}

func (a *Arg) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = Arg{s}
		return nil
	}
	var g []string
	if err := json.Unmarshal(b, &g); err != nil || g == nil {
		return errArg
	}
	if len(g) == 0 {
		return errors.New("an empty group in objective.command")
	}
	*a = g
	return nil
}

func (a Arg) MarshalJSON() ([]byte, error) {
	if len(a) == 1 {
		return json.Marshal(a[0])
	}
	return json.Marshal([]string(a))
}
