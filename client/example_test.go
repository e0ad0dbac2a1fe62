package client_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

// A worker's loop: ask for a trial, evaluate it, tell the result, until
// the study's budget is used up.
func Example() {
	srv := httptest.NewServer(server.New(storage.NewMemory(), server.Options{Token: "s3cret"}))
	defer srv.Close()
	ctx := context.Background()
	c := client.New(srv.URL, "s3cret")

	_, err := c.CreateStudy(ctx, map[string]any{
		"name": "quad", "sampler": "random", "trials": 3,
		"space": map[string]any{"n": map[string]any{"type": "ordinal", "values": []int{2}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		b, err := c.Ask(ctx, "quad", 1, "example-worker")
		if err != nil {
			fmt.Println(err)
			return
		}
		if len(b.Trials) == 0 {
			break // the budget is used up
		}
		t := b.Trials[0]
		n, _ := t.Params["n"].(interface{ Float64() (float64, error) }).Float64()
		value := n*n + float64(t.Number)
		if err := c.Tell(ctx, t.ID, client.Result{Value: value}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("trial %d: n=%v value %v\n", t.Number, t.Params["n"], value)
	}
	best, _ := c.Best(ctx, "quad")
	fmt.Println("best trial", best.Number, "value", *best.Value)
	// Output:
	// trial 0: n=2 value 4
	// trial 1: n=2 value 5
	// trial 2: n=2 value 6
	// best trial 0 value 4
}
