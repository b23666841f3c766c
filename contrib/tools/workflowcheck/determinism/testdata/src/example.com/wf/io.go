package wf

import (
	"errors"
	"fmt"
	"io"
	"io/ioutil"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/durable-go/sdk/workflow"
)

func IOWorkflow(ctx workflow.Context) (string, error) { // want IOWorkflow:"nondeterministic"
	data, err := os.ReadFile("config")  // want `os.ReadFile called: IOWorkflow; do I/O in an activity`
	if errors.Is(err, os.ErrNotExist) { // sentinel errors are fine
		return "", err
	}
	_ = os.Getenv("HOME")                     // want `os.Getenv called`
	fmt.Fprintln(os.Stdout, "hi")             // want `os.Stdout read: IOWorkflow; do I/O in an activity`
	fmt.Println("hi")                         // want `fmt.Println called: IOWorkflow; use workflow.GetLogger`
	log.Printf("x")                           // want `log.Printf called`
	slog.Info("x")                            // want `log/slog.Info called`
	_, _ = http.Get("http://example")         // want `net/http.Get called`
	_, _ = ioutil.ReadFile("x")               // want `io/ioutil.ReadFile called`
	_, _ = io.ReadAll(strings.NewReader("x")) // want `io.ReadAll called`
	_, _ = filepath.Glob("*")                 // want `path/filepath.Glob called`
	_ = exec.Command("true").Run()            // want `os/exec.Command called` `\(\*os/exec.Cmd\).Run called`

	// Formatting, strings and paths are computations.
	s := fmt.Sprintf("%s/%d", filepath.Join("a", "b"), len(data))
	if errors.Is(err, io.EOF) {
		s += "eof"
	}
	return strings.ToUpper(s), nil
}
