// Package bench measures recursive language model runs on long-context
// tasks with known answers, and checks the engine's contracts with a
// deterministic conformance suite.
//
// Three task generators build inputs of a requested size, deterministically
// from a seed: needle in a haystack (NIAH, in the style of RULER's S-NIAH),
// aggregation over labelled records (in the style of OOLONG) and pairs of
// records satisfying a condition (in the style of OOLONG-Pairs). Each task
// carries its expected answer and is scored the way those benchmarks score:
// containment for the needle, 0.75^|error| for counts, exact match for
// labels and F1 over the set of pairs. A fourth, chart-pdf
// (KindChartPDF), writes a PDF of pages whose answer is partly in its text
// and partly in a bar chart drawn on one page, so that text-only methods
// and methods that send page images to a vision model can be compared.
//
// Run drives a benchmark: each trial generates a task and answers it both
// with the RLM engine and with one direct model call holding the whole
// input, then summarizes accuracy, cost, tokens and latency per method.
// Every trial goes through one rlm.Session (Config.Session, or one Run
// opens over Config.Provider), up to Config.MaxConcurrency trials at once
// under per-model rate limits (Config.RateLimits). With Config.Record a
// run keeps one cassette per trial, a journal and a manifest: Replay runs
// it again offline and checks its scores and costs, and Config.Resume
// continues it without sending a finished trial's requests again.
// Conformance runs the engine against embedded cassettes, one case per plan
// step, recursion rule, budget kind, cancellation and cycle rejection.
package bench
