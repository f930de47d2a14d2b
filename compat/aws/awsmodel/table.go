package awsmodel

// Type is a Smithy shape type, as far as checking input needs it.
type Type uint8

// The shape types of the models' inputs.
const (
	String Type = iota + 1
	Integer
	Long
	Float
	Boolean
	Timestamp
	Blob
	Structure
	Union
	List
	Map
	Document
)

// Location is where a restJson1 input member travels.
type Location uint8

// Input member locations: awsJson members are all in the body.
const (
	InBody Location = iota
	InLabel
	InQuery
	InHeader
)

// Bound is a length or range trait: either end may be absent.
type Bound struct {
	Min, Max       float64
	HasMin, HasMax bool
}

// Shape is one input shape with the constraints of its traits, the
// member's own traits merged over its target's.
type Shape struct {
	Type Type
	// Name is a structure's or union's name in the model
	// ("PutEventsRequestEntry").
	Name string
	// Members are a structure's or union's members.
	Members []Member
	// Elem is a list's element shape or a map's value shape, Key a map's
	// key shape: indexes into Service.Shapes.
	Elem, Key int
	// Length bounds a string's characters, a blob's bytes, a list's
	// elements or a map's entries.
	Length Bound
	// Range bounds a number.
	Range Bound
	// Enum is the values a string may take (enum shapes and the enum
	// trait); none: any.
	Enum []string
	// Pattern is the trait's regular expression as the model writes it.
	Pattern string
	// Discriminator, for a polymorphic object (a JSON schema's oneOf, as
	// Azure's specs write them), names the member whose value picks one
	// of Variants.
	Discriminator string
	Variants      []Variant
	// Sensitive marks a value AWS never repeats (a password, a key):
	// a violation names the member without its value.
	Sensitive bool
}

// Variant is one form of a polymorphic object: the discriminator's value
// and the structure it selects.
type Variant struct {
	Value string
	Shape int
}

// Member is a structure member.
type Member struct {
	// Name is the member's name in the model and in a JSON body.
	Name     string
	Required bool
	// Shape indexes Service.Shapes.
	Shape int
	// In and Wire say where a restJson1 member travels: the label,
	// query parameter or header named Wire.
	In   Location
	Wire string
}

// Operation is one operation of a service.
type Operation struct {
	Name string
	// Input indexes Service.Shapes; -1: the operation takes no input.
	Input int
	// Method and URI are a restJson1 operation's HTTP binding.
	Method, URI string
	// Errors are the error shapes the operation declares.
	Errors []string
}

// Service is the facts of one model that constrain its input.
type Service struct {
	// Name is the service's sdkId ("EventBridge").
	Name string
	// Protocol is the model's protocol trait ("awsJson1_1").
	Protocol   string
	Operations []Operation
	Shapes     []Shape
}

// Operation returns the named operation.
func (s *Service) Operation(name string) (*Operation, bool) {
	for i := range s.Operations {
		if s.Operations[i].Name == name {
			return &s.Operations[i], true
		}
	}
	return nil, false
}
