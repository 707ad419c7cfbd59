// tlog-check verifies a C2SP tlog-tiles log with Go's golang.org/x/mod/sumdb/tlog and note,
// reading nothing but the log's resources over HTTP: the checkpoint's signature against a pinned
// verifier key, the inclusion of one entry (found in its entry bundle), and the consistency of an
// older signed checkpoint with the latest. It is an independent implementation to hold ours to.
//
//	tlog-check -prefix http://host/api/proven-work/log -vkey <name+id+key> [-index N -contains TEXT] [-old FILE]
//
// It prints one line per check and exits 1 at the first that fails.
package main

import (
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

func get(url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		fail("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		fail("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		fail("GET %s: %s", url, resp.Status)
	}
	return body
}

// openCheckpoint checks a signed checkpoint (c2sp.org/tlog-checkpoint) with note.Open and parses
// its body: origin, tree size, base64 root hash.
func openCheckpoint(msg []byte, verifier note.Verifier) tlog.Tree {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint signature: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		fail("checkpoint origin is not %s", verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		fail("checkpoint size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		fail("checkpoint root %q", lines[2])
	}
	var h tlog.Hash
	copy(h[:], root)
	return tlog.Tree{N: size, Hash: h}
}

// c2spPath turns Go's sumdb tile path (tile/8/L/N[.p/W], the height in the path) into the C2SP
// one (tile/L/N[.p/W]); level -1 (Go's "data") is C2SP's "entries".
func c2spPath(t tlog.Tile) string {
	data := t.L == -1
	if data {
		t.L = 0
	}
	p := strings.TrimPrefix(t.Path(), "tile/8/")
	if data {
		p = "entries/" + strings.TrimPrefix(p, "0/")
	}
	return "tile/" + p
}

type tileReader struct{ prefix string }

func (r tileReader) Height() int { return height }
func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		out[i] = get(r.prefix + "/" + c2spPath(t))
	}
	return out, nil
}
func (r tileReader) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func main() {
	prefix := flag.String("prefix", "", "the log's URL prefix")
	vkey := flag.String("vkey", "", "the log's verifier key (signed-note format)")
	index := flag.Int64("index", -1, "an entry to prove included")
	contains := flag.String("contains", "", "text the entry must contain")
	old := flag.String("old", "", "a file holding an older signed checkpoint to prove consistent")
	flag.Parse()

	verifier, err := note.NewVerifier(*vkey)
	if err != nil {
		fail("verifier key: %v", err)
	}
	tree := openCheckpoint(get(*prefix+"/checkpoint"), verifier)
	fmt.Printf("ok checkpoint %d %s\n", tree.N, tree.Hash)
	hashes := tlog.TileHashReader(tree, tileReader{*prefix})

	// TreeHash reads the right edge of the tree from its tiles: they must hash to the signed root.
	if th, err := tlog.TreeHash(tree.N, hashes); err != nil || th != tree.Hash {
		fail("tree hash from tiles: %v", err)
	}
	fmt.Println("ok tiles hash to the root")

	if *index >= 0 {
		if *index >= tree.N {
			fail("entry %d is beyond the tree (%d)", *index, tree.N)
		}
		bundle := tlog.Tile{H: height, L: -1, N: *index / 256, W: 256}
		if rest := tree.N - bundle.N*256; rest < 256 {
			bundle.W = int(rest)
		}
		data := get(*prefix + "/" + c2spPath(bundle))
		var entry []byte
		for i := int64(0); i <= *index%256; i++ {
			if len(data) < 2 {
				fail("entry bundle truncated")
			}
			n := int(data[0])<<8 | int(data[1])
			if len(data) < 2+n {
				fail("entry bundle truncated")
			}
			entry, data = data[2:2+n], data[2+n:]
		}
		if !bytes.Contains(entry, []byte(*contains)) {
			fail("entry %d does not contain %q", *index, *contains)
		}
		proof, err := tlog.ProveRecord(tree.N, *index, hashes)
		if err != nil {
			fail("inclusion proof: %v", err)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, *index, tlog.RecordHash(entry)); err != nil {
			fail("inclusion: %v", err)
		}
		fmt.Printf("ok inclusion %d\n", *index)
	}

	if *old != "" {
		msg, err := os.ReadFile(*old)
		if err != nil {
			fail("%v", err)
		}
		older := openCheckpoint(msg, verifier)
		proof, err := tlog.ProveTree(tree.N, older.N, hashes)
		if err != nil {
			fail("consistency proof: %v", err)
		}
		if err := tlog.CheckTree(proof, tree.N, tree.Hash, older.N, older.Hash); err != nil {
			fail("consistency: %v", err)
		}
		fmt.Printf("ok consistency %d %d\n", older.N, tree.N)
	}
}
