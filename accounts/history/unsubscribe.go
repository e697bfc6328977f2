package history

// KindUnsubscribe is an unsubscribe attempt and its outcome (one-click
// POST, mailto: queued, refused, archived the sender's mail).
const KindUnsubscribe = "unsubscribe"
