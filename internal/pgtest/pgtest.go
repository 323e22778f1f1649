// Package pgtest gives tests a fresh PostgreSQL database on the server
// named by RLM_TEST_POSTGRES (set by .ci/run, which starts a throwaway
// cluster). Without it, tests that need a database are skipped with a
// message saying so.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env is the variable holding the server's URL.
const Env = "RLM_TEST_POSTGRES"

// Database creates a database for t and returns its URL; it is dropped
// when t ends.
func Database(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Env)
	if base == "" {
		t.Skip("no PostgreSQL for this test: set " + Env + "=postgres://USER@HOST:PORT/postgres?sslmode=disable (.ci/run starts one)")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "rlm_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("%s is set but the server cannot be reached: %v", Env, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}
