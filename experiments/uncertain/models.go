package uncertain

import model "github.com/boaopt/boa/uncertain"

// Factories builds each model by its constructor in package uncertain;
// Config carries the restarts (10 in the chapter) and the restart stream.
var Factories = map[string]Factory{
	"rbf":       func(c model.Config) model.Model { return model.NewRBF(c) },
	"rq":        func(c model.Config) model.Model { return model.NewRQ(c) },
	"analytic":  func(c model.Config) model.Model { return model.NewAnalytic(c) },
	"nigp":      func(c model.Config) model.Model { return model.NewNIGP(c) },
	"randfunc":  func(c model.Config) model.Model { return model.NewRandFunc(c) },
	"utgp":      func(c model.Config) model.Model { return model.NewUTGP(c) },
	"utgp-full": func(c model.Config) model.Model { return model.NewFullUTGP(c) },
}
