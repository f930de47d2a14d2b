package emulator

import "github.com/gridbridge/gridbridge/compat/entra"

// Authority is the emulator's offline Entra ID authority (its token
// endpoint is on both listeners; the SDKs insist on the HTTPS one).
func (s *Server) Authority() *entra.Authority { return s.entra }
