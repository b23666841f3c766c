package session

import (
	"encoding/json"
	"strings"
	"testing"
)

// The recreate token and the creation signal are JSON that
// go.temporal.io/sdk writes and reads: Go field names, no tags.
func TestWireShapes(t *testing.T) {
	if got := string(RecreateToken("res@host")); got != `{"Taskqueue":"res@host"}` {
		t.Errorf("token %s", got)
	}
	b, err := json.Marshal(CreationResponse{Taskqueue: "q", HostName: "h", ResourceID: "r"})
	if err != nil || string(b) != `{"Taskqueue":"q","HostName":"h","ResourceID":"r"}` {
		t.Errorf("creation response %s, %v", b, err)
	}
	if got := CreationTaskQueue("orders"); got != "orders__internal_session_creation" {
		t.Errorf("creation queue %s", got)
	}
	if got := ResourceTaskQueue("id", "host"); got != "id@host" {
		t.Errorf("resource queue %s", got)
	}
}

func TestParseRecreateToken(t *testing.T) {
	q, err := ParseRecreateToken(RecreateToken("res@host"))
	if err != nil || q != "res@host" {
		t.Fatalf("round trip: %q, %v", q, err)
	}
	for token, want := range map[string]string{
		"not json": "not the JSON",
		`{}`:       "names no task queue",
		`[1]`:      "not the JSON",
	} {
		if _, err := ParseRecreateToken([]byte(token)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("token %s: error %v, want one saying %q", token, err, want)
		}
	}
}
