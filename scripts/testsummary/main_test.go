package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	input := strings.Join([]string{
		`{"Action":"start","Package":"p/ok"}`,
		`{"Action":"run","Package":"p/ok","Test":"TestA"}`,
		`{"Action":"output","Package":"p/ok","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"p/ok","Test":"TestA","Output":"    a_test.go:9: quiet log\n"}`,
		`{"Action":"pass","Package":"p/ok","Test":"TestA"}`,
		`{"Action":"skip","Package":"p/ok","Test":"TestB"}`,
		`{"Action":"output","Package":"p/ok","Output":"PASS\n"}`,
		`{"Action":"output","Package":"p/ok","Output":"ok  \tp/ok\t0.1s\n"}`,
		`{"Action":"pass","Package":"p/ok"}`,
		`{"Action":"output","Package":"p/bad","Test":"TestC","Output":"    c_test.go:3: boom\n"}`,
		`{"Action":"fail","Package":"p/bad","Test":"TestC"}`,
		`{"Action":"output","Package":"p/bad","Output":"FAIL\tp/bad\t0.2s\n"}`,
		`{"Action":"fail","Package":"p/bad"}`,
		`{"ImportPath":"p/broken","Action":"build-output","Output":"p/broken/x.go:1: syntax error\n"}`,
		`{"ImportPath":"p/broken","Action":"build-fail"}`,
		`{"Action":"output","Package":"p/broken","Output":"FAIL\tp/broken [build failed]\n"}`,
		`{"Action":"fail","Package":"p/broken"}`,
		`{"Action":"output","Package":"p/main","Output":"testharness: temporal CLI not found\n"}`,
		`{"Action":"run","Package":"p/hang","Test":"TestHang"}`,
		`{"Action":"output","Package":"p/hang","Test":"TestHang","Output":"panic: test timed out after 10m0s\n"}`,
		`{"Action":"output","Package":"p/hang","Test":"TestHang","Output":"goroutine 8 [select (no cases)]:\n"}`,
		`{"Action":"output","Package":"p/hang","Output":"FAIL\tp/hang\t600.0s\n"}`,
		`{"Action":"fail","Package":"p/hang"}`,
		`{"Action":"fail","Package":"p/main"}`,
		`go: warning: plain text`,
	}, "\n")
	var out bytes.Buffer

	got, err := summarize(strings.NewReader(input), &out)

	if err != nil {
		t.Fatal(err)
	}
	if want := (totals{passed: 1, failed: 4, skipped: 1}); got != want {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
	for _, want := range []string{
		"ok  \tp/ok\t0.1s\n",
		"    c_test.go:3: boom\n",
		"FAIL\tp/bad\t0.2s\n",
		"p/broken/x.go:1: syntax error\n",
		"testharness: temporal CLI not found\n",
		"go: warning: plain text\n",
		"--- TestHang had not finished when p/hang failed; its output:\npanic: test timed out after 10m0s\ngoroutine 8 [select (no cases)]:\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	for _, unwanted := range []string{"quiet log", "=== RUN", "PASS\n"} {
		if strings.Contains(out.String(), unwanted) {
			t.Errorf("report shows %q:\n%s", unwanted, out.String())
		}
	}
}
