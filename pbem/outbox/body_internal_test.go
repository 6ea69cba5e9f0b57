package outbox

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

// This file tests, from inside the package, how a stored body is told
// apart and bounded (bodyJSON); and it exports, to the outbox_test
// package only, what the tests there need of the package's insides.

// RenewLease writes the worker's lease, as Run does at its start.
func (q *Queue) RenewLease() error { return q.db.Update(context.Background(), q.renewLease) }

// DecodeBody reads a stored body (a queued mail or a dead letter), as the
// queue does: compressed or the JSON of an older Orrery.
func DecodeBody(v []byte, x any) error { return decodeBody(v, x) }

// EncodeBody stores x as the queue stores a body.
func EncodeBody(x any) ([]byte, error) { return encodeBody(x) }

// bodyJSON passes an older Orrery's JSON through untouched, leaves a
// short body as JSON when it stores one, decompresses a tagged one, and
// refuses, without allocating it, a block that claims more than any mail.
func TestBodyJSON(t *testing.T) {
	old := []byte(`{"seq":3,"mail":{"to":["a@b"]}}`)
	if got, err := bodyJSON(old); err != nil || string(got) != string(old) {
		t.Errorf("an older body came back as %q, %v", got, err)
	}
	short, err := encodeBody(Item{Seq: 1})
	if err != nil || strings.HasPrefix(string(short), s2Tag) {
		t.Errorf("a %d-byte body was compressed (%v)", len(short), err)
	}
	long := Item{Seq: 2, Mail: Mail{To: []string{"a@b"}, Text: strings.Repeat("the board\n", 200)}}
	body, err := encodeBody(long)
	if err != nil || !strings.HasPrefix(string(body), s2Tag) {
		t.Fatalf("a long body was not compressed (%v)", err)
	}
	j, err := bodyJSON(body)
	if err != nil || !strings.Contains(string(j), `"seq":2`) || !strings.Contains(string(j), "the board") {
		t.Errorf("decompressed to %.80q, %v", j, err)
	}
	huge := binary.AppendUvarint([]byte(s2Tag), maxBody+1)
	huge = append(huge, 0, 0, 0)
	if _, err := bodyJSON(huge); err == nil || !strings.Contains(err.Error(), "more than any mail") {
		t.Errorf("a block claiming %d bytes: %v", maxBody+1, err)
	}
}
