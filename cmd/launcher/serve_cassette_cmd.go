package launcher

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/viewer"
)

func (l *launcher) newServeCassetteCmd() *cobra.Command {
	var cassettePath, addr string
	cmd := &cobra.Command{
		Use:   "serve-cassette --cassette FILE [--addr 127.0.0.1:PORT]",
		Short: "Serve a replay cassette over the OpenAI and Anthropic APIs",
		Long: `serve-cassette answers POST /v1/chat/completions, POST /v1/responses (the
OpenAI Responses API) and POST /v1/messages (the Anthropic Messages API),
streaming and not, and GET /v1/models from a recorded cassette, so any
OpenAI-compatible or Anthropic client can replay a session offline. Each request gets the first unused interaction
whose match fits; when none is left the answer is HTTP 404 with error code
"cassette_exhausted".

The first line on stdout is the base URL to give clients (for example
--base-url http://127.0.0.1:8765/v1). Port 0 picks a free port. The server
runs until interrupted (Ctrl-C) and then prints its counters on stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return serveCassette(ctx, cassettePath, addr, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&cassettePath, "cassette", "", "cassette file to serve (required)")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8765", "address to listen on; port 0 picks a free port")
	addJSONErrorsFlag(cmd, false)
	_ = cmd.MarkFlagRequired("cassette")
	return cmd
}

// serveCassette serves the cassette at path on addr until ctx ends.
func serveCassette(ctx context.Context, path, addr string, stdout, stderr io.Writer) error {
	c, err := replay.Load(path)
	if err != nil {
		return err
	}
	h := replay.NewHandler(c)
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, viewer.KindListen, "cannot listen").With("addr", addr)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	base := "http://" + ln.Addr().String() + "/v1"
	fmt.Fprintln(stdout, base)
	fmt.Fprintf(stderr, "rlm serve-cassette: serving %d interactions from %s at %s (use --base-url %s; Ctrl-C stops)\n",
		len(c.Interactions), path, base, base)
	if err := serveUntilDone(ctx, srv, ln); err != nil {
		return err
	}
	st := h.Stats()
	fmt.Fprintf(stderr, "rlm serve-cassette: stopped; %d requests, %d served, %d exhausted, %d of %d interactions unused\n",
		st.Requests, st.Served, st.Exhausted, st.Remaining, st.Total)
	return nil
}
