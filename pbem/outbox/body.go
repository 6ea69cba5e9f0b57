package outbox

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

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
// A body that starts with blobTag is in the blob form (below); one that
// starts with s2Tag is compressed JSON, as Orrery wrote it before the blob
// form; any other is plain JSON (a JSON object starts with '{'): a small
// body (under minCompress bytes: a bare acknowledgement), or one an older
// Orrery wrote. All three are read. The dead letters (BucketDead) are
// stored the same way.

// s2Tag starts a compressed body: no JSON text starts with 0xff.
const s2Tag = "\xffS2"

// minCompress is the smallest body worth compressing.
const minCompress = 512

// maxBody bounds what a body decompresses to: a mail the daemon queued is
// at most a few megabytes (the hostile-mail limits cap what it quotes); a
// body claiming more is corrupt.
const maxBody = 64 << 20

// A body with blobTag (since 2026-11-29) is an S2 block holding the
// item's JSON with its text, HTML and attachments taken out, and those
// after it as they are: a count, then each one's length and bytes
// (uvarints), in the order text, HTML, each file. Writing a report's
// HTML and report.json into JSON (every byte checked, base64) and reading
// them back were a tenth of the daemon's CPU in a backlog drain, and the
// base64 was a third bigger after compression than the bytes themselves.
const blobTag = "\xffB2"

// encodeBody returns it as a queued body: the blob form, or its JSON when
// it is short enough not to gain by compression.
func encodeBody(it Item) ([]byte, error) {
	m := &it.Mail
	text, html, files := jsonText(m.Text), jsonText(m.HTML), m.Files
	size := len(text) + len(html)
	m.Text, m.HTML, m.Files = "", "", nil
	if len(files) > 0 {
		m.Files = make([]File, len(files))
		for i, f := range files {
			size += len(f.Data)
			f.Data = nil
			m.Files[i] = f
		}
	}
	meta, err := json.Marshal(it)
	if err != nil {
		return nil, err
	}
	if size+len(meta) < minCompress {
		// Short: the plain JSON an older Orrery also reads.
		m.Text, m.HTML, m.Files = text, html, files
		return json.Marshal(it)
	}
	n := 2 + len(files)
	payload := make([]byte, 0, size+len(meta)+binary.MaxVarintLen64*(n+2))
	payload = binary.AppendUvarint(payload, uint64(n))
	payload = binary.AppendUvarint(payload, uint64(len(meta)))
	payload = append(payload, meta...)
	payload = binary.AppendUvarint(payload, uint64(len(text)))
	payload = append(payload, text...)
	payload = binary.AppendUvarint(payload, uint64(len(html)))
	payload = append(payload, html...)
	for _, f := range files {
		payload = binary.AppendUvarint(payload, uint64(len(f.Data)))
		payload = append(payload, f.Data...)
	}
	out := make([]byte, len(blobTag), len(blobTag)+s2.MaxEncodedLen(len(payload)))
	copy(out, blobTag)
	return append(out, s2.Encode(out[len(out):cap(out)], payload)...), nil
}

// jsonText is s as it comes back from JSON: each byte of invalid UTF-8 a
// U+FFFD, as encoding/json writes it, so that a blob reads as the JSON of
// the same mail read.
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// decodeBlobs reads a blob-form body into v: the item's JSON, then, when
// v is an *Item, its text, HTML and attachments.
func decodeBlobs(block []byte, v any) error {
	payload, err := decompress(block)
	if err != nil {
		return err
	}
	bad := errors.New("the stored mail is damaged (its parts do not add up)")
	n, k := binary.Uvarint(payload)
	if k <= 0 || n < 2 || n > uint64(len(payload)) {
		return bad
	}
	payload = payload[k:]
	next := func() ([]byte, bool) {
		l, k := binary.Uvarint(payload)
		if k <= 0 || l > uint64(len(payload)-k) {
			return nil, false
		}
		b := payload[k : k+int(l)]
		payload = payload[k+int(l):]
		return b, true
	}
	meta, ok := next()
	if !ok {
		return bad
	}
	if err := jsonv2.Unmarshal(meta, v); err != nil {
		return err
	}
	it, ok := v.(*Item)
	if !ok {
		return nil
	}
	blobs := make([][]byte, n)
	for i := range blobs {
		if blobs[i], ok = next(); !ok {
			return bad
		}
	}
	m := &it.Mail
	if len(blobs) != 2+len(m.Files) || len(payload) != 0 {
		return bad
	}
	m.Text, m.HTML = string(blobs[0]), string(blobs[1])
	for i := range m.Files {
		m.Files[i].Data = append([]byte(nil), blobs[2+i]...)
	}
	return nil
}

// bodyJSON returns the JSON of a stored body, decompressing it if it was
// compressed.
func bodyJSON(v []byte) ([]byte, error) {
	if !bytes.HasPrefix(v, []byte(s2Tag)) {
		return v, nil
	}
	return decompress(v[len(s2Tag):])
}

// decompress reads an S2 block, refusing one that claims more than any
// mail before allocating it.
func decompress(block []byte) ([]byte, error) {
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
	if bytes.HasPrefix(data, []byte(blobTag)) {
		return decodeBlobs(data[len(blobTag):], v)
	}
	j, err := bodyJSON(data)
	if err != nil {
		return err
	}
	return jsonv2.Unmarshal(j, v)
}
