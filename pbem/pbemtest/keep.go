package pbemtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// The mailboxes kept on disk (Options.Dir), so that a mail client set up
// once finds its mail again after a restart, under the same UIDs and
// UIDVALIDITY, and its cache stays valid:
//
//	DIR/state.json       every account, mailbox, UID, flag and date
//	DIR/msg/SHA256.eml   each message's text, written once
//
// A message's text is written (and synced) before the state that names
// it, and the state is replaced whole by a rename, so a crash at any
// instant leaves the last state saved, never a torn one. Every change
// (APPEND, COPY, MOVE, STORE, EXPUNGE, CREATE, DELETE, RENAME, SUBSCRIBE
// and a delivery by the SMTP sink) is saved before its answer leaves: the
// sink says 250 only for mail on disk.
//
// go-imap's in-memory server does the IMAP; what it holds is read back
// through its exported API after each change (SELECT and SEARCH), and put
// back at start by appending in UID order, with expunged fillers where
// UIDs were used and gone.

const keepVersion = 1

type keptState struct {
	Version int                  `json:"version"`
	Users   map[string]*keptUser `json:"users"`
}

type keptUser struct {
	Password string `json:"password"`
	// UIDValidity is the last UIDVALIDITY given to a mailbox of the
	// account, deleted ones included: a mailbox created later gets a
	// greater one, as it would have without the restart.
	UIDValidity uint32                  `json:"uidvalidity"`
	Mailboxes   map[string]*keptMailbox `json:"mailboxes"`
}

type keptMailbox struct {
	UIDValidity uint32        `json:"uidvalidity"`
	UIDNext     imap.UID      `json:"uidnext"`
	Subscribed  bool          `json:"subscribed,omitempty"`
	Messages    []keptMessage `json:"messages"`
}

type keptMessage struct {
	UID   imap.UID    `json:"uid"`
	Flags []imap.Flag `json:"flags,omitempty"`
	Date  time.Time   `json:"date"`
	Text  string      `json:"text"` // the file's name under msg/
}

func (k *keptMailbox) find(uid imap.UID) *keptMessage {
	i, ok := slices.BinarySearchFunc(k.Messages, uid, func(m keptMessage, u imap.UID) int { return int(int64(m.UID) - int64(u)) })
	if !ok {
		return nil
	}
	return &k.Messages[i]
}

// keeper saves the server's mailboxes in dir. Its methods run with
// Server.keepMu held: one change at a time is applied and saved.
type keeper struct {
	dir      string
	state    keptState
	password func(name string) string // an account's, for a new entry
}

func (s *Server) keeping() bool { return s.keep != nil }

// openKeeper reads dir (creating it) and rebuilds the accounts it holds
// into s.
func (s *Server) openKeeper(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "msg"), 0o700); err != nil {
		return fmt.Errorf("mailboxes: %w", err)
	}
	k := &keeper{dir: dir, state: keptState{Version: keepVersion, Users: map[string]*keptUser{}}, password: s.passwordOf}
	b, err := os.ReadFile(filepath.Join(dir, "state.json"))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("mailboxes: %w", err)
	default:
		if err := json.Unmarshal(b, &k.state); err != nil {
			return fmt.Errorf("mailboxes: %s is damaged (%v); move it away to start with empty mailboxes", filepath.Join(dir, "state.json"), err)
		}
		if k.state.Version != keepVersion {
			return fmt.Errorf("mailboxes: %s has version %d, this orrery reads %d", filepath.Join(dir, "state.json"), k.state.Version, keepVersion)
		}
		if k.state.Users == nil {
			k.state.Users = map[string]*keptUser{}
		}
	}
	names := make([]string, 0, len(k.state.Users))
	for n := range k.state.Users {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := k.restore(s, n, k.state.Users[n]); err != nil {
			return fmt.Errorf("mailboxes of %s: %w", n, err)
		}
	}
	k.sweep()
	s.keep = k
	return nil
}

// sweep removes the texts no kept message names any more (expunged
// since the last start), and temporary files a crash left.
func (k *keeper) sweep() {
	named := map[string]bool{}
	for _, ku := range k.state.Users {
		for _, km := range ku.Mailboxes {
			for _, m := range km.Messages {
				named[m.Text] = true
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(k.dir, "msg"))
	for _, e := range entries {
		if !named[e.Name()] {
			os.Remove(filepath.Join(k.dir, "msg", e.Name()))
		}
	}
	if tmps, err := filepath.Glob(filepath.Join(k.dir, ".tmp-*")); err == nil {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
}

// restore rebuilds one account: its mailboxes in the order of their
// UIDVALIDITY, each message at its UID.
func (k *keeper) restore(s *Server, name string, ku *keptUser) error {
	u := imapmemserver.NewUser(name, ku.Password)
	s.mem.AddUser(u)
	s.users[name] = u
	s.passwords[name] = ku.Password
	boxes := make([]string, 0, len(ku.Mailboxes))
	for n := range ku.Mailboxes {
		boxes = append(boxes, n)
	}
	sort.Slice(boxes, func(i, j int) bool { return ku.Mailboxes[boxes[i]].UIDValidity < ku.Mailboxes[boxes[j]].UIDValidity })
	for _, b := range boxes {
		km := ku.Mailboxes[b]
		if err := createAt(u, b, km.UIDValidity); err != nil {
			return err
		}
		if km.Subscribed {
			u.Subscribe(b)
		}
		if err := k.refill(u, b, km); err != nil {
			return fmt.Errorf("%s: %w", b, err)
		}
	}
	// The next mailbox created gets the UIDVALIDITY it would have had.
	const filler = "orrery-filler"
	if ku.UIDValidity > 0 && (len(boxes) == 0 || ku.Mailboxes[boxes[len(boxes)-1]].UIDValidity < ku.UIDValidity) {
		if err := createAt(u, filler, ku.UIDValidity); err != nil {
			return err
		}
		u.Delete(filler)
	}
	return nil
}

// createAt creates mailbox name with UIDVALIDITY v, creating and deleting
// it until the account's counter reaches v.
func createAt(u *imapmemserver.User, name string, v uint32) error {
	for {
		if err := u.Create(name, nil); err != nil {
			return err
		}
		st, err := u.Status(name, &imap.StatusOptions{UIDValidity: true})
		if err != nil {
			return err
		}
		if st.UIDValidity >= v {
			if st.UIDValidity > v {
				return fmt.Errorf("mailbox %s: UIDVALIDITY %d is taken (the state lists mailboxes out of order)", name, v)
			}
			return nil
		}
		if err := u.Delete(name); err != nil {
			return err
		}
	}
}

// refill appends km's messages at their UIDs. A UID that was used and is
// gone gets a filler marked \Deleted, expunged at the end, so that the
// next UID is km.UIDNext.
func (k *keeper) refill(u *imapmemserver.User, box string, km *keptMailbox) error {
	var fillers imap.UIDSet
	next := imap.UID(1)
	fill := func(upTo imap.UID) error {
		for ; next < upTo; next++ {
			d, err := u.Append(box, literal{bytes.NewReader(nil), 0}, &imap.AppendOptions{Flags: []imap.Flag{imap.FlagDeleted}})
			if err != nil {
				return err
			}
			fillers.AddNum(d.UID)
		}
		return nil
	}
	for _, m := range km.Messages {
		if err := fill(m.UID); err != nil {
			return err
		}
		raw, err := os.ReadFile(filepath.Join(k.dir, "msg", m.Text))
		if err != nil {
			return fmt.Errorf("UID %d: %w", m.UID, err)
		}
		d, err := u.Append(box, literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{Flags: m.Flags, Time: m.Date})
		if err != nil {
			return err
		}
		if d.UID != m.UID {
			return fmt.Errorf("UID %d came back as %d", m.UID, d.UID)
		}
		next++
	}
	if err := fill(km.UIDNext); err != nil {
		return err
	}
	if len(fillers) == 0 {
		return nil
	}
	sess := imapmemserver.NewUserSession(u)
	defer sess.Close()
	if _, err := sess.Select(box, nil); err != nil {
		return err
	}
	return sess.Expunge(nil, &fillers)
}

// text writes raw under msg/ (once: the name is its digest) and returns
// the name.
func (k *keeper) text(raw []byte) (string, error) {
	sum := sha256.Sum256(raw)
	name := hex.EncodeToString(sum[:]) + ".eml"
	path := filepath.Join(k.dir, "msg", name)
	if _, err := os.Stat(path); err == nil {
		return name, nil
	}
	if err := writeSynced(path, raw); err != nil {
		return "", fmt.Errorf("mailboxes: %w", err)
	}
	return name, nil
}

// save replaces state.json with the state.
func (k *keeper) save() error {
	b, err := json.Marshal(&k.state)
	if err != nil {
		return err
	}
	if err := writeSynced(filepath.Join(k.dir, "state.json"), b); err != nil {
		return fmt.Errorf("mailboxes: %w", err)
	}
	return nil
}

// writeSynced writes a file whole or not at all: a temporary file, synced,
// renamed over path, and the directory synced.
func writeSynced(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func (k *keeper) user(name string) *keptUser {
	ku := k.state.Users[name]
	if ku == nil {
		ku = &keptUser{Password: k.password(name), Mailboxes: map[string]*keptMailbox{}}
		k.state.Users[name] = ku
	}
	return ku
}

// read reads mailbox box of u back from the server: its UIDs, their
// flags, UIDNEXT and UIDVALIDITY; dates and texts come from what was kept
// (texts, from extra for the UIDs just appended). A mailbox that is gone
// is dropped.
func (k *keeper) read(name string, u *imapmemserver.User, box string, extra map[imap.UID]keptMessage) error {
	ku := k.user(name)
	sess := imapmemserver.NewUserSession(u)
	defer sess.Close()
	sel, err := sess.Select(box, &imap.SelectOptions{ReadOnly: true})
	if err != nil {
		delete(ku.Mailboxes, box)
		return nil
	}
	old := ku.Mailboxes[box]
	if old != nil && old.UIDValidity != sel.UIDValidity {
		old = nil // deleted and created again
	}
	km := &keptMailbox{UIDValidity: sel.UIDValidity, UIDNext: sel.UIDNext}
	if old != nil {
		km.Subscribed = old.Subscribed
	}
	ku.UIDValidity = max(ku.UIDValidity, sel.UIDValidity)
	all, err := sess.Search(imapserver.NumKindUID, &imap.SearchCriteria{}, &imap.SearchOptions{})
	if err != nil {
		return err
	}
	flags := map[imap.UID][]imap.Flag{}
	for _, f := range sel.Flags {
		d, err := sess.Search(imapserver.NumKindUID, &imap.SearchCriteria{Flag: []imap.Flag{f}}, &imap.SearchOptions{})
		if err != nil {
			return err
		}
		for _, uid := range d.AllUIDs() {
			flags[uid] = append(flags[uid], f)
		}
	}
	for _, uid := range all.AllUIDs() {
		m, ok := extra[uid]
		if !ok && old != nil {
			if p := old.find(uid); p != nil {
				m, ok = *p, true
			}
		}
		if !ok {
			return fmt.Errorf("mailboxes: %s/%s UID %d has no kept text", name, box, uid)
		}
		m.UID, m.Flags = uid, flags[uid]
		km.Messages = append(km.Messages, m)
	}
	ku.Mailboxes[box] = km
	return nil
}

// readAll reads every mailbox of u that was kept, and box.
func (k *keeper) readAll(name string, u *imapmemserver.User, boxes ...string) error {
	ku := k.user(name)
	for b := range ku.Mailboxes {
		if !slices.Contains(boxes, b) {
			boxes = append(boxes, b)
		}
	}
	for _, b := range boxes {
		if err := k.read(name, u, b, nil); err != nil {
			return err
		}
	}
	return nil
}

// appended keeps a message just appended to box at d.UID.
func (k *keeper) appended(name string, u *imapmemserver.User, box string, raw []byte, at time.Time, d *imap.AppendData) error {
	text, err := k.text(raw)
	if err != nil {
		return err
	}
	if err := k.read(name, u, box, map[imap.UID]keptMessage{d.UID: {Date: at, Text: text}}); err != nil {
		return err
	}
	return k.save()
}

// copied keeps the messages copied from src to dest: pairs of source
// and destination UIDs, in order.
func (k *keeper) copied(name string, u *imapmemserver.User, src, dest string, from, to []imap.UID) error {
	ku := k.user(name)
	extra := map[imap.UID]keptMessage{}
	if s := ku.Mailboxes[src]; s != nil {
		for i, uid := range from {
			if p := s.find(uid); p != nil && i < len(to) {
				extra[to[i]] = *p
			}
		}
	}
	if err := k.read(name, u, dest, extra); err != nil {
		return err
	}
	if err := k.read(name, u, src, nil); err != nil {
		return err
	}
	return k.save()
}

// keptSession is an IMAP session whose changes are kept (Options.Dir):
// each one is applied by go-imap's in-memory session, read back and saved
// under Server.keepMu before its answer leaves.
type keptSession struct {
	*imapmemserver.UserSession // nil until logged in
	s                          *Server
	name                       string
	selected                   string
}

var _ imapserver.SessionIMAP4rev2 = (*keptSession)(nil)

func (x *keptSession) Login(username, password string) error {
	name := strings.ToLower(username)
	x.s.mu.Lock()
	u := x.s.users[name]
	x.s.mu.Unlock()
	if u == nil {
		return imapserver.ErrAuthFailed
	}
	if err := u.Login(name, password); err != nil {
		return err
	}
	x.UserSession, x.name = imapmemserver.NewUserSession(u), name
	x.s.logLogin("IMAP LOGIN " + username)
	return nil
}

func (x *keptSession) user() *imapmemserver.User {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	return x.s.users[x.name]
}

// change runs f, then reads back boxes (every kept mailbox if none) and
// saves, all under keepMu.
func (x *keptSession) change(f func() error, boxes ...string) error {
	x.s.keepMu.Lock()
	defer x.s.keepMu.Unlock()
	if err := f(); err != nil {
		return err
	}
	k, u := x.s.keep, x.user()
	var err error
	if len(boxes) == 0 {
		err = k.readAll(x.name, u)
	} else {
		for _, b := range boxes {
			if err = k.read(x.name, u, b, nil); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = k.save()
	}
	if err != nil {
		x.s.opts.Logger.Printf("pbemtest: %v", err)
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "the change could not be saved"}
	}
	return nil
}

func (x *keptSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	d, err := x.UserSession.Select(name, options)
	if err == nil {
		x.selected = name
	}
	return d, err
}

func (x *keptSession) Unselect() error {
	x.selected = ""
	return x.UserSession.Unselect()
}

func (x *keptSession) Create(name string, options *imap.CreateOptions) error {
	name = strings.TrimRight(name, "/")
	return x.change(func() error { return x.UserSession.Create(name, options) }, name)
}

func (x *keptSession) Delete(name string) error {
	return x.change(func() error { return x.UserSession.Delete(name) }, name)
}

func (x *keptSession) Rename(name, newName string, options *imap.RenameOptions) error {
	x.s.keepMu.Lock()
	defer x.s.keepMu.Unlock()
	k := x.s.keep
	ku := k.user(x.name)
	// Children move with their parent: keep the texts under the new names.
	moved := map[string]*keptMailbox{}
	for b, km := range ku.Mailboxes {
		if b == name || strings.HasPrefix(b, name+"/") {
			moved[newName+strings.TrimPrefix(b, name)] = km
		}
	}
	if err := x.UserSession.Rename(name, newName, options); err != nil {
		return err
	}
	for b, km := range moved {
		if _, there := ku.Mailboxes[b]; !there {
			ku.Mailboxes[b] = km
		}
	}
	boxes := []string{name}
	for b := range moved {
		boxes = append(boxes, b)
	}
	err := k.readAll(x.name, x.user(), boxes...)
	if err == nil {
		err = k.save()
	}
	return err
}

func (x *keptSession) Subscribe(name string) error {
	return x.subscribe(name, true)
}

func (x *keptSession) Unsubscribe(name string) error {
	return x.subscribe(name, false)
}

func (x *keptSession) subscribe(name string, on bool) error {
	x.s.keepMu.Lock()
	defer x.s.keepMu.Unlock()
	var err error
	if on {
		err = x.UserSession.Subscribe(name)
	} else {
		err = x.UserSession.Unsubscribe(name)
	}
	if err != nil {
		return err
	}
	k := x.s.keep
	if km := k.user(x.name).Mailboxes[name]; km != nil {
		km.Subscribed = on
		return k.save()
	}
	return nil
}

func (x *keptSession) Append(box string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return x.s.appendKept(x.name, x.user(), box, buf.Bytes(), options)
}

func (x *keptSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	return x.change(func() error { return x.UserSession.Store(w, numSet, flags, options) }, x.selected)
}

func (x *keptSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	return x.change(func() error { return x.UserSession.Expunge(w, uids) }, x.selected)
}

func (x *keptSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	x.s.keepMu.Lock()
	defer x.s.keepMu.Unlock()
	d, err := x.UserSession.Copy(numSet, dest)
	if err != nil {
		return nil, err
	}
	if err := x.s.keep.copied(x.name, x.user(), x.selected, dest, uidList(d.SourceUIDs), uidList(d.DestUIDs)); err != nil {
		x.s.opts.Logger.Printf("pbemtest: %v", err)
	}
	return d, nil
}

// Move pairs the messages gone from the selected mailbox with the UIDs
// that came to dest, in order, as go-imap's server moves them (under
// keepMu no other change runs between).
func (x *keptSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	x.s.keepMu.Lock()
	defer x.s.keepMu.Unlock()
	k, u := x.s.keep, x.user()
	var before []keptMessage
	if km := k.user(x.name).Mailboxes[x.selected]; km != nil {
		before = slices.Clone(km.Messages)
	}
	st, err := u.Status(dest, &imap.StatusOptions{UIDNext: true})
	if err != nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	}
	if err := x.UserSession.Move(w, numSet, dest); err != nil {
		return err
	}
	err = func() error {
		after, err := u.Status(dest, &imap.StatusOptions{UIDNext: true})
		if err != nil {
			return err
		}
		if err := k.read(x.name, u, x.selected, nil); err != nil {
			return err
		}
		src := k.user(x.name).Mailboxes[x.selected]
		extra := map[imap.UID]keptMessage{}
		next := st.UIDNext
		for _, m := range before {
			if src != nil && src.find(m.UID) != nil {
				continue // still there
			}
			if next >= after.UIDNext {
				break
			}
			extra[next] = m
			next++
		}
		if err := k.read(x.name, u, dest, extra); err != nil {
			return err
		}
		return k.save()
	}()
	if err != nil {
		// The move is done in memory and answered: say it was not kept.
		x.s.opts.Logger.Printf("pbemtest: keeping a move to %s: %v", dest, err)
	}
	return nil
}

// appendKept appends raw to box of account name and keeps it, all under
// keepMu; the answer leaves only once the message is on disk.
func (s *Server) appendKept(name string, u *imapmemserver.User, box string, raw []byte, options *imap.AppendOptions) (*imap.AppendData, error) {
	s.keepMu.Lock()
	defer s.keepMu.Unlock()
	o := *options
	if o.Time.IsZero() {
		o.Time = time.Now()
	}
	d, err := u.Append(box, literal{bytes.NewReader(raw), int64(len(raw))}, &o)
	if err != nil {
		return nil, err
	}
	if err := s.keep.appended(name, u, box, raw, o.Time, d); err != nil {
		s.opts.Logger.Printf("pbemtest: %v", err)
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "the message could not be saved"}
	}
	return d, nil
}

func (s *Server) passwordOf(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.passwords[name]
}

// keepBox runs f (a change to mailbox box of account name made outside
// IMAP: a delivery's CREATE, Recreate) and keeps its outcome.
func (s *Server) keepBox(name, box string, f func(u *imapmemserver.User) error) error {
	s.mu.Lock()
	u := s.users[name]
	s.mu.Unlock()
	s.keepMu.Lock()
	defer s.keepMu.Unlock()
	if err := f(u); err != nil {
		return err
	}
	if err := s.keep.readAll(name, u, box); err != nil {
		return err
	}
	return s.keep.save()
}

// appendKeptCreating is Append with Options.Dir: the mailbox is created
// if need be, and both are kept.
func (s *Server) appendKeptCreating(name string, u *imapmemserver.User, box string, raw []byte) error {
	_, err := s.appendKept(name, u, box, raw, &imap.AppendOptions{})
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeTryCreate {
		if err := s.keepBox(name, box, func(u *imapmemserver.User) error { return u.Create(box, nil) }); err != nil {
			return err
		}
		_, err = s.appendKept(name, u, box, raw, &imap.AppendOptions{})
	}
	if err == nil {
		s.signal()
	}
	return err
}

func uidList(s imap.UIDSet) []imap.UID {
	l, _ := s.Nums()
	return l
}
