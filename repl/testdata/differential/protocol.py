# The RLM conventions of code mode: FINAL, FINAL_VAR, the answer dict, printing values.
# ---- final_string
print("computing")
FINAL("the answer is 42")
print("never printed")
# ---- final_number
FINAL(6 * 7)
# ---- final_data
result = {"errors": 3, "services": ["auth", "db"], "ratio": 0.25, "ok": None}
FINAL(result)
# ---- final_tuple_and_nested
FINAL(("a", [1, 2.5, True], {"k": (None,)}))
# ---- final_in_function
def finish(v):
    FINAL(v)
    print("not reached")
for i in range(10):
    if i == 3:
        finish(f"stopped at {i}")
print("not reached either")
# ---- final_var_name
summary = "5 errors in auth"
FINAL_VAR("summary")
# ---- final_var_list
counts = [3, 1, 4]
counts.sort()
FINAL_VAR("counts")
# ---- final_var_missing
FINAL_VAR("no_such_variable")
# ---- final_var_non_string
FINAL_VAR(123)
# ---- answer_dict_ready
answer["content"] = "from the answer dict"
answer["ready"] = True
print("set")
# ---- answer_dict_not_ready
answer["content"] = "draft"
print(answer)
# ---- answer_dict_rebound
answer = {"content": [1, 2, 3], "ready": True}
# ---- answer_dict_ready_not_true
answer["content"] = "x"
answer["ready"] = 1
print(answer["ready"] == True)
# ---- answer_initial_value
print(answer, type(answer).__name__, sorted(answer))
# ---- answer_sequence
answer["content"] = "step 1"
print(answer)
# ---- answer_sequence / 2
answer["content"] += ", step 2"
answer["ready"] = True
# ---- answer_sequence / 3
print("still running", answer["content"])
# ---- answer_sequence / 4
answer = {"content": "rebound", "ready": True}
# ---- final_after_exception_handled
try:
    1 / 0
except ZeroDivisionError:
    FINAL("recovered")
# ---- final_not_caught_by_except_exception
try:
    FINAL("escapes except Exception")
except Exception:
    print("caught, wrong")
# ---- print_values_variety
print(1, 2.5, "s", None, True, [1, "a"], {"k": (1,)}, {3}, sep=" | ")
print()
print("no newline", end="")
print(" then newline")
print("a", "b", sep="")
print(*[1, 2, 3], sep=", ", end=".\n")
# ---- print_flush_and_file_default
print("x", flush=True)
print("multi\nline\ttext")
print(repr("multi\nline"))
# ---- final_var_after_state
data = []
# ---- final_var_after_state / 2
data.extend(["x", "y"])
# ---- final_var_after_state / 3
report = ", ".join(data)
FINAL_VAR("report")
# ---- state_persists_across_cells
counter = 0
def bump():
    global counter
    counter += 1
    return counter
# ---- state_persists_across_cells / 2
print(bump(), bump())
# ---- state_persists_across_cells / 3
import math
print(counter, math.sqrt(counter * 8))
# ---- state_persists_across_cells / 4
print(sorted(k for k in ["counter", "bump", "math"] if k in globals()))
# ---- error_then_continue
x = 1
print("before error")
y = undefined_variable
# ---- error_then_continue / 2
print("x survives:", x)
print("y defined:", "y" in globals())
# ---- final_with_fstring_report
errors = {"auth": 5, "db": 2, "cache": 0}
lines = [f"{k}: {v}" for k, v in sorted(errors.items(), key=lambda kv: -kv[1]) if v]
FINAL("\n".join(lines))
# ---- final_float_and_bigint
FINAL([0.1 + 0.2, 2 ** 70, -0.0, 1e100])
# ---- final_unicode
FINAL("Zoë → 東京 ✓ 🎉")
# ---- final_bool_none
FINAL(None)
# ---- final_from_context
import re
n = len(re.findall(r" ERROR ", context))
FINAL(f"{n} errors")
# ---- main_guard_idiom
def main():
    print("running main in", __name__)
    return 0
if __name__ == "__main__":
    status = main()
print("status", status)
# ---- print_large_structures
rows = [{"id": i, "name": f"n{i}", "vals": list(range(i % 4))} for i in range(6)]
print(rows)
print(len(str(rows)), str(rows)[:40])
