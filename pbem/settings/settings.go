// Package settings keeps each player's settings, by mail address, across
// games: the language and the time zone of the mails they get (LANG, TZ),
// whether they are reminded of missing orders (REMINDERS) and whether they
// get one digest a day instead of a report each step (DIGEST); chosen by
// mail (SET LANG ru, SETTINGS to see them), by the GM (orrery player set),
// or, in Burning Planets, by the game's own LANG order.
//
// A setting is a key and a value, so that a new one is a line in Keys: the
// SET command, SETTINGS, `orrery player` and the
// store all take it from there. They live in the bbolt store under
// mail/settings (engine/store/schema.go), one JSON object per address.
package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	// The time-zone database, for a minimal install with no
	// /usr/share/zoneinfo: TZ Europe/Moscow must work everywhere.
	_ "time/tzdata"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/inmail"
)

// Key is one setting a player may choose.
type Key struct {
	Name    string // as written in SET: "LANG"
	Default string // what applies when it is not set
	// Help says what it does, in English (the mail templates translate
	// it: templates/lang/*.po).
	Help    string
	Example string // "SET LANG ru"
	// Parse reads a value as a player writes it and returns its
	// canonical form, or an error worded for the player.
	Parse func(string) (string, error)
}

// The keys, by name.
const (
	Lang = "LANG"
	TZ   = "TZ"
	// Reminders "off" stops the reminders and late notices of every
	// game; Digest "on" gathers every game's news into one mail a day.
	Reminders = "REMINDERS"
	Digest    = "DIGEST"
	// Pictures "off" leaves the board picture out of the reports: a
	// smaller mail for a reader whose client shows no images or who pays
	// for the bytes, and a picture the server need not draw.
	Pictures = "PICTURES"
	// AutoVacation "off" keeps the yearly allowance of vacation days
	// from being spent for the address (engine/game allowance.go).
	AutoVacation = "AUTOVACATION"
)

// Keys lists every setting, in the order SETTINGS shows them.
var Keys = []Key{
	{Name: Lang, Default: string(lang.Default), Example: "SET LANG ru", Parse: parseLang,
		Help: "the language of my mails to you: en (English) or ru (Russian)"},
	{Name: TZ, Default: "UTC", Example: "SET TZ Europe/Moscow", Parse: parseZone,
		Help: "the time zone of the times in my mails (UTC is shown beside them)"},
	{Name: Reminders, Default: "on", Example: "SET REMINDERS off", Parse: parseOnOff,
		Help: "on: a reminder before a deadline when your orders are missing, and a note when they are late; off: none"},
	{Name: Digest, Default: "off", Example: "SET DIGEST on", Parse: parseOnOff,
		Help: "on: one mail a day (at 07:00 in your time zone) with every game's news, instead of a report each step; replies to your mails, reminders and press still come at once"},
	{Name: Pictures, Default: "on", Example: "SET PICTURES off", Parse: parseOnOff,
		Help: "on: a picture of the board in each report; off: none (a smaller mail; the report's text, board and all, is the same)"},
	{Name: AutoVacation, Default: "on", Example: "SET AUTOVACATION off", Parse: parseOnOff,
		Help: "on: when a deadline passes without your orders, the game waits for you on your yearly vacation days (where the server gives them), and everyone is told; off: your defaults apply"},
}

func parseOnOff(v string) (string, error) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return "on", nil
	case "off", "no", "false", "0":
		return "off", nil
	}
	return "", refuse(lang.M("%q is neither on nor off", v), lang.M("write on or off"))
}

// Find returns the key named name (any case).
func Find(name string) (Key, bool) {
	for _, k := range Keys {
		if strings.EqualFold(k.Name, name) {
			return k, true
		}
	}
	return Key{}, false
}

// Names lists the keys' names.
func Names() []string {
	var out []string
	for _, k := range Keys {
		out = append(out, k.Name)
	}
	return out
}

// Error is a value or key a player got wrong, worded for them: Why and
// Hint are messages (written in the reader's language by the mail
// side), Msg and Fix their English, for logs and the command line.
type Error struct {
	Msg, Fix  string
	Why, Hint lang.Msg
}

func refuse(why, hint lang.Msg) *Error {
	return &Error{Msg: why.English(), Fix: hint.English(), Why: why, Hint: hint}
}

func (e *Error) Error() string { return e.Msg + " (" + e.Fix + ")" }

func parseLang(v string) (string, error) {
	t, ok := lang.Parse(v)
	if !ok {
		var names []string
		for _, t := range lang.Supported {
			names = append(names, string(t))
		}
		return "", refuse(lang.M("I cannot write in %q", v), lang.M("write one of: %s", strings.Join(names, ", ")))
	}
	return string(t), nil
}

func parseZone(v string) (string, error) {
	if strings.EqualFold(v, "UTC") || strings.EqualFold(v, "GMT") || v == "Z" {
		return "UTC", nil
	}
	z, err := time.LoadLocation(v)
	if err != nil || v == "" || v == "Local" || strings.ContainsAny(v, " \\") {
		return "", refuse(lang.M("no time zone is named %q", v),
			lang.M("write a zone of the tz database, like Europe/Moscow, America/New_York or Asia/Tokyo"))
	}
	return z.String(), nil
}

// Settings are one address's settings, by key name; a key not set is
// absent.
type Settings map[string]string

// Lang is the language chosen ("" when none was: the caller decides, see
// the mail side's rules for games that write in several languages).
func (s Settings) Lang() lang.Tag {
	if t, ok := lang.Parse(s[Lang]); ok {
		return t
	}
	return ""
}

// Zone is the time zone chosen, UTC when none was.
func (s Settings) Zone() *time.Location {
	if z, err := time.LoadLocation(s[TZ]); err == nil && s[TZ] != "" {
		return z
	}
	return time.UTC
}

// RemindersOff reports whether the address asked for no reminders.
func (s Settings) RemindersOff() bool { return s[Reminders] == "off" }

// PicturesOff reports whether the address asked for reports without the
// board picture.
func (s Settings) PicturesOff() bool { return s[Pictures] == "off" }

// DigestOn reports whether the address asked for a daily digest.
func (s Settings) DigestOn() bool { return s[Digest] == "on" }

// Address is the form of an address settings are kept under: the bare
// address as game.CanonAddress compares addresses (ASCII case folded,
// the domain's IDNA form; no Unicode folding, so that a lookalike such as
// a Kelvin-sign Kim@ cannot read or change kim@'s settings).
func Address(addr string) string { return game.CanonAddress(inmail.Bare(addr)) }

func bucket(tx store.Tx, create bool) (store.Bucket, error) {
	return store.MailBucket(tx, store.BucketMailSettings, create)
}

// Get reads addr's settings inside tx (none is no error).
func Get(tx store.Tx, addr string) (Settings, error) {
	out := Settings{}
	b, err := bucket(tx, false)
	if err != nil || b == nil {
		return out, err
	}
	v := b.Get([]byte(Address(addr)))
	if v == nil {
		return out, nil
	}
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("settings of %s: %w", addr, err)
	}
	return out, nil
}

// Set sets key to value for addr inside tx and returns the value as
// stored. An empty value, "default" or "-" clears the key. A wrong key or
// value is an *Error.
func Set(tx store.Tx, addr, key, value string) (string, error) {
	k, ok := Find(key)
	if !ok {
		return "", refuse(lang.M("there is no setting %q", key), lang.M("the settings are %s", strings.Join(Names(), ", ")))
	}
	value = strings.TrimSpace(value)
	if value != "" && !strings.EqualFold(value, "default") && value != "-" {
		var err error
		if value, err = k.Parse(value); err != nil {
			return "", err
		}
	} else {
		value = ""
	}
	s, err := Get(tx, addr)
	if err != nil {
		return "", err
	}
	if value == "" {
		delete(s, k.Name)
	} else {
		s[k.Name] = value
	}
	b, err := bucket(tx, true)
	if err != nil {
		return "", err
	}
	if len(s) == 0 {
		return "", b.Delete([]byte(Address(addr)))
	}
	data, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	return value, b.Put([]byte(Address(addr)), data)
}

// Load reads addr's settings from st.
func Load(ctx context.Context, st *store.Store, addr string) (Settings, error) {
	var out Settings
	err := st.View(ctx, func(tx store.Tx) error {
		var err error
		out, err = Get(tx, addr)
		return err
	})
	return out, err
}

// Put sets one key of addr in st (see Set).
func Put(ctx context.Context, st *store.Store, addr, key, value string) (string, error) {
	var out string
	err := st.Update(ctx, func(tx store.Tx) error {
		var err error
		out, err = Set(tx, addr, key, value)
		return err
	})
	return out, err
}

// Sorted lists s's keys in Keys order, then any unknown ones (a key
// dropped from a later version), sorted.
func (s Settings) Sorted() []string {
	var out, rest []string
	for _, k := range Keys {
		if _, ok := s[k.Name]; ok {
			out = append(out, k.Name)
		}
	}
	for k := range s {
		if _, ok := Find(k); !ok {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
