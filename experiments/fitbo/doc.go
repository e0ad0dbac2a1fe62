// Package fitbo reproduces the FITBO experiments of thesis 000, Ch. 3
// [000 §3.3; spec gp-and-acquisitions §9]: the acquisition-runtime study
// of §3.3.2 (Tables 3.1–3.2, Fig. 3.3) and the benchmarks of §3.3.3
// (Branin, Eggholder, Hartmann-6 with the output maps of the spec's
// Corrections; IR and ‖L‖₂ of x̂ = argmin μ; EI, PES, MES, FITBO,
// FITBO-MM marginalised over the same ESS samples).
//
// The runtime study is a benchmark (go test -bench Runtime) and a table
// printer over the same cells (BOA_REPRO=1 go test -run TestRuntimeTables
// -v); the benchmarks are TestBenchmarks (BOA_REPRO=1 for the protocol).
// docs/infotheoretic.md holds the tables and the commands.
package fitbo
