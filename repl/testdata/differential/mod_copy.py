# The copy module.
# ---- shallow_vs_deep
import copy
orig = {"list": [1, 2], "nested": {"k": [3]}, "t": (4, [5])}
sh = copy.copy(orig)
dp = copy.deepcopy(orig)
orig["list"].append(9)
orig["nested"]["k"].append(8)
orig["t"][1].append(7)
print(sh)
print(dp)
print(sh["list"] is orig["list"], dp["list"] is orig["list"])
# ---- deepcopy_shared_references
import copy
shared = [1]
a = [shared, shared]
b = copy.deepcopy(a)
b[0].append(2)
print(b, b[0] is b[1], a)
# ---- deepcopy_cycles
import copy
a = [1]
a.append(a)
b = copy.deepcopy(a)
print(b[1] is b, b[1] is a, len(b))
# ---- copy_user_objects
import copy
class Node:
    def __init__(self, v, kids=None):
        self.v, self.kids = v, kids or []
    def __repr__(self):
        return f"Node({self.v}, {self.kids})"
root = Node(1, [Node(2), Node(3)])
c1 = copy.copy(root)
c2 = copy.deepcopy(root)
root.kids.append(Node(4))
print(c1, c2, sep="\n")
# ---- copy_immutables_identity
import copy
t = (1, "a", 2.5)
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.copy("s") == "s", copy.deepcopy([t])[0] is t)
# ---- custom_copy_hooks
import copy
class Cfg:
    def __init__(self, d):
        self.d = d
    def __copy__(self):
        print("shallow copy hook")
        return Cfg(self.d)
    def __deepcopy__(self, memo):
        print("deep copy hook")
        return Cfg(copy.deepcopy(self.d, memo))
c = Cfg({"a": [1]})
x = copy.copy(c)
y = copy.deepcopy(c)
c.d["a"].append(2)
print(x.d, y.d)
