package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"orrery/engine/store"
)

// The control socket lets the CLI work while the daemon holds the database's
// exclusive lock: a command that finds the file locked sends its whole
// command line (and what it read of standard input) to the daemon, which
// runs it in-process against its open store and sends the output back. So
// every command works the same with or without a daemon, and there is no
// second API to keep in step with the first.
//
// The socket sits next to the database (orrery.db.sock), is created with
// owner-only permissions, and speaks one JSON request and one JSON reply
// per connection.

// ControlPath is the control socket of the database at db.
func ControlPath(db string) string { return db + ".sock" }

type controlRequest struct {
	Args  []string `json:"args"`
	Stdin []byte   `json:"stdin,omitempty"`
}

type controlReply struct {
	Stdout string `json:"stdout"`
	Error  string `json:"error,omitempty"`
}

// runOrForward runs a command; if the database is held by a daemon that has
// a control socket, it runs it there instead.
func runOrForward(ctx context.Context, e *env, args []string) error {
	rec := &recorder{r: e.stdin}
	local := *e
	local.stdin = rec
	err := run(ctx, &local, args)
	var locked *lockedError
	if !errors.As(err, &locked) || !errors.Is(err, store.ErrLocked) {
		return err
	}
	sock := ControlPath(locked.db)
	if _, statErr := os.Stat(sock); statErr != nil {
		return err
	}
	rest, _ := io.ReadAll(io.LimitReader(e.stdin, 16<<20))
	stdin := append(rec.buf.Bytes(), rest...)
	// The daemon runs elsewhere, with another working directory: files
	// named on the command line are read here and sent as standard input.
	args, file, err := inlineFile(args)
	if err != nil {
		return err
	}
	if file != nil {
		stdin = file
	}
	// game export --out: the daemon prints the export, and it is written
	// here, owner-only: the daemon writes no file a forwarded command names.
	exportOut := ""
	if len(args) >= 2 && args[0] == "game" && args[1] == "export" {
		args, exportOut = takeFlag(args, "out")
	}
	var out bytes.Buffer
	fe := *e
	fe.stdout = &out
	err = forward(ctx, &fe, sock, controlRequest{Args: args, Stdin: stdin})
	if exportOut != "" {
		if err != nil {
			return err
		}
		if err := writeOwnerOnly(exportOut, out.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %s (mode 0600), through the running daemon\n", exportOut)
		return nil
	}
	if got, ferr := receiveFiles(e, out.String(), flagValue(args, "out")); got {
		return errors.Join(err, ferr)
	}
	io.Copy(e.stdout, &out)
	return err
}

// takeFlag removes --name VALUE (or --name=VALUE, one or two dashes) from
// args and returns the rest and VALUE ("" when absent).
func takeFlag(args []string, name string) ([]string, string) {
	out := make([]string, 0, len(args))
	value := ""
	for i := 0; i < len(args); i++ {
		n, v, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || n != name {
			out = append(out, args[i])
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			v = args[i]
		}
		value = v
	}
	return out, value
}

// inlineFile finds a -f FILE argument (other than -f -), reads FILE and
// returns the arguments with "-f -" in its place, and the file's contents.
func inlineFile(args []string) ([]string, []byte, error) {
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(out[i], "-"), "=")
		if !strings.HasPrefix(out[i], "-") || name != "f" {
			continue
		}
		if !hasValue {
			if i+1 >= len(out) {
				return out, nil, nil
			}
			value = out[i+1]
			out = append(out[:i+1], out[i+2:]...)
		}
		out[i] = "-f=-"
		if value == "-" {
			return out, nil, nil
		}
		data, err := os.ReadFile(value)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", value, err)
		}
		return out, data, nil
	}
	return out, nil, nil
}

// namesAFile reports whether forwarded arguments ask the daemon to read or
// write a file: the daemon refuses, since its files are not the sender's.
func namesAFile(args []string) bool {
	if _, out := takeFlag(args, "out"); out != "" && len(args) >= 2 && args[0] == "game" && args[1] == "export" {
		return true // game archive --out sends its files back instead
	}
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "f" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		if value != "-" {
			return true
		}
	}
	return false
}

// recorder keeps what a command read, to send it on if the command must be
// forwarded.
type recorder struct {
	r   io.Reader
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.buf.Write(p[:n])
	return n, err
}

func forward(ctx context.Context, e *env, sock string, req controlRequest) error {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "unix", sock)
	if err != nil {
		return fmt.Errorf("the database is locked and its daemon does not answer on %s: %w", sock, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return fmt.Errorf("send to the daemon: %w", err)
	}
	var rep controlReply
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&rep); err != nil {
		return fmt.Errorf("read the daemon's answer: %w", err)
	}
	io.WriteString(e.stdout, rep.Stdout)
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	return nil
}

// ServeControl listens on the control socket of db until ctx is done and
// runs each command it receives against st. The daemon calls it.
func ServeControl(ctx context.Context, e *env, st *store.Store, db string, log *slog.Logger) error {
	sock := ControlPath(db)
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove stale control socket: %w", err)
	}
	ln, err := listenOwnerOnly(sock)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	defer func() {
		wg.Wait()
		os.Remove(sock)
	}()
	// Commands run one at a time: bbolt serialises writers anyway, and a
	// GM's commands are rare.
	var mu sync.Mutex
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("control socket: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(5 * time.Minute))
			var req controlRequest
			if err := json.NewDecoder(io.LimitReader(conn, 32<<20)).Decode(&req); err != nil {
				log.Warn("control socket: bad request", "err", err)
				return
			}
			if namesAFile(req.Args) {
				json.NewEncoder(conn).Encode(controlReply{Error: "the daemon reads and writes no files named by a forwarded command: send the file's contents on standard input (-f -), and write its output yourself"})
				return
			}
			var out bytes.Buffer
			local := &env{stdin: bytes.NewReader(req.Stdin), stdout: &out, stderr: &out, rulesets: e.rulesets, options: e.options, shared: st, backup: e.backup}
			mu.Lock()
			err := run(ctx, local, req.Args)
			mu.Unlock()
			rep := controlReply{Stdout: out.String()}
			if err != nil {
				rep.Error = err.Error()
			}
			log.Info("control command", "args", req.Args, "err", err)
			json.NewEncoder(conn).Encode(rep)
		}()
	}
}
