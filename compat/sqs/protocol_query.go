package sqs

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The query protocol (form parameters in, XML out) that older SDKs speak,
// such as boto3 1.26 and the AWS SDK for Go v1.

const queryNamespace = "http://queue.amazonaws.com/doc/2012-11-05/"

// decodeQuery fills the struct v points to from form parameters. The form
// is indexed by its dotted names once, so decoding costs the request's size:
// looking each list's members up among every parameter would cost its
// square (a batch naming thousands of entries).
func decodeQuery(form url.Values, v any) error {
	return decodeQueryInto(indexForm(form), reflect.ValueOf(v).Elem())
}

// formNode is one dotted name's parameter (values, when the form has it)
// and the names that continue it: "Entry.1.Id" is root → "Entry" → "1" → "Id".
type formNode struct {
	values   []string
	children map[string]*formNode
}

func indexForm(form url.Values) *formNode {
	root := &formNode{}
	for key, values := range form {
		n := root
		for part := range strings.SplitSeq(key, ".") {
			n = n.child(part, true)
		}
		n.values = values
	}
	return root
}

// child returns the node of name under n: nil when absent, unless create.
func (n *formNode) child(name string, create bool) *formNode {
	if n == nil {
		return nil
	}
	c := n.children[name]
	if c == nil && create {
		if n.children == nil {
			n.children = map[string]*formNode{}
		}
		c = &formNode{}
		n.children[name] = c
	}
	return c
}

// at returns the node of a dotted path under n, nil when absent.
func (n *formNode) at(path ...string) *formNode {
	for _, p := range path {
		n = n.child(p, false)
	}
	return n
}

// has reports whether the form has the parameter n names.
func (n *formNode) has() bool { return n != nil && n.values != nil }

// get is the parameter's first value, "" when absent (as url.Values.Get).
func (n *formNode) get() string {
	if n == nil || len(n.values) == 0 {
		return ""
	}
	return n.values[0]
}

// members returns the list members under n (the N of every parameter
// named key.N or key.N.*, N > 0), in order, each with its node.
func (n *formNode) members() []*formNode {
	if n == nil {
		return nil
	}
	var nums []int
	for name := range n.children {
		if num, err := strconv.Atoi(name); err == nil && num > 0 {
			nums = append(nums, num)
		}
	}
	slices.Sort(nums)
	nums = slices.Compact(nums) // "1" and "01" are one member
	out := make([]*formNode, len(nums))
	for i, num := range nums {
		// Looked up by its canonical spelling, as the members were always
		// read: "01" counts as member 1 but "1" is what is read.
		out[i] = n.child(strconv.Itoa(num), false)
	}
	return out
}

var attributeValueType = reflect.TypeOf(AttributeValue{})

func decodeQueryInto(node *formNode, v reflect.Value) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Name
		if q := f.Tag.Get("q"); q != "" {
			name = q
		}
		param := node.child(name, false)
		fv := v.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			// An embedded group of members (queueURLInput, messageInput):
			// its members are the input's own, as in the JSON protocol.
			if err := decodeQueryInto(node, fv); err != nil {
				return err
			}
		case f.Type.Kind() == reflect.String:
			fv.SetString(param.get())
		case f.Type == reflect.TypeOf((*string)(nil)):
			if param.has() {
				s := param.get()
				fv.Set(reflect.ValueOf(&s))
			}
		case f.Type == reflect.TypeOf((*int)(nil)):
			if param.has() {
				n, err := strconv.Atoi(param.get())
				if err != nil {
					return errInvalidParameter("Value %s for parameter %s is invalid. Reason: must be an integer.", param.get(), name)
				}
				fv.Set(reflect.ValueOf(&n))
			}
		case f.Type == reflect.TypeOf([]string(nil)):
			var list []string
			for _, m := range param.members() {
				list = append(list, m.get())
			}
			fv.Set(reflect.ValueOf(list))
		case f.Type == reflect.TypeOf(map[string]string(nil)):
			k := "Name"
			if name == "Tag" {
				k = "Key"
			}
			var m map[string]string
			for _, e := range param.members() {
				if m == nil {
					m = map[string]string{}
				}
				m[e.at(k).get()] = e.at("Value").get()
			}
			fv.Set(reflect.ValueOf(m))
		case f.Type == reflect.MapOf(reflect.TypeOf(""), attributeValueType):
			var m map[string]AttributeValue
			for _, e := range param.members() {
				a := AttributeValue{DataType: e.at("Value", "DataType").get()}
				if sv := e.at("Value", "StringValue"); sv.has() {
					s := sv.get()
					a.StringValue = &s
				}
				if bv := e.at("Value", "BinaryValue"); bv.has() {
					b, err := base64.StdEncoding.DecodeString(bv.get())
					if err != nil {
						return errInvalidParameter("The binary value of message attribute %s is not valid base64.", e.at("Name").get())
					}
					a.BinaryValue = b
				}
				if m == nil {
					m = map[string]AttributeValue{}
				}
				m[e.at("Name").get()] = a
			}
			fv.Set(reflect.ValueOf(m))
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			members := param.members()
			list := reflect.MakeSlice(f.Type, len(members), len(members))
			for j, m := range members {
				if err := decodeQueryInto(m, list.Index(j)); err != nil {
					return err
				}
			}
			fv.Set(list)
		}
	}
	return nil
}

func writeQueryResult(w http.ResponseWriter, action, requestID string, result any) {
	var x xmlWriter
	x.b.WriteString(`<?xml version="1.0"?>`)
	x.b.WriteString("<" + action + `Response xmlns="` + queryNamespace + `">`)
	if r, ok := result.(xmlResult); ok {
		x.open(action + "Result")
		r.writeXML(&x)
		x.close(action + "Result")
	}
	x.open("ResponseMetadata")
	x.elem("RequestId", requestID)
	x.close("ResponseMetadata")
	x.close(action + "Response")
	w.Header().Set("Content-Type", "text/xml")
	w.Header().Set("X-Amzn-RequestId", requestID)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(x.b.String()))
}

func writeQueryError(w http.ResponseWriter, requestID string, e *apiError) {
	var x xmlWriter
	x.b.WriteString(`<?xml version="1.0"?>`)
	x.b.WriteString(`<ErrorResponse xmlns="` + queryNamespace + `">`)
	x.open("Error")
	fault := "Sender"
	if !e.Sender {
		fault = "Receiver"
	}
	x.elem("Type", fault)
	x.elem("Code", e.QueryCode)
	msg := e.Message
	if e.QueryMessage != "" {
		msg = e.QueryMessage
	}
	x.elem("Message", msg)
	x.b.WriteString("<Detail/>")
	x.close("Error")
	x.elem("RequestId", requestID)
	x.close("ErrorResponse")
	w.Header().Set("Content-Type", "text/xml")
	w.Header().Set("X-Amzn-RequestId", requestID)
	w.WriteHeader(e.Status)
	_, _ = w.Write([]byte(x.b.String()))
}
