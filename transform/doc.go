// Package transform maps a study's objective values to the targets its
// surrogate is fitted to [gp spec §1.3].
//
// The GP standardises its targets in any case (package gp). A transform
// goes first, when the values are ill-suited to a stationary GP as they
// are:
//
//	None    the values as they are
//	Log     log y, for values > 0 that span orders of magnitude (errors,
//	        losses, run times; NAS-BOWL fits −log of the error [003 App. D])
//	Copula  Φ⁻¹(r/(n+1)) of each value's rank r among the n values: only
//	        their order is kept, so neither an outlier nor a heavy tail
//	        squeezes the good values together (CASMOPOLITAN's targets
//	        [mixed spec §5.6; reference code: xingchenwan/Casmopolitan])
//
// A study applies its transform to the values in the user's sense, before
// the sign of a maximised objective is turned; the incumbent of an
// acquisition is then on the transformed scale too, as §1.3 requires.
package transform
