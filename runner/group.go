package runner

import (
	"fmt"
	"strconv"
)

// Group is a run of a command's arguments, Args[From:To], that is left out
// as a whole when an optional placeholder {name?} in it has no value (its
// parameter is inactive in the trial): a flag and its value, as in
// [--degree, "{degree?}"] in a study file, where a lone "{degree?}" would
// leave --degree without its value. A single argument with an inactive
// {name?} is left out by itself, group or none (--degree={degree?}).
type Group struct{ From, To int }

// checkGroups checks that the groups are in order, disjoint, not empty,
// within Args, and leave the program (Args[0]) out.
func (c Command) checkGroups() error {
	prev := 1
	for i, g := range c.Groups {
		switch {
		case g.From < 1:
			return fmt.Errorf("group %d (command[%d:%d]): the program, command[0], cannot be in a group, which may be dropped", i, g.From, g.To)
		case g.To <= g.From:
			return fmt.Errorf("group %d (command[%d:%d]) is empty", i, g.From, g.To)
		case g.To > len(c.Args):
			return fmt.Errorf("group %d (command[%d:%d]) reaches past the %d arguments", i, g.From, g.To, len(c.Args))
		case g.From < prev:
			return fmt.Errorf("group %d (command[%d:%d]) overlaps or precedes the group before it: groups are disjoint and in order", i, g.From, g.To)
		}
		prev = g.To
	}
	return nil
}

// groupAt is the group that starts at argument i, if any.
func (c Command) groupAt(i int) (Group, bool) {
	for _, g := range c.Groups {
		if g.From == i {
			return g, true
		}
	}
	return Group{}, false
}

// ref names argument i as the study file writes it, where a group is one
// item of the command, a list: command[4], or command[4][1] for the second
// argument of the group that is the command's fifth item.
func (c Command) ref(i int) string {
	k, j, grouped := c.item(i)
	if grouped {
		return "command[" + strconv.Itoa(k) + "][" + strconv.Itoa(j) + "]"
	}
	return "command[" + strconv.Itoa(k) + "]"
}

// item is the position of argument i in the study file's command: item k,
// and within it j when the item is a group.
func (c Command) item(i int) (k, j int, grouped bool) {
	k = i // less the arguments of the groups before i, past their first
	for _, g := range c.Groups {
		switch {
		case g.To <= i:
			k -= g.To - g.From - 1
		case g.From <= i:
			return k - (i - g.From), i - g.From, true
		}
	}
	return k, 0, false
}
