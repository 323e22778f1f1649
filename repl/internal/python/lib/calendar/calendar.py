# Code mode's calendar module, run by the interpreter when the module is
# imported (see calendar.go). Written for code mode after the documented
# behaviour of CPython 3.12's calendar (English names, the C locale).

from enum import IntEnum

__all__ = ["IllegalMonthError", "IllegalWeekdayError", "setfirstweekday",
           "firstweekday", "isleap", "leapdays", "weekday", "monthrange",
           "monthcalendar", "prmonth", "month", "prcal", "calendar",
           "timegm", "month_name", "month_abbr", "day_name", "day_abbr",
           "Calendar", "TextCalendar", "HTMLCalendar", "LocaleTextCalendar",
           "LocaleHTMLCalendar", "weekheader",
           "Day", "Month", "JANUARY", "FEBRUARY", "MARCH",
           "APRIL", "MAY", "JUNE", "JULY",
           "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER",
           "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY",
           "SATURDAY", "SUNDAY"]

error = ValueError


class IllegalMonthError(ValueError):
    __module__ = "calendar"

    def __init__(self, month):
        self.month = month

    def __str__(self):
        return f"bad month number {self.month!r}; must be 1-12"


class IllegalWeekdayError(ValueError):
    __module__ = "calendar"

    def __init__(self, weekday):
        self.weekday = weekday

    def __str__(self):
        return f"bad weekday number {self.weekday!r}; must be 0 (Monday) to 6 (Sunday)"


class Month(IntEnum):
    __module__ = "calendar"
    JANUARY = 1
    FEBRUARY = 2
    MARCH = 3
    APRIL = 4
    MAY = 5
    JUNE = 6
    JULY = 7
    AUGUST = 8
    SEPTEMBER = 9
    OCTOBER = 10
    NOVEMBER = 11
    DECEMBER = 12

    def __repr__(self):
        return "calendar." + self._name_


class Day(IntEnum):
    __module__ = "calendar"
    MONDAY = 0
    TUESDAY = 1
    WEDNESDAY = 2
    THURSDAY = 3
    FRIDAY = 4
    SATURDAY = 5
    SUNDAY = 6

    def __repr__(self):
        return "calendar." + self._name_


for _member in (*Month, *Day):
    globals()[_member._name_] = _member
del _member

mdays = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

_MONTH_NAMES = ["", "January", "February", "March", "April", "May", "June", "July",
                "August", "September", "October", "November", "December"]
_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class _localized_month:
    __module__ = "calendar"

    def __init__(self, format):
        self.format = format

    def _name(self, i):
        if i == 0:
            return ""
        name = _MONTH_NAMES[i]
        return name if self.format == "%B" else name[:3]

    def __getitem__(self, i):
        picked = list(range(13))[i]
        if isinstance(i, slice):
            return [self._name(k) for k in picked]
        return self._name(picked)

    def __len__(self):
        return 13


class _localized_day:
    __module__ = "calendar"

    def __init__(self, format):
        self.format = format

    def _name(self, i):
        name = _DAY_NAMES[i]
        return name if self.format == "%A" else name[:3]

    def __getitem__(self, i):
        picked = list(range(7))[i]
        if isinstance(i, slice):
            return [self._name(k) for k in picked]
        return self._name(picked)

    def __len__(self):
        return 7


day_name = _localized_day("%A")
day_abbr = _localized_day("%a")
month_name = _localized_month("%B")
month_abbr = _localized_month("%b")


def _as_index(x):
    if isinstance(x, int):
        return int(x)
    raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")


def _check_date(year, month, day):
    year, month, day = _as_index(year), _as_index(month), _as_index(day)
    if not 1 <= year <= 9999:
        raise ValueError(f"year {year} is out of range")
    if not 1 <= month <= 12:
        raise ValueError("month must be in 1..12")
    if not 1 <= day <= _monthlen(year, month):
        raise ValueError("day is out of range for month")
    return year, month, day


def _ordinal(year, month, day):
    # Days since 0001-01-01 (day 1), in the proleptic Gregorian calendar.
    y = year - 1
    days = y * 365 + y // 4 - y // 100 + y // 400
    for m in range(1, month):
        days += _monthlen(year, m)
    return days + day


def isleap(year):
    """Return True for leap years, False for non-leap years."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def leapdays(y1, y2):
    """Return number of leap years in range [y1, y2).
       Assume y1 <= y2."""
    a, b = y1 - 1, y2 - 1
    return (b // 4 - a // 4) - (b // 100 - a // 100) + (b // 400 - a // 400)


def weekday(year, month, day):
    """Return weekday (0-6 ~ Mon-Sun) for year, month (1-12), day (1-31)."""
    if not 1 <= year <= 9999:
        year = 2000 + year % 400
    year, month, day = _check_date(year, month, day)
    return Day((_ordinal(year, month, day) + 6) % 7)


def monthrange(year, month):
    """Return weekday of first day of month (0-6 ~ Mon-Sun)
       and number of days (28-31) for year, month."""
    if not 1 <= month <= 12:
        raise IllegalMonthError(month)
    return weekday(year, month, 1), _monthlen(year, month)


def _monthlen(year, month):
    if month == 2 and isleap(year):
        return 29
    return mdays[month]


def _prevmonth(year, month):
    return (year - 1, 12) if month == 1 else (year, month - 1)


def _nextmonth(year, month):
    return (year + 1, 1) if month == 12 else (year, month + 1)


def _import_datetime():
    import datetime
    return datetime


class Calendar(object):
    """
    Base calendar class. This class doesn't do any formatting. It simply
    provides data to subclasses.
    """
    __module__ = "calendar"

    def __init__(self, firstweekday=0):
        self.firstweekday = firstweekday

    def getfirstweekday(self):
        return self._firstweekday % 7

    def setfirstweekday(self, firstweekday):
        self._firstweekday = firstweekday

    firstweekday = property(getfirstweekday, setfirstweekday)

    def iterweekdays(self):
        """
        Return an iterator for one week of weekday numbers starting with the
        configured first one.
        """
        first = self.firstweekday
        for k in range(first, first + 7):
            yield k % 7

    def itermonthdates(self, year, month):
        """
        Return an iterator for one month. The iterator will yield datetime.date
        values and will always iterate through complete weeks, so it will yield
        dates outside the specified month.
        """
        date = _import_datetime().date
        for y, m, d in self.itermonthdays3(year, month):
            yield date(y, m, d)

    def itermonthdays(self, year, month):
        """
        Like itermonthdates(), but will yield day numbers. For days outside
        the specified month the day number is 0.
        """
        first, ndays = monthrange(year, month)
        lead = (first - self.firstweekday) % 7
        for _ in range(lead):
            yield 0
        yield from range(1, ndays + 1)
        for _ in range((self.firstweekday - first - ndays) % 7):
            yield 0

    def itermonthdays2(self, year, month):
        """
        Like itermonthdates(), but will yield (day number, weekday number)
        tuples. For days outside the specified month the day number is 0.
        """
        wd = self.firstweekday
        for d in self.itermonthdays(year, month):
            yield d, wd % 7
            wd += 1

    def itermonthdays3(self, year, month):
        """
        Like itermonthdates(), but will yield (year, month, day) tuples.  Can be
        used for dates outside of datetime.date range.
        """
        first, ndays = monthrange(year, month)
        lead = (first - self.firstweekday) % 7
        trail = (self.firstweekday - first - ndays) % 7
        py, pm = _prevmonth(year, month)
        plen = _monthlen(py, pm)
        for d in range(plen - lead + 1, plen + 1):
            yield py, pm, d
        for d in range(1, ndays + 1):
            yield year, month, d
        ny, nm = _nextmonth(year, month)
        for d in range(1, trail + 1):
            yield ny, nm, d

    def itermonthdays4(self, year, month):
        """
        Like itermonthdates(), but will yield (year, month, day, day_of_week) tuples.
        Can be used for dates outside of datetime.date range.
        """
        wd = self.firstweekday
        for y, m, d in self.itermonthdays3(year, month):
            yield y, m, d, wd % 7
            wd += 1

    @staticmethod
    def _weeks(items):
        items = list(items)
        return [items[k:k + 7] for k in range(0, len(items), 7)]

    def monthdatescalendar(self, year, month):
        """
        Return a matrix (list of lists) representing a month's calendar.
        Each row represents a week; week entries are datetime.date values.
        """
        return self._weeks(self.itermonthdates(year, month))

    def monthdays2calendar(self, year, month):
        """
        Return a matrix representing a month's calendar.
        Each row represents a week; week entries are
        (day number, weekday number) tuples. Day numbers outside this month
        are zero.
        """
        return self._weeks(self.itermonthdays2(year, month))

    def monthdayscalendar(self, year, month):
        """
        Return a matrix representing a month's calendar.
        Each row represents a week; days outside this month are zero.
        """
        return self._weeks(self.itermonthdays(year, month))

    @staticmethod
    def _rows(months, width):
        return [months[k:k + width] for k in range(0, len(months), width)]

    def yeardatescalendar(self, year, width=3):
        """
        Return the data for the specified year ready for formatting. The return
        value is a list of month rows. Each month row contains up to width months.
        Each month contains between 4 and 6 weeks and each week contains 1-7
        days. Days are datetime.date objects.
        """
        return self._rows([self.monthdatescalendar(year, m) for m in range(1, 13)], width)

    def yeardays2calendar(self, year, width=3):
        """
        Return the data for the specified year ready for formatting (similar to
        yeardatescalendar()). Entries in the week lists are
        (day number, weekday number) tuples. Day numbers outside this month are
        zero.
        """
        return self._rows([self.monthdays2calendar(year, m) for m in range(1, 13)], width)

    def yeardayscalendar(self, year, width=3):
        """
        Return the data for the specified year ready for formatting (similar to
        yeardatescalendar()). Entries in the week lists are day numbers.
        Day numbers outside this month are zero.
        """
        return self._rows([self.monthdayscalendar(year, m) for m in range(1, 13)], width)


class TextCalendar(Calendar):
    """
    Subclass of Calendar that outputs a calendar as a simple plain text
    similar to the UNIX program cal.
    """
    __module__ = "calendar"

    def prweek(self, theweek, width):
        """
        Print a single week (no newline).
        """
        print(self.formatweek(theweek, width), end='')

    def formatday(self, day, weekday, width):
        """
        Returns a formatted day.
        """
        return ("" if day == 0 else "%2i" % day).center(width)

    def formatweek(self, theweek, width):
        """
        Returns a single week in a string (no newline).
        """
        return " ".join([self.formatday(d, wd, width) for d, wd in theweek])

    def formatweekday(self, day, width):
        """
        Returns a formatted week day name.
        """
        names = day_name if width >= 9 else day_abbr
        return names[day][:width].center(width)

    def formatweekheader(self, width):
        """
        Return a header for a week.
        """
        return " ".join([self.formatweekday(d, width) for d in self.iterweekdays()])

    def formatmonthname(self, theyear, themonth, width, withyear=True):
        """
        Return a formatted month name.
        """
        name = month_name[themonth]
        if withyear:
            name = f"{name} {theyear!r}"
        return name.center(width)

    def prmonth(self, theyear, themonth, w=0, l=0):
        """
        Print a month's calendar.
        """
        print(self.formatmonth(theyear, themonth, w, l), end='')

    def formatmonth(self, theyear, themonth, w=0, l=0):
        """
        Return a month's calendar string (multi-line).
        """
        w, l = max(2, w), max(1, l)
        gap = "\n" * l
        lines = [self.formatmonthname(theyear, themonth, 7 * (w + 1) - 1).rstrip(),
                 self.formatweekheader(w).rstrip()]
        for week in self.monthdays2calendar(theyear, themonth):
            lines.append(self.formatweek(week, w).rstrip())
        return "".join(line + gap for line in lines)

    def formatyear(self, theyear, w=2, l=1, c=6, m=3):
        """
        Returns a year's calendar as a multi-line string.
        """
        w, l, c = max(2, w), max(1, l), max(2, c)
        colwidth = (w + 1) * 7 - 1
        gap = "\n" * l
        out = [repr(theyear).center(colwidth * m + c * (m - 1)).rstrip(), gap]
        header = self.formatweekheader(w)
        for i, row in enumerate(self.yeardays2calendar(theyear, m)):
            months = range(m * i + 1, min(m * (i + 1) + 1, 13))
            out.append(gap)
            names = [self.formatmonthname(theyear, k, colwidth, False) for k in months]
            out.append(formatstring(names, colwidth, c).rstrip())
            out.append(gap)
            out.append(formatstring([header for _ in months], colwidth, c).rstrip())
            out.append(gap)
            for j in range(max(len(cal) for cal in row)):
                weeks = ["" if j >= len(cal) else self.formatweek(cal[j], w) for cal in row]
                out.append(formatstring(weeks, colwidth, c).rstrip())
                out.append(gap)
        return "".join(out)

    def pryear(self, theyear, w=0, l=0, c=6, m=3):
        """Print a year's calendar."""
        print(self.formatyear(theyear, w, l, c, m), end='')


class HTMLCalendar(Calendar):
    """
    This calendar returns complete HTML pages.
    """
    __module__ = "calendar"

    cssclasses = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    cssclasses_weekday_head = cssclasses
    cssclass_noday = "noday"
    cssclass_month_head = "month"
    cssclass_month = "month"
    cssclass_year_head = "year"
    cssclass_year = "year"

    def formatday(self, day, weekday):
        """
        Return a day as a table cell.
        """
        if day == 0:
            return f'<td class="{self.cssclass_noday}">&nbsp;</td>'
        return '<td class="%s">%d</td>' % (self.cssclasses[weekday], day)

    def formatweek(self, theweek):
        """
        Return a complete week as a table row.
        """
        return "<tr>" + "".join([self.formatday(d, wd) for d, wd in theweek]) + "</tr>"

    def formatweekday(self, day):
        """
        Return a weekday name as a table header.
        """
        return f'<th class="{self.cssclasses_weekday_head[day]}">{day_abbr[day]}</th>'

    def formatweekheader(self):
        """
        Return a header for a week as a table row.
        """
        return "<tr>" + "".join([self.formatweekday(d) for d in self.iterweekdays()]) + "</tr>"

    def formatmonthname(self, theyear, themonth, withyear=True):
        """
        Return a month name as a table row.
        """
        name = f"{month_name[themonth]} {theyear}" if withyear else f"{month_name[themonth]}"
        return f'<tr><th colspan="7" class="{self.cssclass_month_head}">{name}</th></tr>'

    def formatmonth(self, theyear, themonth, withyear=True):
        """
        Return a formatted month as a table.
        """
        parts = [f'<table border="0" cellpadding="0" cellspacing="0" class="{self.cssclass_month}">',
                 self.formatmonthname(theyear, themonth, withyear=withyear),
                 self.formatweekheader()]
        parts += [self.formatweek(week) for week in self.monthdays2calendar(theyear, themonth)]
        parts.append("</table>")
        return "\n".join(parts) + "\n"

    def formatyear(self, theyear, width=3):
        """
        Return a formatted year as a table of tables.
        """
        width = max(width, 1)
        out = [f'<table border="0" cellpadding="0" cellspacing="0" class="{self.cssclass_year}">\n',
               '<tr><th colspan="%d" class="%s">%s</th></tr>' % (width, self.cssclass_year_head, theyear)]
        for first in range(1, 13, width):
            out.append("<tr>")
            for k in range(first, min(first + width, 13)):
                out.append("<td>" + self.formatmonth(theyear, k, withyear=False) + "</td>")
            out.append("</tr>")
        out.append("</table>")
        return "".join(out)

    def formatyearpage(self, theyear, width=3, css='calendar.css', encoding=None):
        """
        Return a formatted year as a complete HTML page.
        """
        if encoding is None:
            encoding = "utf-8"
        page = [f'<?xml version="1.0" encoding="{encoding}"?>\n',
                '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
                '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n',
                '<html>\n', '<head>\n',
                f'<meta http-equiv="Content-Type" content="text/html; charset={encoding}" />\n']
        if css is not None:
            page.append(f'<link rel="stylesheet" type="text/css" href="{css}" />\n')
        page += ['<title>Calendar for %d</title>\n' % theyear, '</head>\n', '<body>\n',
                 self.formatyear(theyear, width), '</body>\n', '</html>\n']
        return "".join(page).encode(encoding, "xmlcharrefreplace")


class LocaleTextCalendar(TextCalendar):
    __module__ = "calendar"

    def __init__(self, firstweekday=0, locale=None):
        _refuse_locale("calendar.LocaleTextCalendar")


class LocaleHTMLCalendar(HTMLCalendar):
    __module__ = "calendar"

    def __init__(self, firstweekday=0, locale=None):
        _refuse_locale("calendar.LocaleHTMLCalendar")


class different_locale:
    __module__ = "calendar"

    def __init__(self, locale):
        _refuse_locale("calendar.different_locale")


c = TextCalendar()

firstweekday = c.getfirstweekday


def setfirstweekday(firstweekday):
    if not MONDAY <= firstweekday <= SUNDAY:
        raise IllegalWeekdayError(firstweekday)
    c.firstweekday = firstweekday


monthcalendar = c.monthdayscalendar
prweek = c.prweek
week = c.formatweek
weekheader = c.formatweekheader
prmonth = c.prmonth
month = c.formatmonth
calendar = c.formatyear
prcal = c.pryear

_colwidth = 7 * 3 - 1
_spacing = 6


def format(cols, colwidth=_colwidth, spacing=_spacing):
    """Prints multi-column formatting for year calendars"""
    print(formatstring(cols, colwidth, spacing))


def formatstring(cols, colwidth=_colwidth, spacing=_spacing):
    """Returns a string formatted from n strings, centered within n columns."""
    return (" " * spacing).join([col.center(colwidth) for col in cols])


EPOCH = 1970
_EPOCH_ORD = 719163


def timegm(tuple):
    """Unrelated but handy function to calculate Unix timestamp from GMT."""
    year, month, day, hour, minute, second = tuple[:6]
    _check_date(year, month, 1)
    days = _ordinal(year, month, 1) - _EPOCH_ORD + day - 1
    return ((days * 24 + hour) * 60 + minute) * 60 + second
