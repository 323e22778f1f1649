package otlp

import (
	"context"
	"net/http/httptest"
	"testing"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// A code cell that raised is exported with status Error and its error
// kind, as a failed plan step is; the cell that finished and the turns
// are not errors.
func TestExportCellExceptionIsError(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"), goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	replies := []string{"```python\nx = 1 // 0\n```", "```python\nFINAL(\"recovered\")\n```"}
	turn := 0
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		turn++
		return &model.Response{Text: replies[min(turn, len(replies))-1]}, nil
	})
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", "some text\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "test-model", Store: store, Mode: engine.ModeCode})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	if res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "q", h); err != nil || res.Answer != "recovered" {
		t.Fatalf("%v %+v", err, res)
	}
	if st := exp.Shutdown(context.Background()); st.Failed != 0 || st.Dropped != 0 {
		t.Fatalf("stats %+v", st)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var cells []*tracepb.Span
	for _, sp := range rc.spans {
		switch {
		case sp.Name == "plan_step cell":
			cells = append(cells, sp)
		case sp.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR:
			t.Errorf("span %s: status %v", sp.Name, sp.Status)
		}
	}
	if len(cells) != 2 {
		t.Fatalf("%d cell spans", len(cells))
	}
	bad, good := cells[0], cells[1]
	if attrs(good)["rlm.plan.exception"] != nil {
		bad, good = good, bad
	}
	if attrs(bad)["rlm.plan.exception"].GetStringValue() != "ZeroDivisionError" {
		t.Errorf("raising cell attrs %v", attrs(bad))
	}
	if bad.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || bad.Status.GetMessage() != "execute/cell_exception" ||
		attrs(bad)["error.type"].GetStringValue() != "cell_exception" {
		t.Errorf("raising cell: status %v attrs %v", bad.Status, attrs(bad))
	}
	if good.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("finishing cell: status %v", good.Status)
	}
}
