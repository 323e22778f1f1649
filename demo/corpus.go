package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Incident facts hidden in the generated log. The demo's answer must name
// them; tests check it does.
const (
	IncidentStart  = "03:14:09"
	IncidentCause  = "max_connections=5"
	IncidentDeploy = "deploy-bot"
)

var services = []string{"api-gateway", "orders", "inventory", "payments", "auth", "search", "notifications"}
var paths = []string{"/v1/orders", "/v1/cart", "/v1/items", "/v1/pay", "/v1/login", "/v1/search", "/v1/notify"}

// Corpus generates the demo's server log deterministically: about size
// bytes of routine traffic from a day of a web shop, with one incident
// hidden at about 60% of the way through: a configuration push that shrank
// the payments database pool, followed by connection-pool exhaustion.
func Corpus(size int) string {
	rng := rand.New(rand.NewPCG(42, 2026))
	var b strings.Builder
	b.Grow(size + 4096)
	t := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	incidentAt := size * 6 / 10
	// Routine lines are about 95 bytes; space them so that the traffic
	// before the incident ends before 03:12 and the rest follows 03:20.
	step := 3 * time.Hour / time.Duration(max(incidentAt/90, 1))
	injected := false
	for b.Len() < size {
		t = t.Add(step/2 + time.Duration(rng.Int64N(int64(step))))
		if !injected && b.Len() >= incidentAt {
			injected = true
			writeIncident(&b, t)
			t = time.Date(2026, 11, 30, 3, 20, 0, 0, time.UTC)
			continue
		}
		i := rng.IntN(len(services))
		level := "INFO"
		status := 200
		switch r := rng.IntN(1000); {
		case r < 3:
			level, status = "WARN", 429
		case r < 4:
			level, status = "WARN", 503
		}
		fmt.Fprintf(&b, "%s %s %s request id=%08x path=%s status=%d latency_ms=%d\n",
			t.Format("2006-01-02T15:04:05.000Z"), level, services[i], rng.Uint32(), paths[i], status, 5+rng.IntN(120))
	}
	return b.String()
}

func writeIncident(b *strings.Builder, t time.Time) {
	day := t.Format("2006-01-02")
	lines := []string{
		"T03:12:07.412Z INFO config-service config push id=cfg-7781 by " + IncidentDeploy + ": payments-db " + IncidentCause + " (was 50)",
		"T03:12:07.590Z INFO payments pool resized to 5 connections",
		"T" + IncidentStart + ".003Z ERROR payments payments-db connection pool exhausted (5/5 in use) path=/v1/pay status=503",
		"T03:14:09.118Z ERROR payments payments-db connection pool exhausted (5/5 in use) path=/v1/pay status=503",
		"T03:14:10.440Z ERROR api-gateway upstream payments returned 503 for 212 requests in 1s",
		"T03:15:02.007Z ERROR payments payments-db connection pool exhausted (5/5 in use) path=/v1/pay status=503",
		"T03:17:45.901Z WARN payments circuit breaker open for payments-db",
		"T03:19:30.000Z INFO oncall paged: payments error rate 87%",
	}
	for _, l := range lines {
		b.WriteString(day)
		b.WriteString(l)
		b.WriteByte('\n')
	}
}
