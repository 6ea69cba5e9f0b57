package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// runVersion prints what an operator needs to report a bug or to check
// which build runs: the module version, the VCS revision and its time, and
// the Go version, all read from the binary's own build information.
func runVersion(_ context.Context, e *env, args []string) error {
	fs := flags(e, "version", "version", "Prints the build: module version, VCS revision and time, Go version.")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	fmt.Fprint(e.stdout, versionText(bi))
	return nil
}

// versionText formats build information; bi may be nil (a binary built
// without module support).
func versionText(bi *debug.BuildInfo) string {
	var b strings.Builder
	version, goVersion := "unknown", runtime.Version()
	settings := map[string]string{}
	if bi != nil {
		version = bi.Main.Version
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
	}
	if version == "" {
		version = "(devel)"
	}
	fmt.Fprintf(&b, "orrery %s\n", version)
	if rev := settings["vcs.revision"]; rev != "" {
		if settings["vcs.modified"] == "true" {
			rev += " (with uncommitted changes)"
		}
		fmt.Fprintf(&b, "  revision  %s\n", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, "  committed %s\n", t)
		}
	} else {
		b.WriteString("  revision  unknown: built without version control information (go run,\n" +
			"            GOFLAGS=-buildvcs=false, or a git worktree); build from a clone\n" +
			"            with go install -buildvcs=true ./cmd/orrery\n")
	}
	osArch := runtime.GOOS + "/" + runtime.GOARCH
	if bi != nil && settings["GOOS"] != "" {
		osArch = settings["GOOS"] + "/" + settings["GOARCH"]
	}
	fmt.Fprintf(&b, "  go        %s %s\n", goVersion, osArch)
	return b.String()
}
