# Cases run as processes; gen_process.py records CPython's output.
# ---- stream_attributes
import sys
n = sys.stdout.write("to stdout\n")
m = sys.stderr.write("to stderr\n")
print(n, m, sys.stdout.flush(), sys.stdout.isatty(), sys.stdout.name, sys.stderr.name, sys.stdin.name, sys.stdout.encoding, sys.stderr.errors, sys.stdout.writable(), sys.stdin.readable(), sys.stdout.mode, sys.stdout.closed)
print(repr(sys.stdout), repr(sys.stderr))
# ---- stream_errors
import sys
for call in [lambda: sys.stdout.write(5), lambda: sys.stdout.write(), lambda: sys.stdout.writelines([1])]:
    try:
        call()
    except TypeError as e:
        print(e)
# ---- print_to_stderr
import sys
print("a", "b", sep="-", file=sys.stderr)
print("c", file=sys.stdout)
sys.stderr.writelines(["x\n", "y\n"])
