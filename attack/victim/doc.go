// Package victim runs the classifier under attack as a subprocess: the
// user's own model, in any language, behind the black-box setting of seed
// 000 ch. 6, where the attacker may only query the victim with an input and
// read its scores on every class, and knows nothing of its architecture,
// weights, gradients or training data [000 §6.3.1, §6.6.1].
//
// The command is started once, by StartImage or StartGraph, and answers
// one query after another over pipes, one JSON line each way. For each
// query boa writes the input as one line to the victim's stdin,
//
//	{"shape": [H, W, C], "pixels": [...]}    an image, H·W·C values in [0, 1], channels last
//	{"nodes": N, "edges": [[u, v], ...]}     a graph on the nodes 0..N−1, u < v
//
// and reads one line from its stdout:
//
//	{"scores": [p_0, p_1, ...]}    one finite number per class, the same count every time
//	{"error": "message"}           this input could not be scored
//
// Anything the victim wants to say goes to its stderr, which boa copies
// (Options.Stderr) and quotes when the victim fails. stdout is the
// protocol's alone, and each line must be flushed. When boa is done it
// closes the victim's stdin; the victim should then exit. A victim in
// Python:
//
//	import json, sys
//	model = load_model()                  # once, before the first query
//	for line in sys.stdin:
//	    q = json.loads(line)
//	    x = np.array(q["pixels"]).reshape(q["shape"])
//	    p = model.predict_proba(x.reshape(1, -1))[0]
//	    print(json.dumps({"scores": p.tolist()}), flush=True)
//
// examples/attack/victim.py is a complete one, a scikit-learn network on the
// 8×8 digits.
//
// Errors. A query fails alone, and the next one is asked as usual, when
// the victim answers {"error": ...} (the error quotes its message) or
// answers scores that are not finite or none at all. Every other failure
// is fatal: the victim exits or closes its stdout before answering (the
// error gives its exit status and the last lines of its stderr), it does
// not answer within Options.Timeout (its process group is killed; the
// first query's time includes the victim's start-up), or it answers a line
// that is not one of the two replies (the error quotes it, cut to 200
// bytes). After a fatal error the process is stopped and every later query
// returns the same error at once, so an attack ends with what it has.
//
// The process is the leader of a process group of its own, and killing it
// kills the group, so a victim behind a shell script or with worker
// processes leaves nothing running. Close closes stdin, waits two seconds
// for the victim to exit and then kills the group.
package victim
