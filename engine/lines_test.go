package engine_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestParseLines: blank lines and comments are skipped, verbs come
// upper-case, errors carry the line's number and text as sent, a wrong
// line refuses the whole text, and the observer is refused.
func TestParseLines(t *testing.T) {
	roll := func(verb string, args []string) (string, *engine.LineError) {
		if verb != "ROLL" || len(args) != 0 {
			return "", &engine.LineError{Msg: "not an order", Fix: "write ROLL"}
		}
		return "ROLL", nil
	}
	orders, errs := engine.ParseLines("ann", "# mine\n\n  roll \nRoll", roll)
	if len(errs) > 0 || !reflect.DeepEqual(orders, engine.TextOrders{"ROLL", "ROLL"}) {
		t.Errorf("got %v %v", orders, errs)
	}
	orders, errs = engine.ParseLines("ann", "ROLL\n\n hold 3 ", roll)
	want := []engine.LineError{{Line: 3, Text: "hold 3", Msg: "not an order", Fix: "write ROLL"}}
	if orders != nil || !reflect.DeepEqual(errs, want) {
		t.Errorf("got %v %+v, want %+v", orders, errs, want)
	}
	if orders, errs := engine.ParseLines(engine.Observer, "ROLL", roll); orders != nil || len(errs) != 1 {
		t.Errorf("the observer's orders: %v %v", orders, errs)
	}
}

type jsonState struct{ N int }

func (s *jsonState) Turn() int                                                   { return s.N }
func (s *jsonState) Phase() string                                               { return "" }
func (s *jsonState) Prompts() []engine.Prompt                                    { return nil }
func (s *jsonState) View(string) engine.View                                     { return nil }
func (s *jsonState) Resolve([]engine.Answer, *dice.Dice) ([]engine.Event, error) { return nil, nil }
func (s *jsonState) Outcome() engine.Outcome                                     { return engine.Outcome{} }
func (s *jsonState) Marshal() ([]byte, error)                                    { return json.Marshal(s) }

// TestLoadJSON: a state reads back from what json.Marshal wrote, and bad
// bytes give an error that says what was being read.
func TestLoadJSON(t *testing.T) {
	st, err := engine.LoadJSON[jsonState]([]byte(`{"N":7}`))
	if err != nil || st.Turn() != 7 {
		t.Fatalf("got %v %v", st, err)
	}
	if _, err := engine.LoadJSON[jsonState]([]byte(`{`)); err == nil {
		t.Error("bad JSON was read")
	}
}

func TestOrderLines(t *testing.T) {
	got := engine.OrderLines("  PUSH 2 \r\n\n# a comment\n\t#indented comment\nSAY hi # not a comment here\n   \n")
	want := []string{"PUSH 2", "SAY hi # not a comment here"}
	if !slices.Equal(got, want) {
		t.Errorf("OrderLines = %q, want %q", got, want)
	}
	if got := engine.OrderLines("\n# only\n"); got != nil {
		t.Errorf("a text of comments has order lines %q", got)
	}
}
