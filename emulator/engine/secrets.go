package engine

// SetRecordSecrets says whether destinations record secret values (auth
// parameters, values marked secret) as sent, for debugging, instead of
// redacting them (package redact). Off by default.
func (e *Engine) SetRecordSecrets(keep bool) { e.recordSecrets.Store(keep) }

// RecordSecrets reports whether secret values are recorded as sent.
func (e *Engine) RecordSecrets() bool { return e.recordSecrets.Load() }
