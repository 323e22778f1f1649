# Cases for the calendar module; gen.py records CPython's outcome.
# ---- basics
import calendar as c
print(c.isleap(2024), c.isleap(1900), c.isleap(2000), c.leapdays(2000, 2024), c.leapdays(2024, 2000), c.leapdays(1, 10000))
print(c.weekday(2024, 1, 1), repr(c.weekday(2024, 1, 1)), c.weekday(1970, 1, 1), c.weekday(10000, 1, 1), c.weekday(-5, 3, 1))
print(c.monthrange(2024, 2), repr(c.monthrange(2023, 2)), c.monthrange(2024, 12), c.mdays, c.EPOCH, c.error)
print(c.timegm((2024, 1, 1, 0, 0, 0)), c.timegm((1970, 1, 2, 3, 4, 5, 0, 0, 0)), c.timegm((1969, 12, 31, 23, 59, 59)), c.timegm((2024, 2, 31, 0, 0, 0)))
# ---- names
import calendar as c
print(list(c.month_name), list(c.month_abbr), len(c.month_name), len(c.day_abbr))
print(list(c.day_name), list(c.day_abbr), c.month_name[1:3], c.day_name[-1], c.day_abbr[::2], c.month_abbr[-1])
print(type(c.month_name).__name__, type(c.day_name).__name__)
c.month_name[13]
# ---- enums
import calendar as c
print(c.MONDAY, repr(c.MONDAY), repr(c.JANUARY), c.Month, c.Day, list(c.Day)[:2], c.Month(3), c.Day.FRIDAY + 1, f"{c.FRIDAY}", str(c.JULY))
print(c.DECEMBER == 12, c.SUNDAY == 6, c.Month.MAY.name, c.Day["TUESDAY"], isinstance(c.MONDAY, int), c.January, c.February)
# ---- monthcalendar
import calendar as c
print(c.monthcalendar(2024, 2))
print(c.monthcalendar(2023, 10))
print(c.firstweekday(), repr(c.weekheader(2)), repr(c.weekheader(3)), repr(c.weekheader(9)), repr(c.weekheader(1)))
print(repr(c.week([(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)], 3)))
# ---- month_text
import calendar as c
print(c.month(2024, 2))
print(repr(c.month(2024, 2, 3, 2)))
c.prmonth(2023, 12)
print(c.month(2025, 6, w=1))
# ---- month_sunday_first
import calendar as c
t = c.TextCalendar(c.SUNDAY)
print(t.formatmonth(2024, 3))
print(t.firstweekday, t.getfirstweekday(), list(t.iterweekdays()), repr(t.formatweekheader(3)))
c.setfirstweekday(6)
print(c.firstweekday(), c.month(2024, 9))
c.setfirstweekday(0)
# ---- year_text
import calendar as c
print(c.calendar(2024))
print(repr(c.calendar(2023, 2, 1, 6, 4)[:400]))
# ---- year_text_wide
import calendar as c
c.prcal(2025, w=3, l=1, c=4, m=2)
# ---- calendar_class
import calendar as c
cal = c.Calendar(firstweekday=6)
print(list(cal.itermonthdays(2024, 2))[:10], list(cal.itermonthdays2(2024, 2))[:4])
print(list(cal.itermonthdays3(2024, 1))[:3], list(cal.itermonthdays4(2023, 12))[-2:])
print(cal.monthdays2calendar(2024, 2)[0], len(cal.yeardayscalendar(2024)), len(cal.yeardayscalendar(2024, 4)[0]), cal.yeardays2calendar(2024, 2)[0][1][0])
print(c.Calendar(8).getfirstweekday(), c.Calendar(8).firstweekday, list(c.Calendar(1).iterweekdays()))
cal.firstweekday = 2
print(cal.firstweekday, cal.monthdayscalendar(2024, 2)[0])
# ---- subclass_formatday
import calendar as c
class Marked(c.TextCalendar):
    def __init__(self, marks):
        super().__init__()
        self.marks = marks
    def formatday(self, day, weekday, width):
        s = super().formatday(day, weekday, width)
        return s.replace(" ", "*") if day in self.marks else s
print(Marked({1, 15}).formatmonth(2024, 5))
# ---- html
import calendar as c
h = c.HTMLCalendar()
print(h.formatmonth(2024, 2))
print(h.formatmonth(2024, 2, withyear=False)[:200])
print(h.formatyear(2024, 4)[:600])
print(h.formatweekday(0), h.formatday(0, 1), h.formatday(5, 4), h.cssclasses)
page = h.formatyearpage(2024)
print(type(page).__name__, page[:300])
print(len(h.formatyear(2024)), h.formatyear(2024).count("<table"))
# ---- html_subclass
import calendar as c
class Css(c.HTMLCalendar):
    cssclass_month = "cal"
    def formatday(self, day, weekday):
        return f"<td>{day or ''}</td>"
print(Css(6).formatmonth(2024, 2))
# ---- errors_month
import calendar as c
try:
    c.monthrange(2024, 13)
except c.IllegalMonthError as e:
    print(e, e.args)
# ---- errors_month_value
import calendar as c
try:
    c.month(2024, 0)
except c.IllegalMonthError as e:
    print(type(e).__name__, e, e.month, isinstance(e, ValueError), type(e).__module__)
c.weekday(2024, 2, 30)
# ---- errors_weekday
import calendar as c
try:
    c.setfirstweekday(7)
except c.IllegalWeekdayError as e:
    print(e, e.weekday, type(e).__mro__)
# ---- errors_types
import calendar as c
for args in [(2024.0, 1, 1), ("2024", 1, 1)]:
    try:
        c.weekday(*args)
    except TypeError as e:
        print(type(e).__name__, e)
c.timegm((10000, 1, 1, 0, 0, 0))
# ---- format_helpers
import calendar as c
print(repr(c.formatstring(["a", "bb"], 5, 2)))
c.format(["x", "y"], 3, 1)
# ---- refused_locale
import calendar as c
c.LocaleTextCalendar(locale="de_DE")
