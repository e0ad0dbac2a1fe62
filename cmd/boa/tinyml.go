package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/boaopt/boa/tinyml"
	"github.com/spf13/cobra"
)

func tinymlCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tinyml",
		Short: "Check that a network fits a microcontroller (AutoTinyML, docs/tinyml.md)",
	}
	cmd.AddCommand(tinymlCheckCmd())
	return cmd
}

func tinymlCheckCmd() *cobra.Command {
	var (
		board, boardsFile string
		compression       int
		xcross            float64
		asJSON            bool
	)
	cmd := &cobra.Command{
		Use:   "check MODEL.json",
		Short: "Print a network's parameters, ROM, RAM, MACC and whether it is deployable",
		Long: `Print what STM32Cube.AI would report for a network (the analytic model of
Perego's PhD thesis, 2020, §6.2.2; docs/tinyml.md): parameters, ROM (the
weights at compression ×1, ×4 or ×8), RAM (the activations buffer),
MACC and an X-CROSS estimate, and for each board whether the network is
deployable: RAM, ROM and X-CROSS within the board's limits. Sizes are
bytes and kB of 1000 bytes, as the thesis's tables.

MODEL.json is a Keras-like description (docs/tinyml.md):
  {"input": [90, 3, 1], "layers": [
    {"type": "conv2d", "filters": 128, "kernel": 2, "padding": "valid", "activation": "relu"},
    {"type": "maxpool2d", "pool": 2}, {"type": "dropout", "rate": 0.2}, {"type": "flatten"},
    {"type": "dense", "units": 128, "activation": "relu"},
    {"type": "dense", "units": 6, "activation": "softmax"}]}

Built-in boards: stm32l476 (the thesis's Big Board, alias big) and
stm32f303 (the Tiny Board, alias tiny); --boards FILE adds your own
(a YAML list of name, mcu, ram_bytes, rom_bytes, min_xcross).`,
		Example: "  boa tinyml check examples/tinyml/har-baseline.json --compression 4\n  boa tinyml check model.json --board tiny --compression 8 --xcross 98.04",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			net, err := tinyml.ParseNetwork(data)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			var extra []tinyml.Board
			if boardsFile != "" {
				b, err := os.ReadFile(boardsFile)
				if err != nil {
					return err
				}
				if extra, err = tinyml.ParseBoards(b); err != nil {
					return fmt.Errorf("%s: %w", boardsFile, err)
				}
			}
			boards := append(extra, tinyml.Boards...)
			if board != "" {
				b, err := tinyml.Lookup(board, extra)
				if err != nil {
					return err
				}
				boards = []tinyml.Board{b}
			}
			r, err := tinyml.Analyze(net, compression)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			measured := cmd.Flags().Changed("xcross")
			if !measured {
				xcross = r.XCross
			}
			verdicts := make([]tinyml.Verdict, len(boards))
			for i, b := range boards {
				verdicts[i] = b.CheckXCross(r, xcross)
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{"report": r, "xcross": xcross, "verdicts": verdicts})
			}
			printTinyML(cmd.OutOrStdout(), r, xcross, measured, verdicts)
			return nil
		},
	}
	cmd.Flags().StringVar(&board, "board", "", "check against this board only (default: every board)")
	cmd.Flags().StringVar(&boardsFile, "boards", "", "a YAML file of your own boards")
	cmd.Flags().IntVar(&compression, "compression", 1, "weight compression of the dense layers: 1, 4 or 8")
	cmd.Flags().Float64Var(&xcross, "xcross", 0, "a measured X-CROSS accuracy, % (default: the analytic estimate)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report and verdicts as JSON")
	return cmd
}

func printTinyML(w io.Writer, r tinyml.Report, xcross float64, measured bool, verdicts []tinyml.Verdict) {
	kb := func(b int) string { return fmt.Sprintf("%d B (%.2f kB)", b, float64(b)/1000) }
	source := "analytic estimate"
	if measured {
		source = "given"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "params\t%d\n", r.Params)
	fmt.Fprintf(tw, "ROM (×%d)\t%s\n", r.Compression, kb(r.ROM))
	fmt.Fprintf(tw, "RAM\t%s (activations, RAM model %s)\n", kb(r.RAM), tinyml.RAMModel)
	fmt.Fprintf(tw, "MACC\t%d\n", r.MACC)
	fmt.Fprintf(tw, "X-CROSS\t%.2f %% (%s)\n", xcross, source)
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOARD\tRAM\tROM\tX-CROSS\tDEPLOYABLE")
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	for _, v := range verdicts {
		b := v.Board
		fmt.Fprintf(tw, "%s (%s)\t%s ≤ %.2f kB\t%s ≤ %.2f kB\t%s ≥ %g %%\t%s\n", b.Name, b.MCU,
			yes(v.RAMOK), float64(b.RAMLimit)/1000, yes(v.ROMOK), float64(b.ROMLimit)/1000, yes(v.XCrossOK), b.MinXCross, yes(v.Deployable))
	}
	tw.Flush()
}
