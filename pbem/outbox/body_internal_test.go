package outbox

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
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
func EncodeBody(x Item) ([]byte, error) { return encodeBody(x) }

// bodyJSON passes an older Orrery's JSON through untouched and
// decompresses an older Orrery's compressed JSON; a short body is still
// stored as JSON, a long one in the blob form; and a block that claims
// more than any mail is refused without being allocated.
func TestBodyJSON(t *testing.T) {
	old := []byte(`{"seq":3,"mail":{"to":["a@b"]}}`)
	if got, err := bodyJSON(old); err != nil || string(got) != string(old) {
		t.Errorf("an older body came back as %q, %v", got, err)
	}
	oldS2 := append([]byte(s2Tag), s2.Encode(nil, old)...)
	if got, err := bodyJSON(oldS2); err != nil || string(got) != string(old) {
		t.Errorf("an older compressed body came back as %q, %v", got, err)
	}
	short, err := encodeBody(Item{Seq: 1})
	if err != nil || !json.Valid(short) {
		t.Errorf("a %d-byte body was not stored as JSON (%v): %q", len(short), err, short)
	}
	long := Item{Seq: 2, Mail: Mail{To: []string{"a@b"}, Text: strings.Repeat("the board\n", 200)}}
	body, err := encodeBody(long)
	if err != nil || !strings.HasPrefix(string(body), blobTag) {
		t.Fatalf("a long body was not stored in blobs (%v)", err)
	}
	var got Item
	if err := decodeBody(body, &got); err != nil || got.Seq != 2 || got.Mail.Text != long.Mail.Text {
		t.Errorf("decoded to %+v, %v", got, err)
	}
	huge := binary.AppendUvarint([]byte(s2Tag), maxBody+1)
	huge = append(huge, 0, 0, 0)
	if _, err := bodyJSON(huge); err == nil || !strings.Contains(err.Error(), "more than any mail") {
		t.Errorf("a block claiming %d bytes: %v", maxBody+1, err)
	}
	hugeBlobs := binary.AppendUvarint([]byte(blobTag), maxBody+1)
	hugeBlobs = append(hugeBlobs, 0, 0, 0)
	if err := decodeBody(hugeBlobs, &got); err == nil || !strings.Contains(err.Error(), "more than any mail") {
		t.Errorf("a blob block claiming %d bytes: %v", maxBody+1, err)
	}
}

// A blob-form body whose parts do not add up (cut short, a count that
// does not match the files, bytes left over) is refused, not read wrong.
func TestDamagedBlobBody(t *testing.T) {
	it := Item{Seq: 4, Mail: Mail{To: []string{"a@b"}, Text: strings.Repeat("x", 600), HTML: "<p>h</p>",
		Files: []File{{Name: "report.json", ContentType: "application/json", Data: []byte(`{"a":1}`)}}}}
	body, err := encodeBody(it)
	if err != nil || !strings.HasPrefix(string(body), blobTag) {
		t.Fatalf("not in blobs: %v", err)
	}
	payload, err := s2.Decode(nil, body[len(blobTag):])
	if err != nil {
		t.Fatal(err)
	}
	redo := func(p []byte) []byte { return append([]byte(blobTag), s2.Encode(nil, p)...) }
	for name, p := range map[string][]byte{
		"cut short":     payload[:len(payload)-3],
		"bytes left":    append(append([]byte(nil), payload...), 0),
		"one blob less": append([]byte{2}, payload[1:]...),
		"one blob more": append([]byte{4}, payload[1:]...),
		"empty":         {},
	} {
		var got Item
		if err := decodeBody(redo(p), &got); err == nil {
			t.Errorf("%s: read as %+v", name, got)
		}
	}
	var got Item
	if err := decodeBody(redo(payload), &got); err != nil || got.Mail.HTML != "<p>h</p>" || string(got.Mail.Files[0].Data) != `{"a":1}` {
		t.Errorf("the undamaged body read as %+v, %v", got, err)
	}
}
