package main

import "github.com/spf13/cobra"

func rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "boa",
		Short:         "Bayesian optimisation for AutoML",
		Long:          "boa tunes hyper-parameters, searches architectures and finds deployable models\nwith as few expensive evaluations as possible (GP-based Bayesian optimisation).",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.AddCommand(runCmd(), studiesCmd(), trialsCmd(), bestCmd(), exportCmd(), motifsCmd(), benchCmd())
	root.AddCommand(serveCmd(), dashboardCmd())
	root.AddCommand(workerCmd())
	root.AddCommand(studyReportCmd())
	root.AddCommand(tinymlCmd(), attackCmd())
	root.AddCommand(deleteCmd(), enqueueCmd(), validateCmd())
	return root
}
