package outbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A queued mail's body is stored compressed with zstd. A report's body is
// some 33 kB of JSON (its text, its HTML and report.json in base64), and
// on bbolt every byte of it is written more than once: when it is queued,
// and again with its leaf's neighbours when one of them is deleted. In a
// backlog drain bbolt wrote 205–316 kB to disk for every mail sent, and
// the mail servers beside it answered more slowly for it. zstd at its
// default level takes a body to about a fifth in some 80 µs, and reads it
// back in about 25 µs (stdlib flate at its fastest level: 4.4 times smaller
// in 280 µs), so a turn's six mails cost half a millisecond more to queue
// and five times less to write (BenchmarkBody). PostgreSQL compressed the
// values itself (lz4, migration 0002); it now gets them small.
//
// A body that starts with zstd's magic number is compressed; any other is
// the JSON an older Orrery wrote (a JSON object starts with '{'), and is
// read as it is. The dead letters (BucketDead) are stored the same way.
// Small bodies (under minCompress bytes: a short acknowledgement) are
// left as JSON, where a frame's header would cost more than it saves.

// zstdMagic starts every zstd frame (RFC 8878, 3.1.1).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// minCompress is the smallest body worth compressing.
const minCompress = 512

// maxBody bounds what a body decompresses to: a mail the daemon queued is
// at most a few megabytes (the hostile-mail limits cap what it quotes); a
// frame claiming more is corrupt.
const maxBody = 64 << 20

// codec holds one zstd encoder and decoder for the process: both are safe
// for concurrent EncodeAll and DecodeAll, and each carries buffers worth
// reusing. They hold no state between calls that changes what they write.
var codec = sync.OnceValues(func() (*zstd.Encoder, *zstd.Decoder) {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderConcurrency(2),
		zstd.WithWindowSize(1<<20),
		zstd.WithLowerEncoderMem(true),
		zstd.WithEncoderCRC(true))
	if err != nil {
		panic(fmt.Sprintf("outbox: zstd encoder: %v", err))
	}
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(2),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(maxBody))
	if err != nil {
		panic(fmt.Sprintf("outbox: zstd decoder: %v", err))
	}
	return enc, dec
})

// encodeBody returns v (an Item) as a queued body: its JSON, compressed
// when it is large enough to gain by it.
func encodeBody(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(data) < minCompress {
		return data, nil
	}
	enc, _ := codec()
	return enc.EncodeAll(data, make([]byte, 0, len(data)/3)), nil
}

// bodyJSON returns the JSON of a stored body, decompressing it if it was
// compressed.
func bodyJSON(v []byte) ([]byte, error) {
	if !bytes.HasPrefix(v, zstdMagic) {
		return v, nil
	}
	_, dec := codec()
	data, err := dec.DecodeAll(v, nil)
	if err != nil {
		return nil, fmt.Errorf("decompressing the stored mail: %w", err)
	}
	return data, nil
}

// decodeBody reads a stored body into v.
func decodeBody(data []byte, v any) error {
	j, err := bodyJSON(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(j, v)
}
