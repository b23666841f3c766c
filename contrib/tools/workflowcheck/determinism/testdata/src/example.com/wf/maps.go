package wf

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/durable-go/sdk/workflow"
)

func MapsWorkflow(ctx workflow.Context, m map[string]int, f map[float64]float64) (int, error) { // want MapsWorkflow:"nondeterministic"
	n := 0
	// Reported: the order shows.
	n += len(unsortedKeys(m))
	n += len(usedBeforeSort(m))
	n += len(sortedWithComparator(m))
	n += int(floatSum(f))
	n += mixedUpdates(m)
	n += callsInLoop(m)
	n += len(lastKey(m))
	n += len(firstKey(m))
	n += differentExits(m)
	n += len(unsortedMapsKeys(m))
	n += len(collectedUnsorted(m))
	n += len(floatValuesSorted(f))
	n += len(assignsOuter(m))
	n += reflectKeys(m)
	n += partialEffectsBeforeExit(m)
	n += readsCarried(m)
	n += conflictingFlags(m)
	n += len(genericKeys(m))
	// Accepted: the same effects in any order.
	n += len(sortedKeys(m)) + len(slicesSortedKeys(m)) + len(sortedValues(m))
	n += len(filteredSortedKeys(m)) + len(sortedMapsKeys(m)) + len(collectedSorted(m))
	n += len(rangeOverMapsKeysSorted(m))
	n += sum(m) + count(m) + maxValue(m) + bits(m)
	n += len(copyMap(m))
	deleteNegative(m)
	if anyNegative(m) || hasKey(m, "x") || prefixFound(m, "a") {
		n++
	}
	n += ignoresElements(m)
	n += len(deterministicKeys(m))
	return n, nil
}

func unsortedKeys(m map[string]int) []string {
	var keys []string
	for k := range m { // want `range over a map: its iteration order is random: MapsWorkflow -> unsortedKeys; iterate over workflow.DeterministicKeys\(m\) or slices.Sorted\(maps.Keys\(m\)\)`
		keys = append(keys, k)
	}
	return keys
}

func usedBeforeSort(m map[string]int) []string {
	var keys []string
	for k := range m { // want `range over a map: its iteration order is random: MapsWorkflow -> usedBeforeSort`
		keys = append(keys, k)
	}
	fmt.Sprint(keys)
	sort.Strings(keys)
	return keys
}

func sortedWithComparator(m map[string]int) []string {
	var keys []string
	for k := range m { // want `range over a map`
		keys = append(keys, k)
	}
	// Ties in the comparator keep the map's order.
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] < m[keys[j]] })
	return keys
}

func floatSum(f map[float64]float64) float64 {
	total := 0.0
	for _, v := range f { // want `range over a map`
		total += v // floating point addition is not associative
	}
	return total
}

func mixedUpdates(m map[string]int) int {
	n := 1
	for _, v := range m { // want `range over a map`
		n += v
		n *= v
	}
	return n
}

func callsInLoop(m map[string]int) int {
	n := 0
	for k := range m { // want `range over a map`
		n += len(fmt.Sprint(k))
	}
	return n
}

func lastKey(m map[string]int) string {
	last := ""
	for k := range m { // want `range over a map`
		last = k
	}
	return last
}

func firstKey(m map[string]int) string {
	for k := range m { // want `range over a map`
		return k
	}
	return ""
}

func differentExits(m map[string]int) int {
	for _, v := range m { // want `range over a map`
		if v > 0 {
			return 1
		}
		if v < 0 {
			return 2
		}
	}
	return 0
}

func unsortedMapsKeys(m map[string]int) []string {
	var keys []string
	for k := range maps.Keys(m) { // want `range over a map`
		keys = append(keys, k)
	}
	return keys
}

func collectedUnsorted(m map[string]int) []string {
	return slices.Collect(maps.Keys(m)) // want `maps.Keys called: MapsWorkflow -> collectedUnsorted`
}

func floatValuesSorted(f map[float64]float64) []float64 {
	// -0 and +0 are equal but print differently: sorting cannot order them.
	return slices.Sorted(maps.Values(f)) // want `maps.Values called`
}

func assignsOuter(m map[string]int) string {
	var k string
	for k = range m { // want `range over a map`
	}
	return k
}

func reflectKeys(m map[string]int) int {
	return len(reflect.ValueOf(m).MapKeys()) // want `\(reflect.Value\).MapKeys called`
}

func partialEffectsBeforeExit(m map[string]int) int {
	n := 0
	for _, v := range m { // want `range over a map`
		n += v
		if v < 0 {
			break
		}
	}
	return n
}

func readsCarried(m map[string]int) int {
	n, seen := 0, 0
	for _, v := range m { // want `range over a map`
		seen++
		n += v * seen
	}
	return n
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func slicesSortedKeys(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedValues(m map[string]int) []int {
	var values []int
	for _, v := range m {
		values = append(values, v)
	}
	sort.Ints(values)
	return values
}

func filteredSortedKeys(m map[string]int) []string {
	var keys []string
	for k, v := range m {
		if v > 0 && !strings.HasPrefix(k, "_") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func sortedMapsKeys(m map[string]int) []string {
	return slices.Sorted(maps.Keys(m))
}

func collectedSorted(m map[string]int) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.Sort(keys)
	return keys
}

func rangeOverMapsKeysSorted(m map[string]int) []string {
	var keys []string
	for k := range maps.Keys(m) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sum(m map[string]int) int {
	total := 0
	for _, v := range m {
		total += v
	}
	return total
}

func count(m map[string]int) int {
	n := 0
	for k, v := range m {
		if v > 0 {
			continue
		}
		size := len(k)
		if size > 1 {
			n++
		}
	}
	return n
}

func maxValue(m map[string]int) int {
	best := 0
	for _, v := range m {
		best = max(best, v)
	}
	return best
}

func bits(m map[string]int) int {
	mask := 0
	for _, v := range m {
		mask |= 1 << (v % 8)
	}
	return mask
}

func copyMap(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v * 2
	}
	return out
}

func deleteNegative(m map[string]int) {
	for k, v := range m {
		if v < 0 {
			delete(m, k)
		}
	}
}

func anyNegative(m map[string]int) bool {
	for _, v := range m {
		if v < 0 {
			return true
		}
	}
	return false
}

func hasKey(m map[string]int, want string) bool {
	found := false
	for k := range m {
		if k == want {
			found = true
			break
		}
	}
	return found
}

func prefixFound(m map[string]int, prefix string) bool {
	found := false
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			found = true
		}
	}
	return found
}

func ignoresElements(m map[string]int) int {
	n := 0
	for range m {
		n += 2
	}
	for k := range m {
		_ = "the key is never read"
		_ = k
	}
	return n
}

func deterministicKeys(m map[string]int) []string {
	var out []string
	for _, k := range workflow.DeterministicKeys(m) {
		out = append(out, k)
	}
	return out
}

func conflictingFlags(m map[string]int) int {
	flag := 0
	for _, v := range m { // want `range over a map`
		if v > 0 {
			flag = 1
		} else {
			flag = 2
		}
	}
	return flag
}

func genericKeys[M ~map[string]V, V any](m M) []string {
	var keys []string
	for k := range m { // want `range over a map: its iteration order is random: MapsWorkflow -> genericKeys`
		keys = append(keys, k)
	}
	return keys
}
