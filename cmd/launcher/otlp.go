package launcher

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
)

// otlpFlags are the OpenTelemetry export flags of rlm run and rlm direct.
type otlpFlags struct {
	endpoint string
	content  bool
}

func (f *otlpFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.endpoint, "otlp-endpoint", "", "export the run's spans over OTLP/HTTP to URL (e.g. http://127.0.0.1:4318); the standard OTEL_EXPORTER_OTLP_* variables also enable and configure it")
	cmd.Flags().BoolVar(&f.content, "otlp-content", false, "also export recorded content (replies, code, output, search patterns, image thumbnails: see --trace-content)")
}

// spec sets the OTLP fields of sp.
func (f *otlpFlags) spec(sp *rlm.Spec) {
	sp.OTLP = rlm.OTLPSpec{Endpoint: f.endpoint, Content: f.content}
}
