package wf

import (
	crand "crypto/rand"
	"hash/maphash"
	"math/rand"
	randv2 "math/rand/v2"

	"github.com/durable-go/sdk/workflow"
)

func RandomWorkflow(ctx workflow.Context) (int, error) { // want RandomWorkflow:"nondeterministic"
	n := rand.Intn(10)                 // want `math/rand.Intn called: RandomWorkflow; draw a seed with workflow.SideEffect and use rand.New\(rand.NewSource\(seed\)\)`
	n += randv2.IntN(10)               // want `math/rand/v2.IntN called: RandomWorkflow`
	rand.Shuffle(3, func(i, j int) {}) // want `math/rand.Shuffle called`
	buf := make([]byte, 8)
	_, _ = crand.Read(buf) // want `crypto/rand.Read called: RandomWorkflow; call it inside workflow.SideEffect`
	_ = crand.Reader       // want `crypto/rand.Reader read: RandomWorkflow`
	_ = maphash.MakeSeed() // want `hash/maphash.MakeSeed called`

	// A generator seeded from a side effect is deterministic.
	var seed int64
	_ = workflow.SideEffect(ctx, func(ctx workflow.Context) any {
		return rand.Int63()
	}).Get(&seed)
	r := rand.New(rand.NewSource(seed))
	n += r.Intn(10)
	r2 := randv2.New(randv2.NewPCG(uint64(seed), 1))
	n += r2.IntN(3)
	return n, nil
}
