package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/otlp"
)

// otlpFlags are the OpenTelemetry export flags of rlm run and rlm direct.
type otlpFlags struct {
	endpoint string
	content  bool
}

func (f *otlpFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.endpoint, "otlp-endpoint", "", "export the run's spans over OTLP/HTTP to URL (e.g. http://127.0.0.1:4318); the standard OTEL_EXPORTER_OTLP_* variables also enable and configure it")
	cmd.Flags().BoolVar(&f.content, "otlp-content", false, "also export recorded content (replies, code, output, search patterns: see --trace-content)")
}

// otlpRun is a started exporter (nil when export is off).
type otlpRun struct {
	exp  *otlp.Exporter
	once sync.Once
}

// start begins the export when asked for and prints the trace id on
// stderr, so the user can find the run in the tracing backend.
func (f *otlpFlags) start(ctx context.Context, stderr io.Writer) (*otlpRun, error) {
	if !otlp.Enabled(f.endpoint) {
		return nil, nil
	}
	exp, err := otlp.Start(ctx, otlp.Config{Endpoint: f.endpoint, Content: f.content})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "rlm: OTLP trace id %s\n", exp.TraceID())
	return &otlpRun{exp: exp}, nil
}

// option returns the recorder option that feeds the exporter.
func (o *otlpRun) option() trace.Option {
	if o == nil {
		return trace.WithObserver(nil)
	}
	return trace.WithObserver(o.exp.Observe)
}

// finish flushes the export (at most 5 s) and warns about dropped or
// failed spans; export problems never change the run's outcome. Only the
// first call does anything, so a deferred finish covers early returns.
func (o *otlpRun) finish(stderr io.Writer) {
	if o == nil {
		return
	}
	o.once.Do(func() { o.shutdown(stderr) })
}

func (o *otlpRun) shutdown(stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st := o.exp.Shutdown(ctx)
	if st.Dropped > 0 || st.Failed > 0 {
		msg := fmt.Sprintf("rlm: warning: OTLP export of trace %s incomplete: %s", o.exp.TraceID(), st)
		if st.LastError != "" {
			msg += " (last error: " + st.LastError + ")"
		}
		fmt.Fprintln(stderr, msg)
	}
}
