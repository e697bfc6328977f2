package config

import (
	"math/rand/v2"
	"testing"
	"time"
	"fmt"
	"os"
	"github.com/BurntSushi/toml"
)

func TestHangHunt(t *testing.T) {
	alphabet := []byte("[]{}\"'#=.\n \\ab1,")
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000000; i++ {
		n := r.IntN(24)
		b := make([]byte, n)
		for j := range b { b[j] = alphabet[r.IntN(len(alphabet))] }
		src := string(b)
		for stage, f := range []func(){
			func() { var m map[string]any; toml.Decode(src, &m) },
			func() { locate(src) },
			func() { Parse("f", []byte(src)) },
		} {
			done := make(chan struct{})
			go func() { f(); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Second):
				fmt.Fprintf(os.Stderr, "HANG stage %d: %q\n", stage, src)
				os.Exit(1)
			}
		}
	}
}
