// Package configtest holds the study files config refuses, with what each
// error must say: config's tests check ParseYAML on them, and boa
// validate's check that it prints the same errors as boa run.
package configtest

// BadFile is a study file config refuses, and what its error mentions.
type BadFile struct {
	Name, Doc string
	Want      []string
}

// BadFiles returns the study files config refuses.
func BadFiles() []BadFile {
	space := "space:\n  x: {type: float, low: 0, high: 1}\n"
	conditional := "space:\n  kernel: {type: categorical, choices: [rbf, poly]}\n  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}\n  x: {type: float, low: 0, high: 1}\n"
	return []BadFile{
		{"empty", "", []string{"empty"}},
		{"not yaml", "name: [unclosed\n", []string{"line"}},
		{"unknown field", "name: a\nsampelr: gpbo\n" + space, []string{"line 2: sampelr: unknown field", "sampler"}},
		{"no name", space, []string{"name"}},
		{"bad direction", "name: a\ndirection: up\n" + space, []string{"direction", "up"}},
		{"negative trials", "name: a\ntrials: -3\n" + space, []string{"line 2: trials", "-3"}},
		{"bad transform", "name: a\ntransform: sqrt\n" + space, []string{"transform", "sqrt", "log, copula"}},
		{"trials not int", "name: a\ntrials: many\n" + space, []string{"line 2: trials: want an integer", "many"}},
		{"trials not whole", "name: a\ntrials: 2.5\n" + space, []string{`line 2: trials: want an integer, got "2.5"`}},
		{"workers not whole", "name: a\nworkers: 1.9\n" + space, []string{`line 2: workers: want an integer, got "1.9"`}},
		{"seed not whole", "name: a\nseed: 1.7\n" + space, []string{`line 2: seed: want an integer from 0, got "1.7"`}},
		// Just out of range, the YAML decoder gave a wrong value without an
		// error: trials −9223372036854775808, seed 9223372036854775808.
		{"trials 2^63", "name: a\ntrials: 9.2233720368547758e18\n" + space, []string{`line 2: trials: want an integer, got "9.2233720368547758e18"`}},
		{"seed 2^64", "name: a\nseed: 1.8446744073709552e19\n" + space, []string{`line 2: seed: want an integer from 0, got "1.8446744073709552e19"`}},
		{"two documents", "name: a\n" + space + "---\nname: b\n" + space, []string{"line 5: a second YAML document"}},
		{"no space", "name: a\n", []string{"space"}},
		{"low >= high", "name: a\nspace:\n  x: {type: float, low: 2, high: 1}\n", []string{"space.x", "line 3", "low"}},
		{"log through 0", "name: a\nspace:\n  x: {type: float, low: 0, high: 1, log: true}\n", []string{"space.x", "log"}},
		{"both objectives", "name: a\n" + space + "objective: {command: [x], function: branin}\n", []string{"objective", "not both"}},
		{"no objective", "name: a\n" + space + "objective: {timeout: 1m}\n", []string{"objective", "command"}},
		{"bad timeout", "name: a\n" + space + "objective: {command: [x], timeout: soon}\n", []string{"line 4: objective.timeout", "soon"}},
		{"slash in name", "name: a/b\n" + space, []string{"name", "slash"}},
		{"unknown sampler", "name: a\nsampler: cocaboo\n" + space, []string{"sampler", "cocaboo", "(known: ", " auto, ", " cocabo, "}},
		{"every problem at once", "name: a\nsampler: cocaboo\ntransform: lg\ntrials: -3\n" + space, []string{"sampler", "cocaboo", "transform", "lg", "trials", "-3"}},
		{"unknown placeholder", "name: a\n" + space + "objective: {command: [echo, \"{y}\"]}\n", []string{"line 4: objective.command", "unknown parameter {y}", "known: x"}},
		{"conditional placeholder", "name: a\n" + conditional + "objective: {command: [echo, \"{degree}\"]}\n", []string{"line 6: objective.command", "{degree} is a conditional parameter", "write {degree?}", "BOA_PARAMS"}},
		{"optional placeholder unknown", "name: a\n" + space + "objective: {command: [echo, \"{y?}\"]}\n", []string{"line 4: objective.command", "unknown parameter {y}"}},
		{"nested group", "name: a\n" + space + "objective:\n  command:\n    - echo\n    - [--x, [\"{x?}\"]]\n", []string{"line 7: objective.command: groups do not nest"}},
		{"empty group", "name: a\n" + space + "objective: {command: [echo, []]}\n", []string{"line 4: objective.command: an empty group"}},
		{"mapping in command", "name: a\n" + space + "objective: {command: [echo, {a: b}]}\n", []string{"line 4: objective.command: want an argument (a string) or a group", "got a mapping"}},
		{"group without optional placeholder", "name: a\n" + space + "objective: {command: [echo, [--x, \"{x}\"]]}\n", []string{"line 4: objective.command: command[1]: the group", "has no optional placeholder"}},
		{"conditional placeholder in a group", "name: a\n" + conditional + "objective: {command: [echo, [--degree, \"{degree}\", \"{kernel?}\"]]}\n", []string{`command[1][1] "{degree}": {degree} is a conditional parameter`}},
		{"env name with =", "name: a\n" + space + "objective:\n  command: [echo]\n  env: {\"A=B\": x}\n", []string{`line 6: objective.env: variable name "A=B" contains '='`}},
		{"env value a list", "name: a\n" + space + "objective:\n  command: [echo]\n  env:\n    A: 1\n    B: [x]\n", []string{`line 8: objective.env: B: want a value such as "1", got a list`}},
		{"unknown objective field", "name: a\n" + space + "objective:\n  comand: [echo]\n", []string{"line 5: objective.comand: unknown field", "command, function"}},
		{"command not a list", "name: a\n" + space + "objective: {command: python3 train.py}\n", []string{"line 4: objective.command", "want a list", `"python3 train.py"`}},
		{"field given twice", "name: a\nname: b\n" + space, []string{"line 2: name: given twice (lines 1 and 2)"}},
		{"not a mapping", "- name: a\n", []string{"line 1", "mapping", "got a list"}},
		{"comments only", "# nothing yet\n", []string{"empty"}},
		{"constraint min > max", "name: a\nconstraints:\n  acc: {min: 0.9, max: 0.5}\n" + space, []string{"line 3: constraints.acc: min 0.9 is greater than max 0.5"}},
		{"constraint not a number", "name: a\nconstraints:\n  ram_kb: {max: lots}\n" + space, []string{`line 3: constraints.ram_kb.max: want a number, got "lots"`}},
		{"constraint unknown key", "name: a\nconstraints:\n  ram_kb: {maximum: 3}\n" + space, []string{"line 3: constraints.ram_kb.maximum: unknown field; the fields are min, max"}},
		{"constraint no bound", "name: a\nconstraints:\n  ram_kb: {}\n" + space, []string{"line 3: constraints.ram_kb: give min, max or both"}},
		{"constraint not a limit", "name: a\nconstraints:\n  ram_kb: 256\n" + space, []string{`line 3: constraints.ram_kb: want a limit such as {max: 256}`, `got "256"`}},
		{"constraint infinite", "name: a\nconstraints:\n  ram_kb: {max: .inf}\n" + space, []string{"line 3: constraints.ram_kb: the limits must be finite numbers"}},
		{"constraint given twice", "name: a\nconstraints:\n  ram_kb: {max: 1}\n  ram_kb: {max: 2}\n" + space, []string{"line 4: constraints.ram_kb: given twice (lines 3 and 4)"}},
		{"constraints empty", "name: a\nconstraints: {}\n" + space, []string{"line 2: constraints: empty", "leave constraints out"}},
		{"constraints a list", "name: a\nconstraints: [ram_kb]\n" + space, []string{"line 2: constraints: want a mapping of limits such as {ram_kb: {max: 256}"}},
		{"constraint name with a space", "name: a\nconstraints:\n  ram kb: {max: 1}\n" + space, []string{`line 3: constraints.ram kb: "ram kb" is not a metric name a trial can report`}},
		// A built-in function reports what problems.Metrics says: a limit
		// on anything else could never hold.
		{"constraint on a metric the function does not report", "name: a\nconstraints:\n  ram_kb: {max: 1}\nspace:\n  x: {type: float, low: 0, high: 1}\n  y: {type: float, low: 0, high: 1}\nobjective: {function: branin}\n",
			[]string{"line 3: constraints.ram_kb: the built-in function branin does not report ram_kb, so the limit could never hold; it reports no metrics"}},
		{"conditional space for cocabo", "name: a\nsampler: cocabo\n" + conditional, []string{"sampler", "cocabo", `"degree" is conditional`}},
		{"conditional space for casmopolitan", "name: a\nsampler: casmopolitan\n" + conditional, []string{"sampler", "casmopolitan", `"degree" is conditional`}},
	}
}
