package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/boaopt/boa/storage"
)

func deleteCmd() *cobra.Command {
	var (
		url string
		yes bool
	)
	cmd := &cobra.Command{
		Use:   "delete STUDY [--yes]",
		Short: "Delete a study and all its trials",
		Long: `Delete a study and all its trials, their reports and metrics, and its
sampler state, from the storage (--storage, else $BOA_STORAGE, else
sqlite:boa.db). The name can then be used for a new study.

It asks "Delete study NAME with N trials? [y/N]" first. --yes deletes
without asking, and is needed when stdin is not a terminal (a script, a
pipe), where nobody could answer. Trial logs on disk are left alone.`,
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return deleteStudy(cmd.Context(), url, args[0], yes, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}

func deleteStudy(ctx context.Context, url, name string, yes bool, in io.Reader, out io.Writer) error {
	if !yes && !interactive(in) {
		return fmt.Errorf("delete %s: stdin is not a terminal, so nobody can confirm: pass --yes to delete without asking", name)
	}
	store, err := openToWrite(ctx, url)
	if err != nil {
		return err
	}
	defer store.Close()
	rec, err := store.GetStudy(ctx, name)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%w (storage %s; %s)", err, storage.Redact(url), otherStudies(ctx, store, name))
	}
	if err != nil {
		return err
	}
	trials, err := store.TrialsWithoutReports(ctx, rec.ID)
	if err != nil {
		return err
	}
	if !yes {
		fmt.Fprintf(out, "Delete study %s with %d trials? [y/N] ", name, len(trials))
		answer, _ := bufio.NewReader(in).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(out, "not deleted")
			return nil
		}
	}
	if err := store.DeleteStudy(ctx, name); err != nil {
		return err
	}
	fmt.Fprintf(out, "deleted study %s with %d trials\n", name, len(trials))
	return nil
}

// interactive reports whether in is a person's terminal. A reader that is
// no file (cmd.SetIn, as the tests give) counts as one: what it holds is
// the answer.
func interactive(in io.Reader) bool {
	f, ok := in.(*os.File)
	return !ok || term.IsTerminal(int(f.Fd()))
}

// openToWrite opens the storage of a command that changes a study but
// never creates one (delete, enqueue): an SQLite file that does not exist
// is an error, as for the inspection commands, rather than a new empty
// database in which the study is then not found.
func openToWrite(ctx context.Context, url string) (storage.Storage, error) {
	if err := sqliteExists(url); err != nil {
		return nil, err
	}
	return storage.Open(ctx, url)
}
