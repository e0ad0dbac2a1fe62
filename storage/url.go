package storage

import "net/url"

// Redact hides the password of a storage URL, given before the host or
// as a password parameter, for logs and messages (errors end up in CI
// logs).
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	q := u.Query()
	if !q.Has("password") && u.User == nil {
		return s
	}
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
