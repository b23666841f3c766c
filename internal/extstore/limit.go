package extstore

import "context"

// tokens bounds the operations of one driver call: a token of the
// message's (MaxOperationsPerMessage) and then one of the storage's
// (MaxDriverOperations) for each operation.
type tokens struct {
	message, all chan struct{}
}

func (s *Storage) limiter(ctx context.Context) tokens {
	message, _ := ctx.Value(messageKey{}).(chan struct{})
	if message == nil {
		message = make(chan struct{}, s.perMessage)
	}
	return tokens{message: message, all: s.operations}
}

func (t tokens) run(ctx context.Context, fn func() error) error {
	for _, c := range []chan struct{}{t.message, t.all} {
		select {
		case c <- struct{}{}:
			defer func() { <-c }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fn()
}

// limiterOf is a StorageDriverLimiter over tokens.
type limiterOf[T any] struct{ t tokens }

func (l limiterOf[T]) Permit(ctx context.Context, _ T, fn func() error) error {
	return l.t.run(ctx, fn)
}
