# The textwrap module.
# ---- wrap_and_fill
import textwrap
text = "The quick brown fox jumps over the lazy dog. " * 3
print(textwrap.wrap(text, width=30))
print(textwrap.fill(text, width=40))
# ---- dedent_indent
import textwrap
block = """
    def f():
        return 1
    """
print(repr(textwrap.dedent(block)))
print(textwrap.indent("a\nb\n\nc", "> "))
print(textwrap.indent("a\nb\n\nc", "+", lambda line: True))
# ---- shorten
import textwrap
s = "Hello  world, this is a rather long sentence"
print(textwrap.shorten(s, width=20), "|", textwrap.shorten(s, width=100), "|", textwrap.shorten(s, 15, placeholder="…"))
# ---- wrap_options
import textwrap
t = "alpha beta gamma delta epsilon zeta eta theta"
print(textwrap.wrap(t, 12, initial_indent="* ", subsequent_indent="  "))
print(textwrap.wrap("supercalifragilistic word", 8))
print(textwrap.wrap("supercalifragilistic word", 8, break_long_words=False))
print(textwrap.wrap("", 10), textwrap.wrap("   ", 10))
# ---- fill_with_tabs_and_newlines
import textwrap
print(textwrap.fill("one\ttwo\nthree   four", 12))
print(textwrap.wrap("a-b-c-d-e-f-g hyphen-ated-words", 7))
# ---- textwrapper_object
import textwrap
w = textwrap.TextWrapper(width=25, max_lines=2, placeholder=" [...]")
print(w.wrap("This paragraph will be truncated after two lines of output text."))
# ---- wrap_unicode
import textwrap
print(textwrap.wrap("Zoë naïve café 東京 hotels résumé crème brûlée", 12))
# ---- report_paragraph
import textwrap
summary = "Errors were concentrated in the gateway and worker services; most failures were timeouts or connection resets during peak traffic."
for line in textwrap.wrap(summary, 50):
    print("| " + line.ljust(50) + " |")
