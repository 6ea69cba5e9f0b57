package outbox

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/klauspost/compress/s2"
)

// A queued mail's body is stored compressed with S2 (klauspost's
// Snappy-derived block format). A report's body is some 20–60 kB of JSON
// (its text, its HTML and report.json in base64), and on bbolt every byte
// of it is written more than once: when it is queued, and again with its
// leaf's neighbours when one of them is deleted. In a backlog drain bbolt
// wrote 135–316 kB to disk for every mail sent; with the bodies compressed
// it writes a third of that (docs/benchmarks.md). S2 takes a report to
// about a quarter (3.6 times smaller on the mails of a test game) in some
// 25 µs and reads it back in 12 µs. zstd was tried first: 4.7–4.9 times
// smaller, but at 70–90 µs a body it took 12% of the daemon's CPU in a
// drain, on a machine whose two cores the mail servers share; stdlib's
// flate is slower still (4.4 times in 280 µs). PostgreSQL compressed the
// values itself (lz4, migration 0002); it now gets them small.
//
// A body that starts with s2Tag is compressed; any other is the JSON an
// older Orrery wrote (a JSON object starts with '{'), and is read as it
// is. The dead letters (BucketDead) are stored the same way. Small bodies
// (under minCompress bytes: a bare acknowledgement) are left as JSON.

// s2Tag starts a compressed body: no JSON text starts with 0xff.
const s2Tag = "\xffS2"

// minCompress is the smallest body worth compressing.
const minCompress = 512

// maxBody bounds what a body decompresses to: a mail the daemon queued is
// at most a few megabytes (the hostile-mail limits cap what it quotes); a
// body claiming more is corrupt.
const maxBody = 64 << 20

// encodeBody returns v (an Item) as a queued body: its JSON, compressed
// when it is large enough to gain by it.
//
// HTML is written as it is, not escaped (<, > and & as \u003c…): every
// JSON reader reads both the same, and the escapes made the HTML part half
// as long again, to encode and then to compress.
func encodeBody(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(data) < minCompress {
		return data, nil
	}
	out := make([]byte, len(s2Tag), len(s2Tag)+s2.MaxEncodedLen(len(data)))
	copy(out, s2Tag)
	return append(out, s2.Encode(out[len(out):cap(out)], data)...), nil
}

// bodyJSON returns the JSON of a stored body, decompressing it if it was
// compressed.
func bodyJSON(v []byte) ([]byte, error) {
	if !bytes.HasPrefix(v, []byte(s2Tag)) {
		return v, nil
	}
	block := v[len(s2Tag):]
	n, err := s2.DecodedLen(block)
	if err == nil && n > maxBody {
		err = fmt.Errorf("it claims %d bytes, more than any mail", n)
	}
	var data []byte
	if err == nil {
		data, err = s2.Decode(nil, block)
	}
	if err != nil {
		return nil, fmt.Errorf("decompressing the stored mail: %w", err)
	}
	return data, nil
}

// decodeBody reads a stored body into v.
//
// It decodes with the JSON v2 implementation (go-json-experiment, which
// the module graph has for chromedp; Go's own encoding/json/v2 is still
// behind GOEXPERIMENT=jsonv2), about three times as fast on a report as
// encoding/json: in a 10,000-game drain the claims' decoding of the bodies
// they take was 14% of the daemon's CPU. The bodies are written by
// encoding/json (valid UTF-8, each name once), which v2 reads to the same
// Item (TestBodyDecodedAsEncodingJSONDoes).
func decodeBody(data []byte, v any) error {
	j, err := bodyJSON(data)
	if err != nil {
		return err
	}
	return jsonv2.Unmarshal(j, v)
}
