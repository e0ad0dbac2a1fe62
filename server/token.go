package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinTokenLength is the fewest characters CheckToken accepts: 16 random
// hex digits are 64 bits, beyond guessing through an HTTP endpoint.
const MinTokenLength = 16

// CheckToken says why token (Options.Token, from --token or BOA_TOKEN)
// should not guard a server, or returns nil; an empty token is no token
// and is judged elsewhere (only loopback may go without one). `boa serve`
// and `boa dashboard` call it at start-up, so that a weak token fails
// there rather than protect nothing: a short one can be guessed, and one
// with whitespace (a trailing newline from `cat token.txt`, a space
// pasted in) either cannot be sent in an Authorization header, which
// trims it, or is not the token the user believes they set. The message
// never repeats the token, which ends up in logs.
func CheckToken(token string) error {
	const how = "make one with `openssl rand -hex 16` (or `python3 -c 'import secrets; print(secrets.token_hex(16))'`)"
	if token == "" {
		return nil
	}
	if i := strings.IndexFunc(token, unicode.IsSpace); i >= 0 {
		where := fmt.Sprintf("at character %d", utf8.RuneCountInString(token[:i])+1)
		if strings.TrimSpace(token) != token && strings.TrimSpace(token) != "" && !strings.ContainsFunc(strings.TrimSpace(token), unicode.IsSpace) {
			where = "at its start or end (a newline from the file it was read from?)"
		}
		return fmt.Errorf("the token (--token or BOA_TOKEN) contains whitespace %s, which an Authorization header cannot carry intact; %s", where, how)
	}
	if n := utf8.RuneCountInString(token); n < MinTokenLength {
		return fmt.Errorf("the token (--token or BOA_TOKEN) has %d characters; at least %d random ones are needed so that it cannot be guessed; %s",
			n, MinTokenLength, how)
	}
	return nil
}
