package namespaces

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gridbridge/gridbridge/compat/eventgrid/namespaces/internal/armmodel"
)

// newKey makes an access key the way Azure does: 32 random bytes in base64
// (44 characters), so SAS tooling that decodes keys works on them.
func newKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.StdEncoding.EncodeToString(b[:])
}

func newKeyPair() [2]string { return [2]string{newKey(), newKey()} }

// keyIndex maps a validated keyName to its slot.
func keyIndex(name string) int {
	if name == "key2" {
		return 1
	}
	return 0
}

// GridBridge-only request headers through which the topology file
// (emulator/topology) fixes keys at start; ARM can only generate them.
const (
	headerKey1 = "X-GridBridge-Key1"
	headerKey2 = "X-GridBridge-Key2"
)

// keysFor returns keys with those the request's key headers fix replacing
// the given ones.
func keysFor(r *http.Request, keys [2]string) ([2]string, *armmodel.Error) {
	for i, header := range []string{headerKey1, headerKey2} {
		v := r.Header.Get(header)
		if v == "" {
			continue
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return keys, armmodel.BadRequest("The %s header must be a base64 key.", header)
		}
		keys[i] = v
	}
	return keys, nil
}

// namespaceAction answers listKeys and regenerateKey on a namespace.
func (s *Service) namespaceAction(w http.ResponseWriter, r *http.Request) {
	s.keysAction(w, r, func(v map[string]string) (*[2]string, *armmodel.Error) {
		ns, err := s.findNamespace(v["subscriptionId"], v["resourceGroup"], v["namespace"])
		if err != nil {
			return nil, err
		}
		return &ns.keys, nil
	})
}

// topicAction answers listKeys and regenerateKey on a namespace topic.
func (s *Service) topicAction(w http.ResponseWriter, r *http.Request) {
	s.keysAction(w, r, func(v map[string]string) (*[2]string, *armmodel.Error) {
		t, err := s.findTopic(v)
		if err != nil {
			return nil, err
		}
		return &t.keys, nil
	})
}

// keysAction is listKeys and regenerateKey for whatever holds keys: the
// resource is looked up under the service lock by keysOf.
func (s *Service) keysAction(w http.ResponseWriter, r *http.Request, keysOf func(vars map[string]string) (*[2]string, *armmodel.Error)) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, r, "POST")
		return
	}
	v := mux.Vars(r)
	var body []byte
	regenerate := lower(v["action"]) == "regeneratekey"
	if regenerate {
		var ok bool
		if body, ok = readARMBody(w, r); !ok {
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, notFound := keysOf(v)
	if notFound != nil {
		writeARMError(w, notFound)
		return
	}
	if regenerate {
		keyName, err := armmodel.KeyName(body)
		if err != nil {
			writeARMError(w, err)
			return
		}
		// The old key stops working at once on the data plane.
		keys[keyIndex(keyName)] = newKey()
	}
	writeJSON(w, http.StatusOK, armmodel.Keys{Key1: keys[0], Key2: keys[1]})
}
