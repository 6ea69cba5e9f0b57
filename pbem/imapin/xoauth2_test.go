package imapin

import "testing"

// The XOAUTH2 initial response is what Google and Microsoft document:
// "user=" {user} ^A "auth=Bearer " {token} ^A ^A.
func TestXOAuth2InitialResponse(t *testing.T) {
	mech, ir, err := (&xoauth2{user: "bot@example.org", token: "ya29.tok"}).Start()
	if err != nil || mech != "XOAUTH2" || string(ir) != "user=bot@example.org\x01auth=Bearer ya29.tok\x01\x01" {
		t.Errorf("got %q %q %v", mech, ir, err)
	}
	// On failure the server sends a JSON challenge; the answer is empty,
	// after which it fails the exchange with its message.
	if resp, err := (&xoauth2{}).Next([]byte(`{"status":"401"}`)); err != nil || len(resp) != 0 {
		t.Errorf("answer to the error challenge: %q %v", resp, err)
	}
}
