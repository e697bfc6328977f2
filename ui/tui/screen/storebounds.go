package screen

import (
	"time"
)

// RestoreTimeout bounds the read of the store at launch.
const RestoreTimeout = time.Second

// StoredMatchLimit bounds what one filter brings in from the store per
// account: the newest matches, as a page would.
const StoredMatchLimit = 500
