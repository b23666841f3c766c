package temporalnexus

import (
	"github.com/nexus-rpc/sdk-go/nexus"
	commonpb "go.temporal.io/api/common/v1"
	apinexus "go.temporal.io/api/temporalnexus"
)

// ConvertLinkWorkflowEventToNexusLink converts a link to a workflow's
// history event to a Nexus link.
//
// NOTE: Experimental
func ConvertLinkWorkflowEventToNexusLink(we *commonpb.Link_WorkflowEvent) nexus.Link {
	return apinexus.ConvertLinkWorkflowEventToNexusLink(we)
}

// ConvertNexusLinkToLinkWorkflowEvent converts a Nexus link back to a
// link to a workflow's history event.
//
// NOTE: Experimental
func ConvertNexusLinkToLinkWorkflowEvent(link nexus.Link) (*commonpb.Link_WorkflowEvent, error) {
	return apinexus.ConvertNexusLinkToLinkWorkflowEvent(link)
}

// ConvertLinkNexusOperationToNexusLink converts a link to a Nexus
// operation to a Nexus link.
//
// NOTE: Experimental
func ConvertLinkNexusOperationToNexusLink(no *commonpb.Link_NexusOperation) nexus.Link {
	return apinexus.ConvertLinkNexusOperationToNexusLink(no)
}

// ConvertNexusLinkToLinkNexusOperation converts a Nexus link back to a
// link to a Nexus operation.
//
// NOTE: Experimental
func ConvertNexusLinkToLinkNexusOperation(link nexus.Link) (*commonpb.Link_NexusOperation, error) {
	return apinexus.ConvertNexusLinkToLinkNexusOperation(link)
}

// ConvertWorkflowLinkToNexusLink converts a link to a workflow (no
// event) to a Nexus link.
//
// NOTE: Experimental
func ConvertWorkflowLinkToNexusLink(workflowLink *commonpb.Link_Workflow) nexus.Link {
	return apinexus.ConvertLinkWorkflowToNexusLink(workflowLink)
}

// ConvertNexusLinkToLinkWorkflow converts a Nexus link back to a link to
// a workflow.
//
// NOTE: Experimental
func ConvertNexusLinkToLinkWorkflow(link nexus.Link) (*commonpb.Link_Workflow, error) {
	return apinexus.ConvertNexusLinkToLinkWorkflow(link)
}

// ConvertLinkActivityToNexusLink converts a link to an activity to a
// Nexus link.
//
// NOTE: Experimental
func ConvertLinkActivityToNexusLink(a *commonpb.Link_Activity) nexus.Link {
	return apinexus.ConvertLinkActivityToNexusLink(a)
}

// ConvertNexusLinkToLinkActivity converts a Nexus link back to a link to
// an activity.
//
// NOTE: Experimental
func ConvertNexusLinkToLinkActivity(link nexus.Link) (*commonpb.Link_Activity, error) {
	return apinexus.ConvertNexusLinkToLinkActivity(link)
}

// ConvertLinkCallbackToNexusLink converts a link to a callback to a Nexus
// link.
//
// NOTE: Experimental
func ConvertLinkCallbackToNexusLink(cb *commonpb.Link_Callback) (nexus.Link, error) {
	return apinexus.ConvertLinkCallbackToNexusLink(cb)
}

// ConvertNexusLinkToLinkCallback converts a Nexus link back to a link to
// a callback.
//
// NOTE: Experimental
func ConvertNexusLinkToLinkCallback(link nexus.Link) (*commonpb.Link_Callback, error) {
	return apinexus.ConvertNexusLinkToLinkCallback(link)
}

// ConvertCommonLinkToNexusLink converts a link of any kind to a Nexus
// link; the zero Link when none of its kinds is set, or when its kind has
// no Nexus form.
//
// NOTE: Experimental
func ConvertCommonLinkToNexusLink(commonLink *commonpb.Link) nexus.Link {
	switch commonLink.GetVariant().(type) {
	case *commonpb.Link_WorkflowEvent_:
		return ConvertLinkWorkflowEventToNexusLink(commonLink.GetWorkflowEvent())
	case *commonpb.Link_Workflow_:
		return ConvertWorkflowLinkToNexusLink(commonLink.GetWorkflow())
	case *commonpb.Link_NexusOperation_:
		return ConvertLinkNexusOperationToNexusLink(commonLink.GetNexusOperation())
	case *commonpb.Link_Activity_:
		return ConvertLinkActivityToNexusLink(commonLink.GetActivity())
	case *commonpb.Link_Callback_:
		if link, err := ConvertLinkCallbackToNexusLink(commonLink.GetCallback()); err == nil {
			return link
		}
	}
	return nexus.Link{}
}

// requestLinks converts the links a start request carries (the caller's
// event) to the links a workflow start sends; links of kinds it does not
// know are left out, with a warning, as go.temporal.io/sdk does.
func requestLinks(links []nexus.Link, warn func(msg string, keyvals ...any)) ([]*commonpb.Link, error) {
	var out []*commonpb.Link
	for _, l := range links {
		var link *commonpb.Link
		switch l.Type {
		case linkTypeWorkflowEvent:
			we, err := ConvertNexusLinkToLinkWorkflowEvent(l)
			if err != nil {
				return nil, err
			}
			link = &commonpb.Link{Variant: &commonpb.Link_WorkflowEvent_{WorkflowEvent: we}}
		case linkTypeWorkflow:
			w, err := ConvertNexusLinkToLinkWorkflow(l)
			if err != nil {
				return nil, err
			}
			link = &commonpb.Link{Variant: &commonpb.Link_Workflow_{Workflow: w}}
		case linkTypeNexusOperation:
			no, err := ConvertNexusLinkToLinkNexusOperation(l)
			if err != nil {
				return nil, err
			}
			link = &commonpb.Link{Variant: &commonpb.Link_NexusOperation_{NexusOperation: no}}
		case linkTypeActivity:
			a, err := ConvertNexusLinkToLinkActivity(l)
			if err != nil {
				return nil, err
			}
			link = &commonpb.Link{Variant: &commonpb.Link_Activity_{Activity: a}}
		case linkTypeCallback:
			cb, err := ConvertNexusLinkToLinkCallback(l)
			if err != nil {
				return nil, err
			}
			link = &commonpb.Link{Variant: &commonpb.Link_Callback_{Callback: cb}}
		default:
			warn("ignoring unsupported link data type", "LinkType", l.Type)
			continue
		}
		out = append(out, link)
	}
	return out, nil
}

// The Type of each kind of Nexus link: the full name of its message.
var (
	linkTypeWorkflowEvent  = string((&commonpb.Link_WorkflowEvent{}).ProtoReflect().Descriptor().FullName())
	linkTypeWorkflow       = string((&commonpb.Link_Workflow{}).ProtoReflect().Descriptor().FullName())
	linkTypeNexusOperation = string((&commonpb.Link_NexusOperation{}).ProtoReflect().Descriptor().FullName())
	linkTypeActivity       = string((&commonpb.Link_Activity{}).ProtoReflect().Descriptor().FullName())
	linkTypeCallback       = string((&commonpb.Link_Callback{}).ProtoReflect().Descriptor().FullName())
)

// completionCallbacks are the callbacks a start sends so that what it
// starts completes the caller's operation: the request's callback URL,
// with its header plus fields (the operation token under
// nexus.HeaderOperationToken, so that the caller completes with it even
// if the completion outruns the start's response), and the links back to
// the caller.
func completionCallbacks(options nexus.StartOperationOptions, links []*commonpb.Link, fields map[string]string) []*commonpb.Callback {
	header := make(map[string]string, len(options.CallbackHeader)+len(fields))
	for k, v := range options.CallbackHeader {
		header[k] = v
	}
	for k, v := range fields {
		nexus.Header(header).Set(k, v)
	}
	return []*commonpb.Callback{{
		Variant: &commonpb.Callback_Nexus_{Nexus: &commonpb.Callback_Nexus{Url: options.CallbackURL, Header: header}},
		Links:   links,
	}}
}
