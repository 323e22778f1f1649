package pysort

import "slices"

// minGallop is where the galloping threshold starts, and how long a
// stretch a gallop must find for the merge to keep galloping.
const minGallop = 7

// Slice sorts s in place, stably, exactly as CPython 3.12's
// list.sort(reverse=reverse) sorts a list holding s: less(a, b) reports
// whether a < b, and is called with the same operands, in the same order,
// as CPython calls the < of the items.
//
// If less returns an error, the sort stops and Slice returns that error;
// s then holds its items in the order CPython leaves the list in at that
// point (for reverse, after the second reversal, as CPython does).
//
// less need not be a consistent order: for any answers it gives, the calls
// and the resulting permutation of s are CPython's. Apart from the calls,
// the work is O(n log n) for n items whatever less answers, so a caller
// bounds a sort's time by having less fail (on a step budget, say).
func Slice[E any](s []E, reverse bool, less func(a, b E) (bool, error)) error {
	if reverse {
		slices.Reverse(s)
		defer slices.Reverse(s)
	}
	if len(s) < 2 {
		return nil
	}
	st := sorter[E]{s: s, less: less, minGallop: minGallop}
	return st.sort()
}

// Sort sorts n items addressed by index, as [Slice] would sort them: less(a,
// b) reports whether item a < item b, where a and b are the items' indexes
// before the sort. It returns the permutation perm for which item perm[k]
// belongs at position k; when less fails, it returns the permutation CPython
// leaves the items in at that point, along with the error.
//
// With key=, index the keys: less(a, b) compares keys[a] and keys[b], and
// the items end up as items[perm[0]], items[perm[1]], ...
func Sort(n int, reverse bool, less func(a, b int) (bool, error)) ([]int, error) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	err := Slice(perm, reverse, less)
	return perm, err
}

// run is a pending run: s[base:base+len] is sorted. power is the powersort
// power of the boundary between the run and the next one.
type run struct {
	base, len, power int
}

// sorter holds the state of one sort.
type sorter[E any] struct {
	s    []E
	less func(a, b E) (bool, error)
	tmp  []E   // scratch for merges
	runs []run // the pending runs, left to right
	// minGallop is the current galloping threshold: it falls while
	// galloping pays and rises when it does not.
	minGallop int
}

func (st *sorter[E]) sort() error {
	n := len(st.s)
	minrun := minRunLength(n)
	for lo := 0; lo < n; {
		k, descending, err := st.countRun(lo, n)
		if err != nil {
			return err
		}
		if descending {
			slices.Reverse(st.s[lo : lo+k])
		}
		if k < minrun {
			force := min(minrun, n-lo)
			if err := st.binaryInsertion(lo, lo+force, lo+k); err != nil {
				return err
			}
			k = force
		}
		if err := st.pushRun(lo, k); err != nil {
			return err
		}
		lo += k
	}
	return st.collapseAll()
}

// minRunLength returns the shortest run the sort builds for n items:
// the top six bits of n, plus one if any lower bit is set. For n < 64 it
// is n, so that a short list is sorted by binary insertion alone.
func minRunLength(n int) int {
	carry := 0
	for n >= 64 {
		carry |= n & 1
		n >>= 1
	}
	return n + carry
}

// countRun returns the length of the run that starts at s[lo], ending no
// later than s[hi-1]: the longest non-descending prefix, or, when
// s[lo+1] < s[lo], the longest strictly descending prefix (descending is
// then true; strictness keeps the sort stable when it is reversed).
func (st *sorter[E]) countRun(lo, hi int) (n int, descending bool, err error) {
	s := st.s
	if lo+1 == hi {
		return 1, false, nil
	}
	lt, err := st.less(s[lo+1], s[lo])
	if err != nil {
		return 0, false, err
	}
	n = 2
	for i := lo + 2; i < hi; i++ {
		next, err := st.less(s[i], s[i-1])
		if err != nil {
			return 0, false, err
		}
		if next != lt {
			break
		}
		n++
	}
	return n, lt, nil
}

// binaryInsertion sorts s[lo:hi], of which s[lo:start] (start > lo) is
// sorted already, inserting each later item after the sorted items not
// greater than it, found by binary search.
func (st *sorter[E]) binaryInsertion(lo, hi, start int) error {
	s := st.s
	for ; start < hi; start++ {
		x := s[start]
		// x is not less than any of s[lo:l], and less than all of s[r:start].
		l, r := lo, start
		for l < r {
			m := l + (r-l)>>1
			lt, err := st.less(x, s[m])
			if err != nil {
				return err
			}
			if lt {
				r = m
			} else {
				l = m + 1
			}
		}
		copy(s[l+1:start+1], s[l:start])
		s[l] = x
	}
	return nil
}

// pushRun adds the run s[base:base+n], which follows the last pending run,
// first merging the pending runs the powersort rule says to merge.
func (st *sorter[E]) pushRun(base, n int) error {
	if k := len(st.runs); k > 0 {
		top := st.runs[k-1]
		p := nodePower(top.base, top.len, n, len(st.s))
		for len(st.runs) > 1 && st.runs[len(st.runs)-2].power > p {
			if err := st.mergeAt(len(st.runs) - 2); err != nil {
				return err
			}
		}
		st.runs[len(st.runs)-1].power = p
	}
	st.runs = append(st.runs, run{base: base, len: n})
	return nil
}

// nodePower returns the powersort power of the boundary between a run of
// n1 items starting at s1 and the n2 items that follow it, in a list of n
// items: the position of the first binary digit in which the two runs'
// midpoints, as fractions of n, differ (1 for the first digit after the
// point).
func nodePower(s1, n1, n2, n int) int {
	// Twice the midpoints keeps them integers; the digits of 2a/2n are
	// those of a/n.
	a := 2*s1 + n1
	b := a + n1 + n2
	p := 1
	for {
		// a < b < 2n here: the next digit of each is whether it is >= n.
		if b >= n && a < n {
			return p
		}
		if a >= n {
			a -= n
			b -= n
		}
		a <<= 1
		b <<= 1
		p++
	}
}

// collapseAll merges all pending runs, at each step the top two, or the
// two below them when the third from the top is shorter than the top.
func (st *sorter[E]) collapseAll() error {
	for len(st.runs) > 1 {
		i := len(st.runs) - 2
		if i > 0 && st.runs[i-1].len < st.runs[i+1].len {
			i--
		}
		if err := st.mergeAt(i); err != nil {
			return err
		}
	}
	return nil
}

// mergeAt merges pending runs i and i+1, which must be among the top three.
func (st *sorter[E]) mergeAt(i int) error {
	s := st.s
	a, b := st.runs[i], st.runs[i+1]
	st.runs[i].len = a.len + b.len
	if i == len(st.runs)-3 {
		st.runs[i+1] = st.runs[i+2]
	}
	st.runs = st.runs[:len(st.runs)-1]

	// Items of a not greater than b's first are in place already.
	k, err := st.gallopRight(s[b.base], s[a.base:a.base+a.len], 0)
	if err != nil {
		return err
	}
	pa, na := a.base+k, a.len-k
	if na == 0 {
		return nil
	}
	// So are items of b not less than a's last.
	nb, err := st.gallopLeft(s[pa+na-1], s[b.base:b.base+b.len], b.len-1)
	if err != nil || nb == 0 {
		return err
	}
	if na <= nb {
		return st.mergeLo(pa, na, b.base, nb)
	}
	return st.mergeHi(pa, na, b.base, nb)
}

// gallopLeft returns where key goes in the sorted a, left of any items
// equal to it: the k for which a[:k] < key <= a[k:]. It searches outwards
// from a[hint] in steps of 1, 3, 7, 15, ... and then by bisection.
func (st *sorter[E]) gallopLeft(key E, a []E, hint int) (int, error) {
	n := len(a)
	// Find lo < hi with a[lo] < key <= a[hi], -1 and n standing for
	// minus and plus infinity.
	var lo, hi int
	lt, err := st.less(a[hint], key)
	if err != nil {
		return 0, err
	}
	last, ofs := 0, 1
	if lt {
		// a[hint] < key: look right, with a[hint+last] < key.
		limit := n - hint
		for ofs < limit {
			lt, err := st.less(a[hint+ofs], key)
			if err != nil {
				return 0, err
			}
			if !lt {
				break
			}
			last, ofs = ofs, ofs<<1+1
		}
		ofs = min(ofs, limit)
		lo, hi = hint+last, hint+ofs
	} else {
		// key <= a[hint]: look left, with key <= a[hint-last].
		limit := hint + 1
		for ofs < limit {
			lt, err := st.less(a[hint-ofs], key)
			if err != nil {
				return 0, err
			}
			if lt {
				break
			}
			last, ofs = ofs, ofs<<1+1
		}
		ofs = min(ofs, limit)
		lo, hi = hint-ofs, hint-last
	}
	for lo++; lo < hi; {
		m := lo + (hi-lo)>>1
		lt, err := st.less(a[m], key)
		if err != nil {
			return 0, err
		}
		if lt {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return hi, nil
}

// gallopRight is gallopLeft placing key right of any items equal to it: it
// returns the k for which a[:k] <= key < a[k:].
func (st *sorter[E]) gallopRight(key E, a []E, hint int) (int, error) {
	n := len(a)
	// Find lo < hi with a[lo] <= key < a[hi].
	var lo, hi int
	lt, err := st.less(key, a[hint])
	if err != nil {
		return 0, err
	}
	last, ofs := 0, 1
	if lt {
		// key < a[hint]: look left, with key < a[hint-last].
		limit := hint + 1
		for ofs < limit {
			lt, err := st.less(key, a[hint-ofs])
			if err != nil {
				return 0, err
			}
			if !lt {
				break
			}
			last, ofs = ofs, ofs<<1+1
		}
		ofs = min(ofs, limit)
		lo, hi = hint-ofs, hint-last
	} else {
		// a[hint] <= key: look right, with a[hint+last] <= key.
		limit := n - hint
		for ofs < limit {
			lt, err := st.less(key, a[hint+ofs])
			if err != nil {
				return 0, err
			}
			if lt {
				break
			}
			last, ofs = ofs, ofs<<1+1
		}
		ofs = min(ofs, limit)
		lo, hi = hint+last, hint+ofs
	}
	for lo++; lo < hi; {
		m := lo + (hi-lo)>>1
		lt, err := st.less(key, a[m])
		if err != nil {
			return 0, err
		}
		if lt {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return hi, nil
}

// mergeLo merges the adjacent sorted runs s[pa:pa+na] and s[pb:pb+nb]
// (pb == pa+na) in place, with na <= nb. The first item of b is less than
// the first of a, and the last of a is greater than the last of b. Run a
// is moved aside to st.tmp and the merge fills s from the left.
//
// Whatever happens, s ends up a permutation of its items: on an error the
// items of a not yet merged fill the gap.
func (st *sorter[E]) mergeLo(pa, na, pb, nb int) error {
	s := st.s
	st.tmp = append(st.tmp[:0], s[pa:pa+na]...)
	tmp := st.tmp
	var (
		dest           = pa // next place to fill
		ia             = 0  // next item of a, in tmp
		ib             = pb // next item of b, in s
		gallop         = st.minGallop
		acount, bcount int // how many times in a row a (b) came first
		k              int
		lt             bool
		err            error
	)

	s[dest] = s[ib]
	dest, ib, nb = dest+1, ib+1, nb-1
	if nb == 0 {
		goto done
	}
	if na == 1 {
		goto lastA
	}
	for {
		acount, bcount = 0, 0
		// One item at a time, until a run keeps coming first.
		for {
			if lt, err = st.less(s[ib], tmp[ia]); err != nil {
				goto done
			}
			if lt {
				s[dest] = s[ib]
				dest, ib, nb = dest+1, ib+1, nb-1
				bcount++
				acount = 0
				if nb == 0 {
					goto done
				}
				if bcount >= gallop {
					break
				}
			} else {
				s[dest] = tmp[ia]
				dest, ia, na = dest+1, ia+1, na-1
				acount++
				bcount = 0
				if na == 1 {
					goto lastA
				}
				if acount >= gallop {
					break
				}
			}
		}
		// Gallop, for as long as it finds long stretches.
		gallop++
		for {
			if gallop > 1 {
				gallop--
			}
			st.minGallop = gallop
			if k, err = st.gallopRight(s[ib], tmp[ia:ia+na], 0); err != nil {
				goto done
			}
			acount = k
			if k > 0 {
				copy(s[dest:], tmp[ia:ia+k])
				dest, ia, na = dest+k, ia+k, na-k
				if na == 1 {
					goto lastA
				}
				if na == 0 { // only if less is inconsistent
					goto done
				}
			}
			s[dest] = s[ib]
			dest, ib, nb = dest+1, ib+1, nb-1
			if nb == 0 {
				goto done
			}

			if k, err = st.gallopLeft(tmp[ia], s[ib:ib+nb], 0); err != nil {
				goto done
			}
			bcount = k
			if k > 0 {
				copy(s[dest:], s[ib:ib+k])
				dest, ib, nb = dest+k, ib+k, nb-k
				if nb == 0 {
					goto done
				}
			}
			s[dest] = tmp[ia]
			dest, ia, na = dest+1, ia+1, na-1
			if na == 1 {
				goto lastA
			}
			if acount < minGallop && bcount < minGallop {
				break
			}
		}
		gallop++ // leaving galloping mode costs
		st.minGallop = gallop
	}

lastA:
	// One item of a is left, and it goes after all of b's.
	copy(s[dest:], s[ib:ib+nb])
	s[dest+nb] = tmp[ia]
	return nil

done:
	copy(s[dest:], tmp[ia:ia+na])
	return err
}

// mergeHi is mergeLo for na > nb: run b is moved aside to st.tmp and the
// merge fills s from the right.
func (st *sorter[E]) mergeHi(pa, na, pb, nb int) error {
	s := st.s
	st.tmp = append(st.tmp[:0], s[pb:pb+nb]...)
	tmp := st.tmp
	var (
		dest           = pb + nb - 1 // next place to fill
		ia             = pa + na - 1 // last item of a left, in s
		ib             = nb - 1      // last item of b left, in tmp
		gallop         = st.minGallop
		acount, bcount int // how many times in a row a (b) came last
		k              int
		lt             bool
		err            error
	)

	s[dest] = s[ia]
	dest, ia, na = dest-1, ia-1, na-1 // na > nb >= 1, so na >= 1 still
	if nb == 1 {
		goto firstB
	}
	for {
		acount, bcount = 0, 0
		for {
			if lt, err = st.less(tmp[ib], s[ia]); err != nil {
				goto done
			}
			if lt {
				s[dest] = s[ia]
				dest, ia, na = dest-1, ia-1, na-1
				acount++
				bcount = 0
				if na == 0 {
					goto done
				}
				if acount >= gallop {
					break
				}
			} else {
				s[dest] = tmp[ib]
				dest, ib, nb = dest-1, ib-1, nb-1
				bcount++
				acount = 0
				if nb == 1 {
					goto firstB
				}
				if bcount >= gallop {
					break
				}
			}
		}
		gallop++
		for {
			if gallop > 1 {
				gallop--
			}
			st.minGallop = gallop
			if k, err = st.gallopRight(tmp[ib], s[pa:pa+na], na-1); err != nil {
				goto done
			}
			k = na - k
			acount = k
			if k > 0 {
				dest, ia, na = dest-k, ia-k, na-k
				copy(s[dest+1:dest+1+k], s[ia+1:ia+1+k])
				if na == 0 {
					goto done
				}
			}
			s[dest] = tmp[ib]
			dest, ib, nb = dest-1, ib-1, nb-1
			if nb == 1 {
				goto firstB
			}

			if k, err = st.gallopLeft(s[ia], tmp[:nb], nb-1); err != nil {
				goto done
			}
			k = nb - k
			bcount = k
			if k > 0 {
				dest, ib, nb = dest-k, ib-k, nb-k
				copy(s[dest+1:dest+1+k], tmp[ib+1:ib+1+k])
				if nb == 1 {
					goto firstB
				}
				if nb == 0 { // only if less is inconsistent
					goto done
				}
			}
			s[dest] = s[ia]
			dest, ia, na = dest-1, ia-1, na-1
			if na == 0 {
				goto done
			}
			if acount < minGallop && bcount < minGallop {
				break
			}
		}
		gallop++
		st.minGallop = gallop
	}

firstB:
	// One item of b is left, and it goes before all of a's.
	dest, ia = dest-na, ia-na
	copy(s[dest+1:dest+1+na], s[ia+1:ia+1+na])
	s[dest] = tmp[ib]
	return nil

done:
	copy(s[dest-nb+1:], tmp[:nb])
	return err
}
