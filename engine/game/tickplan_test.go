package game

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/games"
)

// checkPlan checks game id's tick plan against its record, as stored:
// that it was made from this very record, and that at every moment that
// matters to the record (each time Tick decides or wakes by, a
// nanosecond either side, and every hour of the week around at), the plan
// says "only look" exactly where deciding from the record says so
// (tickAction, no bot owing orders) before the first moment it says
// otherwise, never where the record says otherwise, and gives the wake
// nextWake gives.
func checkPlan(t *testing.T, svc *Service, id string, at time.Time) {
	t.Helper()
	var errs []error
	err := svc.st.View(context.Background(), func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		info, p := b.Get(store.KeyInfo), b.Get(keyTickPlan)
		if len(p) < planHeader || binary.BigEndian.Uint32(p) != planCode || binary.BigEndian.Uint32(p[planAtCRC:]) != crc32.Checksum(info, crcTable) ||
			binary.BigEndian.Uint32(p[planAtLen:]) != uint32(len(info)) {
			return fmt.Errorf("the plan %x was not made from the record as stored", p)
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		var times []time.Time
		near := func(t time.Time) {
			if !t.IsZero() {
				times = append(times, t.Add(-time.Nanosecond), t, t.Add(time.Nanosecond))
			}
		}
		for _, t := range decisionTimes(g) {
			near(t)
		}
		wakeTimes(g, func(t time.Time, _ bool) { near(t) })
		near(g.Updated)
		for h := -24; h <= 7*24; h++ {
			times = append(times, at.Add(time.Duration(h)*time.Hour))
		}
		slices.SortFunc(times, time.Time.Compare)
		bots := botsToPlay(g)
		other := false // the record said otherwise at an earlier moment
		for _, now := range times {
			act := tickAction(g, now)
			look := act == tickLook && !bots
			w, ok := lookOnly(b, now)
			switch {
			case ok && !look:
				errs = append(errs, fmt.Errorf("at %s the plan says only look; the record says tickAction %d (bots owing orders: %v)", now, act, bots))
			case ok:
				rec := *g
				rec.Ticked = now
				if want := nextWake(&rec); !w.Equal(want) {
					errs = append(errs, fmt.Errorf("at %s the plan wakes the game at %s; the record at %s", now, w, want))
				}
			case look && !other:
				errs = append(errs, fmt.Errorf("at %s the plan does not say only look, as the record does (tickAction %d)", now, act))
			}
			other = other || !look
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(errs...); err != nil {
		t.Errorf("game %s (%s): %v", id, at, err)
	}
}

// comparableRecord is a game as two stores that played it the same way hold
// it: the players' secrets, drawn at random, set aside.
func comparableRecord(t *testing.T, svc *Service, id string) string {
	t.Helper()
	g, err := svc.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Players {
		g.Players[i].Secret = ""
	}
	out, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// stripPlans deletes every game's tick plan: the file as a build before
// the plan left it.
func stripPlans(t *testing.T, st *store.Store) {
	t.Helper()
	if err := st.Update(context.Background(), func(tx store.Tx) error {
		gb := tx.Bucket(store.BucketGames)
		var ids [][]byte
		if err := gb.ForEachBucket(func(k []byte) error { ids = append(ids, store.Copy(k)); return nil }); err != nil {
			return err
		}
		for _, id := range ids {
			if err := gb.Bucket(id).Delete(keyTickPlan); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// The tick plan cannot drift from the record: a game of every ruleset
// goes through its life cycle (signup and JOIN, orders, WAIT, reminders,
// a late notice and the deadline, early resolution and its delay, the
// minimum gap, a vacation, pause and resume, deadlines set and
// extended, a seat kicked, given to a bot and back, a rollback, forced
// steps, a resignation), and after every operation its plan says what
// deciding from its record says (checkPlan). The same operations are
// done to a second database whose plans are deleted before every tick,
// so that its ticks decode every record as before the plan: both must
// tick alike, and hold the same games.
func TestTickPlanFollowsTheRecord(t *testing.T) {
	for _, k := range storetest.Kinds() {
		for i, rs := range games.All() {
			name := rs.Info().Name
			t.Run(k.Name+"/"+name, func(t *testing.T) {
				storetest.BoltOnlyWhenShort(t, k)
				now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
				clock := WithClock(func() time.Time { return now })
				planned := New(storetest.Open(t, k), games.All(), clock)
				bare := New(storetest.Open(t, k), games.All(), clock)
				both := []*Service{planned, bare}
				ctx := context.Background()
				const id = "drift"
				info := rs.Info()
				seats := max(min(3, info.MaxPlayers), info.MinPlayers)
				names := []string{"ann", "bob", "cyd"}[:seats]
				vacation := []string{"defaults", "extend"}[i%2]
				check := func(op string) {
					t.Helper()
					checkPlan(t, planned, id, now)
					if a, b := comparableRecord(t, planned, id), comparableRecord(t, bare, id); a != b {
						t.Fatalf("after %s the two databases differ:\nplanned %s\nbare    %s", op, a, b)
					}
				}
				// do runs op on both databases; a refusal (a UserError:
				// the game is not in a state that allows it) must be
				// the same on both.
				do := func(op string, fn func(s *Service) error) {
					t.Helper()
					var got [2]string
					for j, s := range both {
						if err := fn(s); err != nil {
							if !IsUserError(err) {
								t.Fatalf("%s: %v", op, err)
							}
							got[j] = err.Error()
						}
					}
					if got[0] != got[1] {
						t.Fatalf("%s: planned %q, bare %q", op, got[0], got[1])
					}
					if got[0] != "" {
						t.Logf("%s: refused: %s", op, got[0])
					}
					check(op)
				}
				tickBoth := func(op string) {
					t.Helper()
					stripPlans(t, bare.st)
					var out [2]string
					for j, s := range both {
						res, err := s.Tick(ctx)
						if err != nil {
							t.Fatalf("%s: %v", op, err)
						}
						data, _ := json.Marshal(res)
						out[j] = string(data)
					}
					if out[0] != out[1] {
						t.Fatalf("%s ticked otherwise:\nplanned %s\nbare    %s", op, out[0], out[1])
					}
					t.Logf("%s: %.300s", op, out[0])
					check(op)
				}
				at := func(d time.Duration, op string) {
					t.Helper()
					now = now.Add(d)
					tickBoth(fmt.Sprintf("tick %s (at %s)", op, now.Format(time.DateTime)))
				}
				// orders has the first human player the game waits for
				// answer, with the orders the ruleset's bot would give.
				orders := func(s *Service) error {
					var in Input
					err := s.st.View(ctx, func(tx store.Tx) error {
						b, err := gameBucket(tx, id)
						if err != nil {
							return err
						}
						g, err := readGame(b)
						if err != nil {
							return err
						}
						for _, p := range g.Prompts {
							if pl, _ := g.PlayerByName(p.Player); pl.Bot || !p.Kind.Blocks() || contains(g.Answered, p.ID) || contains(g.Kicked, p.Player) {
								continue
							}
							rs, st, err := s.loadState(b, g)
							if err != nil {
								return err
							}
							in = Input{Game: id, Player: p.Player, Prompt: p.ID, Source: "cli", Text: rs.Bot(st.View(p.Player), p, botRand(g, p))}
							return nil
						}
						return userErrorf("nobody has orders to give")
					})
					if err != nil {
						return err
					}
					_, err = s.Submit(ctx, in)
					return err
				}
				deadline := func() time.Time {
					g, err := planned.Get(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					return g.Deadline
				}
				until := func(at time.Time, op string) {
					t.Helper()
					if at.After(now) {
						now = at
					}
					tickBoth(fmt.Sprintf("tick %s (at %s)", op, now.Format(time.DateTime)))
				}

				st := Settings{Early: true, EarlyDelay: 10 * time.Minute, TurnLength: 48 * time.Hour, Grace: 6 * time.Hour,
					TellLate: true, Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}, AbandonAfter: 4,
					Vacation: vacation, MaxVacation: 72 * time.Hour, MinGap: time.Hour}
				do("create", func(s *Service) error {
					var players []PlayerSpec
					for _, n := range names[:seats-1] {
						players = append(players, PlayerSpec{Name: n, Email: n + "@example.org"})
					}
					st := st
					_, err := s.Create(ctx, CreateRequest{ID: id, Ruleset: name, DiceSecret: "drift-" + name, Players: players, Seats: seats, Settings: &st})
					return err
				})
				at(time.Minute, "in signup")
				do("join", func(s *Service) error {
					n := names[seats-1]
					_, err := s.Join(ctx, id, PlayerSpec{Name: n, Email: n + "@example.org"})
					return err
				})
				at(time.Minute, "after the start")
				do("orders", orders)
				at(time.Hour, "an hour later")
				do("vacation of bob", func(s *Service) error {
					_, _, err := s.DeclareVacation(ctx, id, "bob", now.Add(2*time.Hour), now.Add(30*time.Hour))
					return err
				})
				at(3*time.Hour, "bob away")
				until(deadline().Add(-23*time.Hour), "first reminder")
				do("wait", func(s *Service) error { _, _, err := s.Wait(ctx, id, "ann"); return err })
				do("pause", func(s *Service) error { _, _, err := s.Pause(ctx, id, "a break"); return err })
				at(5*time.Hour, "paused")
				do("resume", func(s *Service) error { _, _, err := s.Resume(ctx, id); return err })
				do("extend", func(s *Service) error { _, _, err := s.ExtendDeadline(ctx, id, 12*time.Hour, "more time"); return err })
				until(deadline().Add(-time.Hour), "second reminder")
				until(deadline().Add(time.Minute), "deadline passed: late")
				until(deadline().Add(st.Grace+time.Minute), "grace over: defaults")
				at(time.Minute, "after the step")
				for range 2 * seats {
					do("orders", orders)
					at(time.Minute, "after orders")
				}
				at(2*time.Minute, "early delay running")
				at(20*time.Minute, "early delay over")
				at(time.Hour, "minimum gap over")
				do("set deadline", func(s *Service) error {
					_, _, err := s.SetDeadline(ctx, id, now.Add(5*time.Hour), "sooner")
					return err
				})
				if seats > 2 {
					do("kick cyd", func(s *Service) error { _, _, err := s.Kick(ctx, id, "cyd"); return err })
					at(time.Minute, "cyd kicked")
				}
				do("bob to a bot", func(s *Service) error {
					_, _, err := s.ReplaceSeat(ctx, id, "bob", Seat{Bot: true}, "away for good")
					return err
				})
				at(time.Minute, "the bot plays")
				for range seats {
					do("orders", orders)
					at(time.Minute, "after orders")
				}
				at(time.Hour, "the step resolved early")
				do("bob back", func(s *Service) error {
					_, _, err := s.ReplaceSeat(ctx, id, "bob", Seat{Email: "bob2@example.org"}, "back")
					return err
				})
				do("message", func(s *Service) error { _, _, err := s.Message(ctx, id, "hello"); return err })
				do("rollback", func(s *Service) error { _, _, err := s.Rollback(ctx, id, 1, "a mistake"); return err })
				at(time.Minute, "after the rollback")
				for range 3 {
					do("forced step", func(s *Service) error { _, err := s.Advance(ctx, id, true); return err })
					at(time.Hour, "after a forced step")
				}
				for range 4 {
					until(deadline().Add(st.Grace+time.Minute), "a step missed")
				}
				do("resign ann", func(s *Service) error { _, _, err := s.Resign(ctx, id, "ann"); return err })
				at(time.Hour, "after the resignation")
				at(200*time.Hour, "the end")
				g, err := planned.Get(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if g.Step < 4 {
					t.Errorf("the game played %d steps: the life cycle was not gone through", g.Step)
				}
			})
		}
	}
}

// A game whose record changed without its plan (written by a build from
// before the plan, or edited) is read, not planned: here its deadline is
// moved into the past behind the plan's back, and the next tick resolves
// the step, where the plan, made for the record before, said to look
// again only at the old deadline's first reminder.
func TestTickPlanOfAnotherRecordIsNotUsed(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			if _, err := svc.Create(ctx, CreateRequest{ID: "old", Ruleset: "toy", DiceSecret: "old",
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
				Settings: &Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour}}}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Minute)
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if err := svc.st.Update(ctx, func(tx store.Tx) error {
				b, err := gameBucket(tx, "old")
				if err != nil {
					return err
				}
				g, err := readGame(b)
				if err != nil {
					return err
				}
				g.Deadline = now.Add(-time.Minute)
				// As a build before the plan wrote it: the record
				// alone, and the wake entry moved to the new deadline.
				if err := putJSON(b, store.KeyInfo, infoRecord{Game: g}); err != nil {
					return err
				}
				wb := tx.Bucket(store.BucketWake)
				old := storedTicks(tx, g)
				if err := wb.Delete(wakeKey(old.wake, g.ID)); err != nil {
					return err
				}
				return wb.Put(wakeKey(g.Deadline, g.ID), nil)
			}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Minute)
			res, err := svc.Tick(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || len(res[0].Steps) != 1 || res[0].Steps[0].Reason != "deadline" {
				t.Fatalf("the tick after the deadline moved did %+v, not the deadline's step", res)
			}
			checkPlan(t, svc, "old", now)
		})
	}
}

// A game left with a bot owing orders (a crash after the step that
// asked them committed, before the bot answered) is never only looked
// at: its plan says nothing, and the tick reads it and has the bot play.
func TestTickPlanLeavesBotsOwingOrdersToTheTick(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			if _, err := svc.Create(ctx, CreateRequest{ID: "bots", Ruleset: "toy", DiceSecret: "bots",
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
				Settings: &Settings{Early: true, TurnLength: 48 * time.Hour}}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Minute)
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			// bob's seat goes to the bot, and the process stops before
			// the bot plays.
			now = now.Add(time.Minute)
			if err := svc.st.Update(ctx, func(tx store.Tx) error {
				b, err := gameBucket(tx, "bots")
				if err != nil {
					return err
				}
				g, err := readGame(b)
				if err != nil {
					return err
				}
				g.Players[1].Bot, g.Updated = true, now
				return writeGame(b, g)
			}); err != nil {
				t.Fatal(err)
			}
			checkPlan(t, svc, "bots", now)
			now = now.Add(time.Minute)
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			g, err := svc.Get(ctx, "bots")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range g.Prompts {
				if p.Player == "bob" && p.Kind.Blocks() && !contains(g.Answered, p.ID) {
					t.Fatalf("the tick did not have the bot answer %s", p.ID)
				}
			}
		})
	}
}
