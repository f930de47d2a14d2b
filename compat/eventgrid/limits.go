package eventgrid

import "time"

// validationTimeout bounds a webhook validation handshake in real time. It
// is short because the handshake holds the ARM request open, and a test's
// fake answers at once.
const validationTimeout = 10 * time.Second

// manualValidationWindow is how long, in cloud time, an endpoint's owner
// has to open the validationUrl before the subscription fails (W-EG-3.3).
const manualValidationWindow = 5 * time.Minute

// responseTimeout is the per-attempt delivery timeout (EG-5).
const responseTimeout = 30 * time.Second

// lateSuccessWindow is how long a timed-out delivery request stays open: a
// success within it takes the event off the retry queue, best effort (EG-5).
const lateSuccessWindow = 3 * time.Minute
