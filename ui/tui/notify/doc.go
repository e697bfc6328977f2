// Package notify runs notify_cmd when new unread mail arrives (the
// Notifier): no shell, an explicit minimal environment, one run per
// window and never two at once, killed with its process group when it
// hangs; a failure is told to the root (FailureMsg) for the status line
// and the details.
package notify
