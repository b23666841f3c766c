package testserver

import (
	"testing"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
)

func TestCloneKeepsEmptyPayloadDataEmpty(t *testing.T) {
	empty := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte{}}
	none := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/null")}}
	full := &commonpb.Payload{Data: []byte("x")}
	req := &workflowservice.RespondWorkflowTaskCompletedRequest{Commands: []*commandpb.Command{{
		Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			Input:  &commonpb.Payloads{Payloads: []*commonpb.Payload{empty, none, full}},
			Header: &commonpb.Header{Fields: map[string]*commonpb.Payload{"h": empty}},
		}},
	}}}
	c := clone(req)
	a := c.GetCommands()[0].GetScheduleActivityTaskCommandAttributes()
	in := a.GetInput().GetPayloads()
	if in[0].Data == nil || len(in[0].Data) != 0 {
		t.Errorf("empty data became %#v, want empty and not nil", in[0].Data)
	}
	if in[1].Data != nil {
		t.Errorf("nil data became %#v", in[1].Data)
	}
	if string(in[2].Data) != "x" || &in[2].Data[0] == &full.Data[0] {
		t.Errorf("data %q, want a copy of %q", in[2].Data, full.Data)
	}
	if h := a.GetHeader().GetFields()["h"]; h.Data == nil {
		t.Error("a header's empty data became nil")
	}
	if in[0] == empty {
		t.Error("the payload was not copied")
	}
}
