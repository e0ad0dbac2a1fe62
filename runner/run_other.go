//go:build !linux

package runner

import (
	"context"
	"errors"
)

func execute(context.Context, Command, []string, []string, *logFile, *logFile, *parser, *tail, *Result) error {
	return errors.New("subprocess objectives need Linux")
}
