// Package pysort sorts exactly as CPython 3.12's list.sort does: the same
// result, and the same comparisons, with the same operands in the same
// order. Python code can watch a sort's comparisons (a __lt__ that prints,
// or the TypeError of the first comparison of two unorderable items, as in
// sorted([3, None, 1]), which names 'NoneType' and 'int' in that order), so
// an interpreter that means to behave as CPython has to make the calls
// CPython makes.
//
// The algorithm is the one CPython's Objects/listsort.txt describes: a
// stable, adaptive merge sort (timsort). Runs are found left to right
// (strictly descending runs are reversed in place); a run shorter than
// minrun is extended to minrun items by binary insertion sort; the pending
// runs are merged by the powersort rule (in use since CPython 3.11), and
// the rest are collapsed at the end; merging gallops when one run keeps
// winning, with the galloping threshold adapting across the whole sort.
//
// # What the caller does
//
// The functions here only order items, through a less function that
// answers whether a < b (the interpreter's PyObject_RichCompareBool(a, b,
// Py_LT)). An error from less stops the sort at once and is returned; the
// items are then left in the order CPython leaves a list whose comparison
// raised. less must not change the slice being sorted.
//
// The rest of list.sort is the caller's, and goes in this order:
//
//  1. Make the list look empty for the whole sort (length 0, iterating it
//     yields nothing, repr "[]"), keeping its items aside.
//  2. With key=, call the key function once per item, first to last, on
//     the original order. If it raises, put the original items back
//     unchanged and raise that exception; nothing else below happens.
//     Otherwise sort the keys and move the items with them: [Sort] with a
//     less over keys[a], keys[b] and the permutation applied to the items
//     does exactly that (as does [Slice] over key/item pairs).
//  3. Sort with reverse as given. CPython sorts reverse=True by reversing
//     the items, sorting them, and reversing them again (also when a
//     comparison raised); the reverse argument of [Slice] and [Sort] does
//     both reversals.
//  4. Put the items back as the sort left them (sorted, or partly sorted if
//     less failed), discarding whatever was put into the list meanwhile.
//     If the list was modified during the sort and no exception is being
//     raised already, raise ValueError("list modified during sort"), the
//     list still holding the sorted items.
//
// In CPython "modified" means that the list reserved storage during the
// sort, even if it is empty again by the end. Observed with CPython 3.12.1,
// on a list being sorted (so empty), these count: append, insert, extend or
// += of a non-empty list or tuple, extend of any other iterable whose
// length hint is not 0 (a generator, even one that yields nothing), slice
// assignment of a non-empty sequence, append then pop. These do not: clear,
// del l[:], reverse, copy, *=, extend([]), extend(iter([])), extend(l)
// (l being empty), slice assignment of [], a nested sort of the list.
//
// Two details of how CPython compares during a sort belong to less: when
// all keys have the same type, whose __lt__ returns NotImplemented, CPython
// calls __lt__ once more through the general comparison (which then tries
// the reflected __gt__), so the first __lt__ runs twice; and tuples are
// compared item by item with == first (identity counting as equal), as
// tuple's own < does.
package pysort
