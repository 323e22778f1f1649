# The csv module over strings (io.StringIO).
# ---- reader_basic
import csv, io
data = 'name,age,city\nAnn,34,Oslo\n"Lee, Bo",27,"New\nYork"\nCé,45,"say ""hi"""\n'
rows = list(csv.reader(io.StringIO(data)))
print(rows)
print(len(rows), rows[2][2], rows[3][2])
# ---- dictreader
import csv, io
data = "id,score,grade\n1,88.5,B\n2,92,A\n3,,C\n"
rows = list(csv.DictReader(io.StringIO(data)))
print(rows[0], rows[2]["score"] == "")
scores = [float(r["score"]) for r in rows if r["score"]]
print(sum(scores) / len(scores), [r["grade"] for r in rows])
# ---- writer_quoting
import csv, io
buf = io.StringIO()
w = csv.writer(buf)
w.writerow(["plain", "has,comma", 'has "quote"', "multi\nline", 3, 2.5, None, ""])
w.writerows([[1, 2], ["a b", "c"]])
print(repr(buf.getvalue()))
# ---- writer_options
import csv, io
buf = io.StringIO()
w = csv.writer(buf, delimiter=";", quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
w.writerow(["x", 1, 2.5, "y;z"])
w2 = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
w2.writerow(["a", 1])
w3 = csv.writer(buf, quoting=csv.QUOTE_MINIMAL, quotechar="'", lineterminator="|\n")
w3.writerow(["it's", "ok"])
print(buf.getvalue())
# ---- dictwriter
import csv, io
buf = io.StringIO()
w = csv.DictWriter(buf, fieldnames=["name", "n"], lineterminator="\n")
w.writeheader()
w.writerow({"name": "ann", "n": 1})
w.writerows([{"name": "bob", "n": 2}, {"name": "cy"}])
print(buf.getvalue())
# ---- dictwriter_extra_key
import csv, io
w = csv.DictWriter(io.StringIO(), fieldnames=["a"])
w.writerow({"a": 1, "b": 2})
# ---- reader_dialect_options
import csv, io
tsv = "a\tb\tc\n1\t\t3\n"
print(list(csv.reader(io.StringIO(tsv), delimiter="\t")))
print(list(csv.reader(["x, y, z"], skipinitialspace=True)), list(csv.reader(["a|b"], delimiter="|")))
print(list(csv.reader(io.StringIO("'a,b',c\n"), quotechar="'")))
# ---- csv_aggregate_report
import csv, io
data = """region,product,units,price
north,widget,10,2.50
south,widget,4,2.50
north,gadget,3,10.00
east,widget,7,2.75
south,gadget,1,9.50
"""
totals = {}
for r in csv.DictReader(io.StringIO(data)):
    totals.setdefault(r["region"], 0.0)
    totals[r["region"]] += int(r["units"]) * float(r["price"])
out = io.StringIO()
w = csv.writer(out, lineterminator="\n")
w.writerow(["region", "revenue"])
for k in sorted(totals, key=totals.get, reverse=True):
    w.writerow([k, f"{totals[k]:.2f}"])
print(out.getvalue(), end="")
# ---- reader_strict_error
import csv, io
list(csv.reader(io.StringIO('a,"b\n'), strict=True))
# ---- reader_line_num_and_sniff_header
import csv, io
r = csv.reader(io.StringIO("h1,h2\n1,2\n3,4\n"))
header = next(r)
for row in r:
    print(r.line_num, dict(zip(header, row)))
