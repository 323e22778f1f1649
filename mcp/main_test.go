package mcp

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/internal/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as the scripted MCP server
	goleak.VerifyTestMain(m)
}
