package study

import "strings"

// Similar returns the names among names that someone who typed name may
// have meant, in their order: the same but for a typo (an edit distance of
// at most a quarter of its length, and at least 1) or for case, and those
// that start with it (for 3 characters or more). Commands that are given a
// study name the storage does not hold suggest them.
func Similar(names []string, name string) []string {
	var near []string
	lower := strings.ToLower(name)
	for _, n := range names {
		other := strings.ToLower(n)
		if editDistance(lower, other) <= max(1, len(lower)/4) || (len(lower) >= 3 && strings.HasPrefix(other, lower)) {
			near = append(near, n)
		}
	}
	return near
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
