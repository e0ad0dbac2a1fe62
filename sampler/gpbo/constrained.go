package gpbo

import (
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/sampler"
)

// Factors returns the probability-of-feasibility factors of h's
// acquisition (bo.Feasibility): one per constraint of a constrained study
// (History.Constraints), fitted to the observations' slacks, and the
// classifier of computability when h has failed trials. It returns none,
// and draws nothing from rng, for an unconstrained study without failed
// trials, whose suggestions are then what they were before. A model that
// cannot be fitted is left out with a warning.
func (g *GPBO) Factors(h *sampler.History, rng *rand.Rand) []acq.Penalty {
	factors, err := g.feas.Factors(h, true, rng)
	if err != nil {
		g.Log().Warn("gpbo: a feasibility model could not be fitted; the acquisition goes without it", "trial", h.Trials, "err", err)
	}
	return factors
}

// constrain weights af by the factors in log space (acq.Constrained):
// log EI + Σ log P_j, the constrained EI of Gardner et al. 2014 and
// Gelbart et al. 2014. EI becomes log-EI, which has the same maximiser
// and stays finite where the product underflows (Ament et al. 2023); PI
// is log-PI in gpbo already; a confidence bound, which can be negative,
// enters as the log of its softplus on the model's standardised scale,
// as PLAyBOOK's penalisers make it positive [002 Eq. 4.17]. Without a
// feasible observation there is no incumbent, and the acquisition is the
// probability of feasibility alone (Gardner et al. 2014). With no factor
// af is returned as it is.
func constrain(af acq.Function, model *gp.GP, factors []acq.Penalty, feasible bool) acq.Function {
	if len(factors) == 0 {
		return af
	}
	if !feasible {
		return acq.Constrained{Feasibility: factors}
	}
	c := acq.Constrained{Base: af, Feasibility: factors}
	switch a := af.(type) {
	case acq.EI:
		c.Base = acq.LogEI(a)
	case acq.LCB:
		offset, scale := model.Standardization()
		c.Positivity = acq.Standardised{Positivity: acq.Softplus{}, Offset: offset, Scale: scale}
	}
	return c
}
