# Cases for the textwrap module wrapper; module_gen.py records CPython's output.
# ---- wrap_fill_defaults
import textwrap
text = "The quick brown fox jumps over the lazy dog. " * 4
print(textwrap.wrap(text))
print(textwrap.fill(text))
print(textwrap.wrap(text, 25), textwrap.wrap(text=text, width=33))
print(textwrap.fill("a b c", width=1))
# ---- wrap_options
import textwrap
t = "alpha beta  gamma delta. Epsilon zeta eta theta iota kappa lambda"
print(textwrap.wrap(t, 14, initial_indent="> ", subsequent_indent=".."))
print(textwrap.wrap(t, 14, fix_sentence_endings=True))
print(textwrap.wrap(t, 14, drop_whitespace=False))
print(textwrap.wrap("x\ty\tz", 20, expand_tabs=False), textwrap.wrap("x\ty\tz", 20, tabsize=4))
print(textwrap.wrap("x\ny\tz", 20, replace_whitespace=False, expand_tabs=False))
print(textwrap.wrap("aa-bb-cc-dd-ee", 6), textwrap.wrap("aa-bb-cc-dd-ee", 6, break_on_hyphens=False))
print(textwrap.wrap("aa-bb-cc-dd-ee", 6, break_on_hyphens=1))
print(textwrap.wrap("abcdefghij klm", 4, break_long_words=False))
print(textwrap.wrap(t, 20, max_lines=2), textwrap.wrap(t, 20, max_lines=2, placeholder="~"))
# ---- textwrapper_attributes
import textwrap
w = textwrap.TextWrapper()
print(w.width, repr(w.initial_indent), w.expand_tabs, w.max_lines, repr(w.placeholder), w.tabsize, w.break_on_hyphens)
w.width = 10
w.initial_indent = "* "
print(w.wrap("one two three four five six"))
w.max_lines = 2
print(w.fill("one two three four five six seven"))
w2 = textwrap.TextWrapper(width=12, subsequent_indent="  ")
print(w2.fill("lorem ipsum dolor sit amet consectetur"))
print(isinstance(w2, textwrap.TextWrapper), type(w2).__name__, textwrap.TextWrapper.__module__)
# ---- textwrapper_subclass
import textwrap
class Narrow(textwrap.TextWrapper):
    def __init__(self, **kw):
        super().__init__(width=8, **kw)
    def lines(self, text):
        return len(self.wrap(text))
n = Narrow(initial_indent="-")
print(n.width, n.wrap("aaa bbb ccc ddd"), n.lines("x " * 20))
# ---- shorten_cases
import textwrap
print(textwrap.shorten("Hello  world!", width=12))
print(textwrap.shorten("Hello  world!", width=11))
print(textwrap.shorten("Hello world", width=10, placeholder="..."))
print(repr(textwrap.shorten("   ", 5)), textwrap.shorten("a" * 30, 10))
# ---- dedent_cases
import textwrap
print(repr(textwrap.dedent("  a\n    b\n  c\n")))
print(repr(textwrap.dedent("\ta\n\t\tb")), repr(textwrap.dedent("  a\n\tb")))
print(repr(textwrap.dedent("   \n  x\n   \n  y")), repr(textwrap.dedent("")))
# ---- indent_cases
import textwrap
print(repr(textwrap.indent("a\n\nb\r\nc", "  ")))
print(repr(textwrap.indent("a\n\nb", "# ", lambda l: True)))
print(repr(textwrap.indent("one\ntwo\nthree", "> ", predicate=lambda l: "o" in l)))
# ---- unicode_widths
import textwrap
print(textwrap.wrap("Zoë naïve café 東京 hotels résumé crème brûlée", 9))
print(textwrap.fill("αβγ δεζ ηθι κλμ", 7))
# ---- error_width
import textwrap
textwrap.wrap("abc", 0)
# ---- error_placeholder
import textwrap
textwrap.fill("a b c d e f", 5, max_lines=1, placeholder=" [......]")
# ---- error_kwarg
import textwrap
textwrap.wrap("abc", widht=5)
# ---- error_missing
import textwrap
textwrap.shorten("abc")
# ---- error_text_type
import textwrap
textwrap.wrap(123)
# ---- error_dedent_type
import textwrap
textwrap.dedent(None)
# ---- error_shorten_max_lines
import textwrap
textwrap.shorten("abc def", 5, max_lines=3)
# ---- refused_float_width
import textwrap
print(textwrap.wrap("a b", 5))
textwrap.wrap("a b c", 2.5)
# ---- error_positional
import textwrap
textwrap.wrap("alpha beta", 10, "", "", True, True, False, True, True, True, 8)
# ---- error_positional_shorten
import textwrap
textwrap.shorten("alpha beta", 10, "")
# ---- wrapper_positional
import textwrap
w = textwrap.TextWrapper(10, "", "", True, True, False, True, True, True, 8)
print(w.wrap("alpha beta gamma"), w.tabsize)
textwrap.TextWrapper(10, "", "", True, True, False, True, True, True, 8, 3)
