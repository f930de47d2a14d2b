package namespaces

import (
	"github.com/gridbridge/gridbridge/compat/azure/arm"
	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

func newKeyPair() [2]string { return [2]string{arm.NewKey(), arm.NewKey()} }

// keyIndex maps a validated keyName to its slot.
func keyIndex(name string) int {
	if name == "key2" {
		return 1
	}
	return 0
}

func (s *Service) namespaceKeys(r *arm.Request) (*[2]string, *arm.Error) {
	ns, err := s.findNamespace(r)
	if err != nil {
		return nil, err
	}
	return &ns.keys, nil
}

func (s *Service) topicKeys(r *arm.Request) (*[2]string, *arm.Error) {
	t, err := s.findTopic(r)
	if err != nil {
		return nil, err
	}
	return &t.keys, nil
}

// keyActions are listKeys and regenerateKey on whatever keysOf finds.
func (s *Service) keyActions(keysOf func(*arm.Request) (*[2]string, *arm.Error)) []arm.Action {
	return []arm.Action{{Name: "listKeys", Handle: s.keys(keysOf, false)}, {Name: "regenerateKey", Handle: s.keys(keysOf, true)}}
}

// keys answers listKeys, or regenerateKey when regenerate is set, for
// whatever holds keys: keysOf looks the resource up under the service lock.
func (s *Service) keys(keysOf func(*arm.Request) (*[2]string, *arm.Error), regenerate bool) arm.Handler {
	return func(r *arm.Request) (arm.Response, *arm.Error) {
		var body []byte
		if regenerate {
			var err *arm.Error
			if body, err = r.ReadBody(); err != nil {
				return arm.Response{}, err
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		keys, err := keysOf(r)
		if err != nil {
			return arm.Response{}, err
		}
		if regenerate {
			keyName, err := armmodel.KeyName(body)
			if err != nil {
				return arm.Response{}, err
			}
			// The old key stops working at once on the data plane.
			keys[keyIndex(keyName)] = arm.NewKey()
		}
		return arm.OK(armmodel.Keys{Key1: keys[0], Key2: keys[1]}), nil
	}
}
