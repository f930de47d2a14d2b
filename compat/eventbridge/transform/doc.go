// Package transform turns an EventBridge event into what one rule target
// receives: the whole event, a constant Input, the value at an InputPath, or
// an InputTransformer's template filled from the event.
//
// The transformer is text substitution, not JSON building, because that is
// what AWS does and what tests recorded against AWS show:
//   - a template starting with { or [ is a JSON template. A placeholder
//     outside a JSON string gets the JSON text of its value (a string with
//     its quotes, "" when the path matched nothing); one inside a JSON string
//     gets the bare string, without escaping. The result must be valid JSON,
//     or nothing is delivered.
//   - any other template (a quoted string, plain text, several quoted lines)
//     is text: strings go in bare, objects and lists in a quote-less form
//     ({a:b}, [x,y]), a path that matched nothing as nothing.
package transform
