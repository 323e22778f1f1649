# Cases for the keyword module; gen.py records CPython's output.
# ---- lists
import keyword
print(keyword.kwlist, len(keyword.kwlist))
print(keyword.softkwlist, keyword.__all__)
# ---- checks
import keyword
print([w for w in ["if", "If", "match", "type", "_", "print", "None", "async", ""] if keyword.iskeyword(w)])
print([w for w in ["if", "match", "type", "_", "case", "print"] if keyword.issoftkeyword(w)])
print(keyword.iskeyword(1), keyword.issoftkeyword(None))
for call in [lambda: keyword.iskeyword([]), lambda: keyword.iskeyword(), lambda: keyword.iskeyword("a", "b")]:
    try:
        call()
    except TypeError as e:
        print(e)
# ---- identifiers
import keyword
names = ["class", "klass", "def_", "lambda", "x1"]
print([n + "_" if keyword.iskeyword(n) else n for n in names])
