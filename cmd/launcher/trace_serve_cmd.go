package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/viewer"
)

func (l *launcher) newTraceServeCmd() *cobra.Command {
	var (
		addr        string
		allowRemote bool
		poll        time.Duration
	)
	cmd := &cobra.Command{
		Use:   "serve FILE...",
		Short: "Show traces in a local web page (runs and their iterations, tree, timeline, compare; follows growing JSONL files)",
		Long: `serve starts a web server for the trace files and prints the page's URL on
stdout. The page opens on each run: its question, answer and figures, and its
iterations (the model's reply, each cell's code, output and exception, its
sub-calls and child RLMs). The other views show the recursion tree with
figures and subtree totals, a timeline, a node's detail, search and filters,
and (with several files) a side-by-side comparison. A JSONL trace that a running
'rlm run --trace x.jsonl' is writing is followed live. Every asset is built
into the binary. A FILE that does not exist yet (a run about to write it) is
waited for: the page says so and follows it once it appears; its directory
must exist. The server listens on loopback only unless --allow-remote; it
runs until interrupted (Ctrl-C).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return serveTraces(ctx, args, addr, viewer.Options{Poll: poll, AllowRemote: allowRemote, Wait: true}, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on; port 0 picks a free port")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback --addr (the traces become readable from the network)")
	cmd.Flags().DurationVar(&poll, "poll", viewer.DefaultPoll, "how often a followed file is checked for new events")
	return cmd
}

// serveTraces serves the viewer for paths on addr until ctx ends.
func serveTraces(ctx context.Context, paths []string, addr string, opts viewer.Options, stdout, stderr io.Writer) error {
	v, err := viewer.New(paths, opts)
	if err != nil {
		return err
	}
	ln, err := viewer.Listen(addr, opts.AllowRemote)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: v.Handler(), ReadHeaderTimeout: 10 * time.Second,
		// Live streams end with ctx, so Shutdown does not wait for them.
		BaseContext: func(net.Listener) context.Context { return ctx }}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintln(stdout, url)
	fmt.Fprintf(stderr, "rlm trace serve: showing %d file(s) at %s (Ctrl-C stops)\n", len(paths), url)
	var wg sync.WaitGroup
	var mu sync.Mutex // stderr, written by the waits below
	defer wg.Wait()
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			continue
		}
		fmt.Fprintf(stderr, "rlm trace serve: waiting for %s to appear (the page follows it then)\n", p)
		wg.Go(func() {
			if viewer.WaitFile(ctx, p, opts.Poll) == nil {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(stderr, "rlm trace serve: %s appeared\n", p)
			}
		})
	}
	return serveUntilDone(ctx, srv, ln)
}

// serveUntilDone serves srv on ln until ctx ends, then shuts it down
// (forcing the close after 5 s). A server that stops on its own is
// listen_failed.
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		return fault.Wrap(err, fault.PhaseConfig, viewer.KindListen, "server stopped").With("addr", ln.Addr().String())
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fault.Wrap(err, fault.PhaseConfig, viewer.KindListen, "server stopped").With("addr", ln.Addr().String())
	}
	return nil
}
