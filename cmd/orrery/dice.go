package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"orrery/engine/dice"
)

const diceAbout = `Redoes a step's dice from what its report reveals, as any player can, to
check the server. Roll k of a d(n) from a seed is: the first 12 hex digits
of sha256("SEED:k") read as a number x, then x mod n + 1.

A game of dice scheme 2 (every game set up since; game list shows the
scheme) rolls from the seed of the rolls, sha256("SEED:DIGEST"), where
DIGEST is the digest of the step's orders that the report lists: give it
with --inputs. The dice marked [KEY], which only some players see, roll
from the seed the report gives for them: pass that seed alone. At the end
of a game each step's hidden seed is shown; with --hidden, SEED is that
one, and --stream KEY rolls the dice marked [KEY].

The same with standard tools (docs/dice.md has the whole recipe):

  printf %s SEED | sha256sum                    # must equal the commitment
  R=$(printf %s SEED:DIGEST | sha256sum | cut -c1-64)    # the roll seed
  h=$(printf %s $R:7 | sha256sum | cut -c1-12); echo $(( 0x$h % 6 + 1 ))`

func runDice(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "dice", "dice SEED [--commitment HEX] [--inputs DIGEST] [--hidden [--stream KEY]] [--sides 6 | --sides 6,6,20] [--count 10]", diceAbout)
	commitment := fs.String("commitment", "", "check the seed against this commitment (from the report before the step)")
	inputs := fs.String("inputs", "", "the digest of the step's orders (scheme 2): roll from sha256(SEED:DIGEST)")
	hidden := fs.Bool("hidden", false, "SEED is a step's hidden seed (shown at the end): print the seed it gives")
	streamKey := fs.String("stream", "", "with --hidden and --inputs: roll the dice marked [KEY]")
	sidesFlag := fs.String("sides", "6", "faces of the die; a list (6,6,20) gives one roll of each, in order")
	count := fs.Int("count", 10, "how many rolls to show, for one kind of die")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: orrery dice SEED [--commitment HEX] [--inputs DIGEST] [--hidden [--stream KEY]] [--sides N[,N...]] [--count K]")
	}
	sides, err := parseSides(*sidesFlag, *count)
	if err != nil {
		return err
	}
	seed := strings.TrimSpace(pos[0])
	hiddenSeed := ""
	if *hidden {
		hiddenSeed, seed = seed, dice.PublicSeed(seed)
		fmt.Fprintf(e.stdout, "seed of the step (sha256 of the hidden seed): %s\n", seed)
	} else if *streamKey != "" {
		return fmt.Errorf("--stream needs --hidden: the seed of hidden dice derives from the step's hidden seed")
	}
	if *commitment != "" {
		if got := dice.Commitment(seed); got != strings.TrimSpace(*commitment) {
			return fmt.Errorf("seed does NOT match the commitment: sha256 is %s", got)
		}
		fmt.Fprintln(e.stdout, "seed matches the commitment")
	}
	from := seed
	if *inputs != "" {
		digest := strings.TrimSpace(*inputs)
		from = dice.RollSeed(seed, digest)
		fmt.Fprintf(e.stdout, "seed of the rolls, sha256(SEED:DIGEST): %s\n", from)
		if *streamKey != "" {
			from = dice.StreamSeed(hiddenSeed, digest, *streamKey)
			fmt.Fprintf(e.stdout, "seed of the dice marked [%s]: %s\n", *streamKey, from)
		}
	} else if *streamKey != "" {
		return fmt.Errorf("--stream needs --inputs: the seed of hidden dice depends on the step's orders")
	}
	src := dice.SeedSource(from)
	for i, n := range sides {
		v, err := src.Value(i+1, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "roll #%d: d%d = %d\n", i+1, n, v)
	}
	return nil
}

// parseSides reads --sides: one number, rolled count times, or a list of
// numbers, one roll each, as a report's dice list them.
func parseSides(s string, count int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--sides %q: write the faces of each die, like 6 or 6,6,20", s)
		}
		out = append(out, n)
	}
	if len(out) == 1 {
		for len(out) < count {
			out = append(out, out[0])
		}
		if count < 1 {
			out = nil
		}
	}
	return out, nil
}
