package game

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"orrery/engine/store"
)

// ListFilter selects games for ListGames and CountGames. The zero filter
// selects every game; each field set narrows it further.
type ListFilter struct {
	// Ruleset keeps the games of this ruleset (its name, as Game.Ruleset).
	Ruleset string
	// Player keeps the games in which this address holds a seat (any
	// case, as GamesOf).
	Player string
	// Awaiting keeps the games waiting for orders: started, not over,
	// and someone's blocking prompt unanswered (Game.Waiting); with
	// Player, that address's own orders. A paused game still takes
	// orders, so it is kept too.
	Awaiting bool
	// Open keeps the games open for JOIN (Game.OpenToJoin): signing up,
	// or offering a seat its player left.
	Open bool
}

// ListOptions pages a ListGames call: a page is the first Limit games, in
// id order, that match the filter and come after After, less the first
// Offset of them.
type ListOptions struct {
	ListFilter
	// After resumes after this game id: the Next of the page before. ""
	// starts at the first game.
	After string
	// Offset skips that many matching games first: page n of a listing
	// cut in pages of k is Offset (n-1)*k, Limit k ("LIST page 3" by
	// mail). It costs the skipped games' index entries, so After is the
	// way to walk far.
	Offset int
	// Limit is the most games in the page: default DefaultListLimit, at
	// most MaxListLimit.
	Limit int
}

// Page sizes of ListGames.
const (
	DefaultListLimit = 50
	MaxListLimit     = 1000
)

// ListPage is one page of games.
type ListPage struct {
	Games []*Game
	// Next is the After of the following page, "" when this page holds
	// the last matching game.
	Next string
}

// ListGames returns one page of games, in id order, that match opt's
// filter: `orrery game list`, LIST by mail and the web pages list games
// with it. It reads the games through an index that already holds only
// candidates: a player's seats, or the game-tags of open games, of games
// awaiting orders, of one ruleset (see engine/store's schema.go), so a
// page costs about Limit game records, and memory holds one page, however
// many games the database has. Filters beyond the one the index answers
// are checked on the records; a rare combination (the open games of one
// ruleset) reads the candidates it skips too.
//
// To walk every game, call it again with After set to the page's Next
// until Next is "". To cut a list in numbered pages, use Offset and
// CountGames. Mail LIST's three audiences map onto it so:
//
//	stranger: ListOptions{ListFilter: ListFilter{Open: true}, Limit: 20}
//	player:   ListFilter{Player: addr} first (their own games), then
//	          ListFilter{Open: true} leaving out those ids
//	GM:       ListFilter{} (every game), Offset (page-1)*20, Limit 20
func (s *Service) ListGames(ctx context.Context, opt ListOptions) (*ListPage, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	skip := max(opt.Offset, 0)
	page := &ListPage{}
	err := s.st.View(ctx, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		return s.candidates(tx, opt.ListFilter, opt.After, func(id string) (bool, error) {
			b := games.Bucket([]byte(id))
			if b == nil {
				return false, fmt.Errorf("the game index names %q, which does not exist (rebuild the indexes)", id)
			}
			g, err := readGame(b)
			if err != nil {
				return false, fmt.Errorf("game %s: %w", id, err)
			}
			if !opt.ListFilter.keeps(g) {
				return true, nil
			}
			if skip > 0 {
				skip--
				return true, nil
			}
			if len(page.Games) == limit {
				page.Next = page.Games[len(page.Games)-1].ID
				return false, nil
			}
			page.Games = append(page.Games, g)
			return true, nil
		})
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// CountGames counts the games f selects. When one index answers f alone
// (no filter, or one, or Player with Awaiting) it counts index keys and
// reads no game record; otherwise it reads the candidates.
func (s *Service) CountGames(ctx context.Context, f ListFilter) (int, error) {
	if err := s.indexed(ctx); err != nil {
		return 0, err
	}
	n := 0
	err := s.st.View(ctx, func(tx store.Tx) error {
		exact := f.exact()
		games := tx.Bucket(store.BucketGames)
		return s.candidates(tx, f, "", func(id string) (bool, error) {
			if !exact {
				b := games.Bucket([]byte(id))
				if b == nil {
					return true, nil
				}
				g, err := readGame(b)
				if err != nil {
					return false, fmt.Errorf("game %s: %w", id, err)
				}
				if !f.keeps(g) {
					return true, nil
				}
			}
			n++
			return true, nil
		})
	})
	return n, err
}

// driver picks the index that holds the fewest candidates for f: its
// bucket and key prefix, or a nil bucket for the games bucket itself.
func (f ListFilter) driver(tx store.Tx) (store.Bucket, string) {
	tags := tx.Bucket(store.BucketTags)
	switch {
	case f.Player != "" && f.Awaiting:
		return tags, tagAwaits(f.Player)
	case f.Player != "":
		return tx.Bucket(store.BucketSeats), normAddr(f.Player)
	case f.Open:
		return tags, tagOpen
	case f.Awaiting:
		return tags, tagAwaiting
	case f.Ruleset != "":
		return tags, tagRuleset(f.Ruleset)
	}
	return nil, ""
}

// exact reports whether f's driving index selects exactly f's games.
func (f ListFilter) exact() bool {
	n := 0
	for _, set := range []bool{f.Ruleset != "", f.Player != "", f.Awaiting, f.Open} {
		if set {
			n++
		}
	}
	return n <= 1 || n == 2 && f.Player != "" && f.Awaiting
}

// candidates calls fn with the ids of f's driving index after after, in id
// order, until fn says stop.
func (s *Service) candidates(tx store.Tx, f ListFilter, after string, fn func(id string) (bool, error)) error {
	if b, prefix := f.driver(tx); b != nil || prefix != "" {
		return eachID(b, prefix, after, fn)
	}
	c := tx.Bucket(store.BucketGames).Cursor()
	k, v := c.First()
	if after != "" {
		k, v = c.Seek([]byte(after))
		if k != nil && bytes.Equal(k, []byte(after)) {
			k, v = c.Next()
		}
	}
	for ; k != nil; k, v = c.Next() {
		if v != nil {
			continue // not a game's bucket
		}
		more, err := fn(string(k))
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// keeps reports whether g passes every filter of f (the driving index
// has passed it already; checking again costs little and keeps this the
// one definition of each filter).
func (f ListFilter) keeps(g *Game) bool {
	if f.Ruleset != "" && g.Ruleset != f.Ruleset {
		return false
	}
	if f.Open && !g.OpenToJoin() {
		return false
	}
	var seat Player
	if f.Player != "" {
		p, ok := g.PlayerByEmail(f.Player)
		if !ok {
			return false
		}
		seat = p
	}
	if f.Awaiting {
		if g.Signup || g.Over() {
			return false
		}
		waiting := g.Waiting()
		if len(waiting) == 0 || f.Player != "" && !containsFold(waiting, seat.Name) {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
