// Package accounts says what an account is: how its provider child is
// started and provisioned, and how one operation fans out over all
// accounts so that one dead account never fails or slows the others.
package accounts
