package datetime

import (
	"testing"
	"unicode/utf8"
)

// FuzzStrptime checks that no string or format panics or hangs strptime,
// and that what it returns is a valid datetime.
func FuzzStrptime(f *testing.F) {
	f.Add("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S")
	f.Add("Tue Jan  2 03:04:05 2024", "%c")
	f.Add("+05:30:15.5", "%z")
	f.Add("2023 53 5", "%G %V %u")
	f.Add("12 pm", "%I %p")
	f.Fuzz(func(t *testing.T, s, format string) {
		if !utf8.ValidString(s) || !utf8.ValidString(format) {
			return
		}
		d, err := Strptime(s, format)
		if err != nil {
			return
		}
		if _, err := NewDateTime(d.Year, d.Month, d.Day, d.Hour, d.Minute, d.Second, d.Microsecond, d.TZ, d.Fold); err != nil {
			t.Fatalf("Strptime(%q, %q) = invalid %v", s, format, d)
		}
	})
}

// FuzzFromISOFormat checks the three fromisoformat parsers, and that a
// parsed datetime's isoformat parses back to it.
func FuzzFromISOFormat(f *testing.F) {
	for _, s := range []string{"2024-01-02", "2024-W01-3T10:00", "2024-01-02T03:04:05.123456+05:30", "03:04:05Z", "20240102T030405,5-0130"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		DateFromISOFormat(s)
		TimeFromISOFormat(s)
		d, err := DateTimeFromISOFormat(s)
		if err != nil {
			return
		}
		iso, err := d.ISOFormat('T', "auto")
		if err != nil {
			t.Fatal(err)
		}
		back, err := DateTimeFromISOFormat(iso)
		if err != nil || !back.Equal(d) {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, d, iso, back, err)
		}
	})
}

// FuzzStrftime checks that no format panics strftime.
func FuzzStrftime(f *testing.F) {
	f.Add("%Y-%m-%d %-I %_5d %^a %#p %10Y %Ey %:z %Z %f %%")
	f.Fuzz(func(t *testing.T, format string) {
		d := DateTime{Year: 2024, Month: 2, Day: 29, Hour: 13, Minute: 5, Second: 7, Microsecond: 8, TZ: UTC}
		d.Strftime(format)
	})
}

func BenchmarkStrftime(b *testing.B) {
	d := DateTime{Year: 2024, Month: 2, Day: 29, Hour: 13, Minute: 5, Second: 7, Microsecond: 8}
	for i := 0; i < b.N; i++ {
		d.Strftime("%Y-%m-%d %H:%M:%S.%f %a %b")
	}
}

func BenchmarkStrptime(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Strptime("2024-02-29 13:05:07", "%Y-%m-%d %H:%M:%S")
	}
}

func BenchmarkFromISOFormat(b *testing.B) {
	for i := 0; i < b.N; i++ {
		DateTimeFromISOFormat("2024-02-29T13:05:07.123456+05:30")
	}
}

func BenchmarkAdd(b *testing.B) {
	d := DateTime{Year: 2024, Month: 2, Day: 29, Hour: 13, Minute: 5, Second: 7}
	td := Timedelta{Days: 1, Seconds: 3600}
	for i := 0; i < b.N; i++ {
		d.Add(td)
	}
}
