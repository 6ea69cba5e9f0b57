package engine

import "strings"

// EditDistance is the Levenshtein distance between a and b, in runes: the
// measure behind every "did you mean" of the order languages and the mail
// commands, so that all of them forgive the same typos.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to s, ignoring case, if it is near
// enough to be a plausible typo (at most 1 + len(s)/3 edits); else "". On a
// tie the first candidate wins, so callers pass a stable order.
func Closest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if d := EditDistance(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 1+len([]rune(s))/3 {
		return best
	}
	return ""
}
