package clientimpl

import (
	"errors"
)

// pageIterator walks a paged list call (schedules, worker deployments,
// deployments), fetching each page as the iteration reaches it: fetch gets
// the page of a token (empty for the first), read takes its entries and
// the next page's token (empty after the last), convert makes an entry
// what Next returns. A failed fetch is returned once by Next and ends the
// iteration.
type pageIterator[R, P, E any] struct {
	name    string // the iterator's interface, for a Next with nothing left
	fetch   func(token []byte) (R, error)
	read    func(R) (entries []P, next []byte)
	convert func(P) E
	page    []P
	token   []byte
	started bool
	err     error
}

// HasNext implements the iterator interfaces, fetching the next page when
// the current one is used up. A failed fetch is reported by Next.
func (it *pageIterator[R, P, E]) HasNext() bool {
	for len(it.page) == 0 && it.err == nil && (!it.started || len(it.token) > 0) {
		resp, err := it.fetch(it.token)
		it.started = true
		if err != nil {
			it.err = err
			break
		}
		it.page, it.token = it.read(resp)
	}
	return len(it.page) > 0 || it.err != nil
}

// Next implements the iterator interfaces. An error ends the iteration.
func (it *pageIterator[R, P, E]) Next() (E, error) {
	var none E
	if !it.HasNext() {
		return none, errors.New(it.name + ".Next called with no entry left: check HasNext first")
	}
	if it.err != nil {
		err := it.err
		it.err, it.token = nil, nil
		return none, err
	}
	entry := it.page[0]
	it.page = it.page[1:]
	return it.convert(entry), nil
}
