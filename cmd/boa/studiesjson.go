package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

// printStudiesJSON is boa studies --json: the summaries of the HTTP API,
// indented as boa export indents its JSON.
func printStudiesJSON(ctx context.Context, w io.Writer, store storage.Storage) error {
	v, err := server.Studies(ctx, store)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
