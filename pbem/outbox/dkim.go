package outbox

import (
	"bytes"
	"fmt"

	"github.com/wneessen/go-mail"
)

// Signer signs a composed message (pbem/dkim's Signer): Sign returns the
// DKIM-Signature header field's value for the message's bytes.
type Signer interface {
	Sign(msg []byte) (string, error)
}

// Sign adds to msg the DKIM signature s makes of it, after every other
// header. go-mail writes a message the same bytes each time (its
// multipart boundaries are kept once drawn, the attachments rewound), so
// the bytes signed are the bytes sent, with the signature written first.
func Sign(msg *mail.Msg, s Signer) error {
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return fmt.Errorf("write the mail to sign it: %w", err)
	}
	v, err := s.Sign(b.Bytes())
	if err != nil {
		return err
	}
	msg.SetGenHeaderPreformatted("DKIM-Signature", v)
	return nil
}
