package victim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boaopt/boa/attack"
)

// Options set how a victim command runs.
type Options struct {
	Timeout time.Duration // per query; 0: 1 minute. A victim that does not answer in time is killed (its whole process group) and the query fails.
	Dir     string        // working directory ("": the current one)
	Stderr  io.Writer     // the victim's stderr is copied here (nil: discarded, but its end is kept for error messages)
}

const (
	defaultTimeout = time.Minute
	// closeGrace is how long Close lets a victim exit by itself once its
	// stdin is closed, and how long a victim that closed its stdout has to
	// exit before it is killed.
	closeGrace = 2 * time.Second
	// stderrWait bounds the wait for the last of stderr once the victim
	// has exited: a process it left behind may hold the pipe open.
	stderrWait = 500 * time.Millisecond
	// maxLine bounds one line of the victim's stdout. An answer is a few
	// numbers per class; a longer line is a victim printing something else,
	// and must not be buffered without end.
	maxLine = 4 << 20
	// tailBytes of stderr are kept for the error messages.
	tailBytes = 2 << 10
	// quoteLen is how much of a bad line an error quotes.
	quoteLen = 200
)

// Command is a victim run as a long-lived subprocess that speaks the JSON
// lines protocol of the package documentation. It implements
// attack.Victim[T]. Its methods may be called from any goroutine, one at a
// time: a query waits for the one before it.
type Command[T any] struct {
	name    string // the command line, for the errors
	timeout time.Duration
	encode  func(T) any

	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File // read ends, closed by Close
	stderr     *os.File
	replies    chan reply    // the lines of stdout, then its end
	exited     chan struct{} // closed once the process is reaped
	stderrDone chan struct{} // closed once stderr is read to its end
	done       chan struct{} // closed by Close: the reader stops
	tail       tail

	mu       sync.Mutex
	queries  int   // asked so far
	err      error // the fatal error, returned by every later query
	closed   bool
	closeErr error
}

// reply is one line of the victim's stdout, or, last, why there are no more.
type reply struct {
	line []byte
	err  error
}

// StartImage starts the victim argv for image queries.
func StartImage(argv []string, o Options) (*Command[attack.Image], error) {
	return start(argv, o, func(m attack.Image) any { return m.JSON() })
}

// StartGraph starts the victim argv for graph queries.
func StartGraph(argv []string, o Options) (*Command[attack.Graph], error) {
	return start(argv, o, func(g attack.Graph) any { return g.JSON() })
}

func start[T any](argv []string, o Options, encode func(T) any) (*Command[T], error) {
	if len(argv) == 0 {
		return nil, errors.New("victim: no command given")
	}
	c := &Command[T]{
		name:       strings.Join(argv, " "),
		timeout:    o.Timeout,
		encode:     encode,
		replies:    make(chan reply),
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
		done:       make(chan struct{}),
	}
	if c.timeout <= 0 {
		c.timeout = defaultTimeout
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if errors.Is(cmd.Err, exec.ErrNotFound) {
		// The usual mistake (a typo, an interpreter not installed), said
		// before anything else is set up.
		return nil, fmt.Errorf("victim %q: %q is not an executable in PATH", c.name, argv[0])
	}
	cmd.Dir = o.Dir
	inGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	// Our own pipes for stdout and stderr rather than cmd.StdoutPipe: Wait
	// then returns as soon as the victim exits, whatever is still unread,
	// and no process it left behind can make Wait hang by holding them.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, c.errorf("%v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, c.errorf("%v", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		stdin.Close()
		return nil, c.errorf("cannot start it: %v", err)
	}
	c.cmd, c.stdin, c.stdout, c.stderr = cmd, stdin, outR, errR

	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	go c.copyStderr(o.Stderr)
	go c.read()
	return c, nil
}

func (c *Command[T]) errorf(format string, args ...any) error {
	return fmt.Errorf("victim %q: "+format, append([]any{c.name}, args...)...)
}

// read passes the lines of stdout to Scores, one at a time: a line the
// victim writes unasked waits here and answers the next query, as the
// protocol's strict alternation implies.
func (c *Command[T]) read() {
	br := bufio.NewReaderSize(c.stdout, 64<<10)
	send := func(r reply) bool {
		select {
		case c.replies <- r:
			return true
		case <-c.done:
			return false
		}
	}
	for {
		line, err := readLine(br)
		// Blank lines are let through silently: print() of a string that
		// already ends in "\n" is an easy slip and harms nothing.
		if len(bytes.TrimSpace(line)) > 0 && !send(reply{line: line}) {
			return
		}
		if err != nil {
			send(reply{err: err})
			return
		}
	}
}

var errLongLine = fmt.Errorf("wrote a line longer than %d MiB to its stdout", maxLine>>20)

// readLine reads one line of any length up to maxLine, without its "\n";
// a last line without one is returned with the reader's error.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLine {
			return nil, errLongLine
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

func (c *Command[T]) copyStderr(w io.Writer) {
	defer close(c.stderrDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := c.stderr.Read(buf)
		if n > 0 {
			c.tail.Write(buf[:n])
			if w != nil {
				// A failing writer must not stop the draining: a victim
				// blocked on a full stderr pipe would hang.
				w.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// Scores sends x to the victim and returns its scores. An error the victim
// reports for this query fails it alone; a victim that exits, times out or
// breaks the protocol fails it and every later query, with the same error.
func (c *Command[T]) Scores(x T) ([]float64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, c.errorf("already closed")
	}
	if c.err != nil {
		return nil, c.err
	}
	c.queries++
	q := c.queries
	msg, err := json.Marshal(c.encode(x))
	if err != nil {
		// Not the victim's fault, nor fatal: NaN pixels, say.
		return nil, c.errorf("query %d: cannot encode the input: %v", q, err)
	}
	msg = append(msg, '\n')

	// The clock covers the write too: a victim that stops reading blocks it
	// once the pipe is full. The first query's time includes the victim's
	// start-up (loading or training its model).
	expired := make(chan struct{})
	timer := time.AfterFunc(c.timeout, func() { killGroup(c.cmd.Process); close(expired) })
	// The write runs on its own so that the timer, not a full pipe, decides
	// when to give up. A failed write means the victim has exited or closed
	// its stdin; the end of its stdout says which, so it is not reported.
	go c.stdin.Write(msg)
	var r reply
	select {
	case r = <-c.replies:
	case <-expired:
	}
	if !timer.Stop() {
		select { // killed: its exit status and last stderr are coming
		case <-c.exited:
		case <-time.After(closeGrace):
		}
		return nil, c.fail(c.errorf("query %d took longer than %v: killed it%s", q, c.timeout, c.stderrEnd()))
	}
	if r.err != nil {
		return nil, c.fail(c.exitError(q, r.err))
	}
	p, fatal, err := parseReply(r.line)
	if err != nil {
		err = c.errorf("query %d: %v", q, err)
		if fatal {
			return nil, c.fail(err)
		}
		return nil, err
	}
	return p, nil
}

// fail makes err the victim's last word: the process is of no more use, so
// it is stopped now rather than at Close.
func (c *Command[T]) fail(err error) error {
	c.err = err
	killGroup(c.cmd.Process)
	return err
}

// exitError explains the end of stdout before the answer to query q.
func (c *Command[T]) exitError(q int, readErr error) error {
	if readErr == errLongLine {
		return c.errorf("query %d: it %v%s", q, readErr, c.stderrEnd())
	}
	select {
	case <-c.exited:
		return c.errorf("%s before answering query %d%s", how(c.cmd.ProcessState), q, c.stderrEnd())
	case <-time.After(closeGrace):
		killGroup(c.cmd.Process)
		return c.errorf("closed its stdout before answering query %d (killed it)%s", q, c.stderrEnd())
	}
}

// stderrEnd is "; its stderr ends: ..." with the victim's last lines of
// stderr, or nothing when it wrote none. Once the victim has exited it
// waits briefly for the rest of the pipe, where a traceback usually is.
func (c *Command[T]) stderrEnd() string {
	select {
	case <-c.exited:
		select {
		case <-c.stderrDone:
		case <-time.After(stderrWait):
		}
	default:
	}
	if s := c.tail.lines(3); s != "" {
		return "; its stderr ends: " + s
	}
	return ""
}

// parseReply reads {"scores": [...]} or {"error": "..."}. fatal is set
// when the line is neither, since then the stream can no longer be trusted
// to pair answers with queries.
func parseReply(line []byte) (p []float64, fatal bool, err error) {
	// Scores are decoded as they came, so that a string is told from a
	// number and a number beyond float64 from one within it.
	var r struct {
		Scores []any           `json:"scores"`
		Error  json.RawMessage `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil || dec.More() || (r.Scores == nil && r.Error == nil) {
		hint := ""
		if bytes.Contains(line, []byte("NaN")) || bytes.Contains(line, []byte("Infinity")) {
			hint = " (NaN and Infinity are not JSON; scores must be finite)"
		}
		return nil, true, fmt.Errorf(`answered %s, not {"scores": [...]} or {"error": "..."}%s`, quote(line), hint)
	}
	if r.Error != nil && string(r.Error) != "null" {
		var s string
		if json.Unmarshal(r.Error, &s) != nil {
			s = string(r.Error) // not a string: the JSON as it came
		}
		return nil, false, fmt.Errorf("it failed: %s", quote([]byte(s)))
	}
	if len(r.Scores) == 0 {
		return nil, false, errors.New("it answered no scores")
	}
	p = make([]float64, len(r.Scores))
	for i, s := range r.Scores {
		n, ok := s.(json.Number)
		if !ok {
			return nil, true, fmt.Errorf(`answered %s: score %d is not a number`, quote(line), i)
		}
		v, err := n.Float64()
		if err != nil || math.IsInf(v, 0) {
			return nil, false, fmt.Errorf("score %d, %s, is not a finite number", i, n)
		}
		p[i] = v
	}
	return p, false, nil
}

// quote quotes s for an error, cut to quoteLen bytes on a character.
func quote(s []byte) string {
	if len(s) <= quoteLen {
		return strconv.Quote(string(s))
	}
	n := quoteLen
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(string(s[:n])) + "…"
}

// Close ends the victim: it closes its stdin, which tells a victim that
// follows the protocol to exit, gives it closeGrace to do so, and then
// kills its process group. The error is that of a victim that exited by
// itself with a failing status, when no query had failed already. Later
// calls return the same error.
func (c *Command[T]) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return c.closeErr
	}
	c.closed = true
	c.stdin.Close()
	select {
	case <-c.exited:
		if ps := c.cmd.ProcessState; c.err == nil && !ps.Success() {
			c.closeErr = c.errorf("%s after its stdin was closed%s", how(ps), c.stderrEnd())
		}
	case <-time.After(closeGrace):
	}
	// Also what a victim that exited left in its group.
	killGroup(c.cmd.Process)
	<-c.exited
	close(c.done)
	// A process outside the group (one that called setsid) may still hold
	// the pipes; closing our ends frees the reading goroutines all the same.
	select {
	case <-c.stderrDone:
	case <-time.After(stderrWait):
	}
	c.stdout.Close()
	c.stderr.Close()
	return c.closeErr
}

// tail keeps the last tailBytes of the victim's stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
}

// lines returns the last n non-blank lines joined on one line, so that an
// error stays one line, with what a terminal would act on (escapes, binary
// bytes) made printable. A Python traceback ends with its message, which is
// what the last lines show.
func (t *tail) lines(n int) string {
	t.mu.Lock()
	s := string(t.buf)
	full := len(t.buf) == tailBytes
	t.mu.Unlock()
	all := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	if full && len(all) > 0 {
		all = all[1:] // the first line is a cut one
	}
	var keep []string
	for i := len(all) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(all[i]); l != "" {
			keep = append(keep, printable(l))
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return strings.Join(keep, " | ")
}

func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != '\t' {
			return '?'
		}
		return r
	}, s)
}
