package launcher

import (
	"strconv"

	"github.com/spf13/pflag"
)

// cacheFlags are the response-cache flags of every command that calls a
// model (docs/model.md, "Response cache"). Identical deterministic
// requests of one run are always answered once; --cache DIR keeps the
// responses across runs.
type cacheFlags struct {
	cacheDir      string
	cacheAnyTemp  bool
	temperature   optFloat
	cacheDisabled bool
}

func (f *cacheFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.cacheDir, "cache", "", "keep model responses in this directory, so a rerun does not pay again for identical requests (deterministic requests only: temperature 0, or --cache-any-temperature)")
	fl.BoolVar(&f.cacheAnyTemp, "cache-any-temperature", false, "also share and cache requests whose temperature is not 0 (or is left to the server)")
	fl.Var(&f.temperature, "temperature", "sampling temperature sent with every request (default: the server's); 0 makes requests cacheable")
	fl.BoolVar(&f.cacheDisabled, "no-cache", false, "make every request, even identical deterministic ones")
}

// optFloat is a float flag that remembers whether it was given.
type optFloat struct {
	v   float64
	set bool
}

func (o *optFloat) String() string {
	if !o.set {
		return ""
	}
	return strconv.FormatFloat(o.v, 'g', -1, 64)
}

func (o *optFloat) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	o.v, o.set = v, true
	return nil
}

func (o *optFloat) Type() string { return "float" }

func (o optFloat) get() (float64, bool) { return o.v, o.set }
