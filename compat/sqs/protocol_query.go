package sqs

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The query protocol (form parameters in, XML out) that older SDKs speak,
// such as boto3 1.26 and the AWS SDK for Go v1.

const queryNamespace = "http://queue.amazonaws.com/doc/2012-11-05/"

// decodeQuery fills the struct v points to from form parameters.
func decodeQuery(form url.Values, v any) error {
	return decodeQueryInto(form, "", reflect.ValueOf(v).Elem())
}

var attributeValueType = reflect.TypeOf(AttributeValue{})

func decodeQueryInto(form url.Values, prefix string, v reflect.Value) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Name
		if q := f.Tag.Get("q"); q != "" {
			name = q
		}
		key := prefix + name
		fv := v.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			// An embedded group of members (queueURLInput, messageInput):
			// its members are the input's own, as in the JSON protocol.
			if err := decodeQueryInto(form, prefix, fv); err != nil {
				return err
			}
		case f.Type.Kind() == reflect.String:
			fv.SetString(form.Get(key))
		case f.Type == reflect.TypeOf((*string)(nil)):
			if form.Has(key) {
				s := form.Get(key)
				fv.Set(reflect.ValueOf(&s))
			}
		case f.Type == reflect.TypeOf((*int)(nil)):
			if form.Has(key) {
				n, err := strconv.Atoi(form.Get(key))
				if err != nil {
					return errInvalidParameter("Value %s for parameter %s is invalid. Reason: must be an integer.", form.Get(key), name)
				}
				fv.Set(reflect.ValueOf(&n))
			}
		case f.Type == reflect.TypeOf([]string(nil)):
			var list []string
			for _, n := range indices(form, key) {
				list = append(list, form.Get(key+"."+strconv.Itoa(n)))
			}
			fv.Set(reflect.ValueOf(list))
		case f.Type == reflect.TypeOf(map[string]string(nil)):
			k := "Name"
			if name == "Tag" {
				k = "Key"
			}
			var m map[string]string
			for _, n := range indices(form, key) {
				p := key + "." + strconv.Itoa(n) + "."
				if m == nil {
					m = map[string]string{}
				}
				m[form.Get(p+k)] = form.Get(p + "Value")
			}
			fv.Set(reflect.ValueOf(m))
		case f.Type == reflect.MapOf(reflect.TypeOf(""), attributeValueType):
			var m map[string]AttributeValue
			for _, n := range indices(form, key) {
				p := key + "." + strconv.Itoa(n) + "."
				a := AttributeValue{DataType: form.Get(p + "Value.DataType")}
				if form.Has(p + "Value.StringValue") {
					s := form.Get(p + "Value.StringValue")
					a.StringValue = &s
				}
				if form.Has(p + "Value.BinaryValue") {
					b, err := base64.StdEncoding.DecodeString(form.Get(p + "Value.BinaryValue"))
					if err != nil {
						return errInvalidParameter("The binary value of message attribute %s is not valid base64.", form.Get(p+"Name"))
					}
					a.BinaryValue = b
				}
				if m == nil {
					m = map[string]AttributeValue{}
				}
				m[form.Get(p+"Name")] = a
			}
			fv.Set(reflect.ValueOf(m))
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			ns := indices(form, key)
			list := reflect.MakeSlice(f.Type, len(ns), len(ns))
			for j, n := range ns {
				if err := decodeQueryInto(form, key+"."+strconv.Itoa(n)+".", list.Index(j)); err != nil {
					return err
				}
			}
			fv.Set(list)
		}
	}
	return nil
}

// indices returns the N of every parameter named key.N or key.N.*, sorted.
func indices(form url.Values, key string) []int {
	seen := map[int]bool{}
	p := key + "."
	for k := range form {
		if !strings.HasPrefix(k, p) {
			continue
		}
		num, _, _ := strings.Cut(k[len(p):], ".")
		if n, err := strconv.Atoi(num); err == nil && n > 0 {
			seen[n] = true
		}
	}
	out := make([]int, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
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
