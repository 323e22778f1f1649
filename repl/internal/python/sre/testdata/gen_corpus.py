#!/usr/bin/env python3.12
# Records CPython 3.12's re results into testdata/corpus.jsonl, the
# differential corpus the Go tests replay (corpus_test.go).
#
# Regenerate (from the sre package directory) with:
#
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_corpus.py
#
# Each line is one case: {"fn", "pat", "bytes", "flags", ...inputs, "out"}.
# Bytes patterns and subjects are stored as latin-1 decoded strings. Spans
# are in code points (str) or bytes (bytes), as Python reports them.
import itertools
import json
import os
import re
import sys
import warnings

assert sys.version_info[:2] == (3, 12), sys.version
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'corpus.jsonl')

cases = []
seen = set()


def enc(x):
    if isinstance(x, bytes):
        return x.decode('latin-1')
    return x


def err_record(e):
    if isinstance(e, re.error):
        return {'type': 'error', 'msg': enc(e.msg), 'pos': e.pos, 'lineno': e.lineno,
                'colno': e.colno, 'str': str(e)}
    return {'type': type(e).__name__, 'msg': str(e)}


def match_record(m):
    if m is None:
        return None
    return {'spans': [list(m.span(g)) for g in range(m.re.groups + 1)], 'last': m.lastindex}


def compile_pat(pat, flags):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        p = re.compile(pat, flags)
    return p, [[w.category.__name__, str(w.message)] for w in ws]


def add(fn, pat, s=None, flags=0, **kw):
    isb = isinstance(pat, bytes)
    if isb and isinstance(s, str):
        s = s.encode('utf-8')
    if not isb and isinstance(s, bytes):
        s = s.decode('latin-1')
    key = (fn, pat, s, flags, tuple(sorted((k, str(v)) for k, v in kw.items())))
    if key in seen:
        return
    seen.add(key)
    rec = {'fn': fn, 'pat': enc(pat), 'bytes': isb, 'flags': int(flags)}
    if s is not None:
        rec['s'] = enc(s)
    for k, v in kw.items():
        rec[k] = enc(v)
    re.purge()
    try:
        p, ws = compile_pat(pat, flags)
        if fn == 'compile':
            head = 're.compile(' + repr(pat)[:200]
            r = repr(p)
            assert r.startswith(head) and r.endswith(')'), r
            out = {'groups': p.groups, 'groupindex': [[k, v] for k, v in p.groupindex.items()],
                   'flags': int(p.flags), 'warnings': ws, 'flagsrepr': r[len(head):-1].removeprefix(', ')}
        elif fn in ('match', 'search', 'fullmatch'):
            args = [s]
            if 'pos' in kw:
                args.append(kw['pos'])
                if 'endpos' in kw:
                    args.append(kw['endpos'])
            out = match_record(getattr(p, fn)(*args))
        elif fn == 'finditer':
            args = [s] + [kw[k] for k in ('pos', 'endpos') if k in kw]
            out = [match_record(m) for m in p.finditer(*args)]
        elif fn == 'findall':
            args = [s] + [kw[k] for k in ('pos', 'endpos') if k in kw]
            r = p.findall(*args)
            out = [[enc(x) for x in i] if isinstance(i, tuple) else enc(i) for i in r]
        elif fn == 'split':
            r = p.split(s, kw.get('maxsplit', 0))
            out = [enc(x) for x in r]
        elif fn in ('sub', 'subn'):
            repl = kw['repl']
            if repl == 'func:wrap':
                if isb:
                    repl = lambda m: b'[' + m.group(0) + b']'
                else:
                    repl = lambda m: '[' + m.group(0) + ']'
            r = p.subn(repl, s, kw.get('count', 0))
            out = [enc(r[0]), r[1]]
        elif fn == 'expand':
            m = p.search(s)
            out = enc(m.expand(kw['repl'])) if m else None
        else:
            raise ValueError(fn)
        rec['out'] = out
    except (re.error, ValueError, OverflowError, IndexError, RecursionError, TypeError, SystemError) as e:
        rec['err'] = err_record(e)
    cases.append(rec)


def escape_case(s):
    rec = {'fn': 'escape', 'pat': enc(s), 'bytes': isinstance(s, bytes), 'flags': 0,
           'out': enc(re.escape(s))}
    cases.append(rec)


# ---------------------------------------------------------------- subjects
TEXTS = [
    '', 'a', 'abc', 'aaa', 'abcabc', 'ab cd', 'a\nb\n', '\n', 'foo bar baz', 'x' * 20,
    'naïve café', '日本語のテキスト', 'emoji 😀 here 🎉!', 'ΣΊΣΥΦΟΣ σίσυφος ς', 'İstanbul ıi Iİ',
    'Straße STRASSE strasse', 'ſKkK s S', '2024-05-06 12:34:56 ERROR user_42 timeout',
    'INFO 10.0.0.1 GET /index.html 200', 'tab\there\r\nend', '١٢٣ 123 ①②', 'a1_b2-c3',
    'µ μ Μ', 'ǅ ǆ Ǆ', 'ﬁ fi FI', '   ', 'aBcDeF', 'a.b*c+d?', '((a))', 'abba', 'xyzzy',
]

LOG = '\n'.join([
    '2024-05-06 12:00:01 INFO user_1 login ok',
    '2024-05-06 12:00:02 ERROR user_22 timeout after 30s',
    '2024-05-06 12:00:03 WARN disk 91% full',
    '2024-05-06 12:00:04 ERROR user_333 Timeout TIMEOUT',
    'garbage line without date',
    '',
])

# ---------------------------------------------------------------- patterns
BASIC = [
    'a', 'abc', 'b', '.', '..', 'a.c', '^a', 'c$', '^$', '$', '^', r'\A', r'\Z', r'a\Z', r'\Aa',
    r'\b', r'\B', r'\ba', r'a\b', r'\bfoo\b', r'\w+', r'\W+', r'\d+', r'\D+', r'\s+', r'\S+',
    r'[abc]', r'[^abc]', r'[a-c]+', r'[^a-c]+', r'[\d\s]+', r'[\w.]+', r'[]a]', r'[^]a]', r'[a-]',
    r'[-a]', r'[a\-z]', r'[\]]', r'[\\]', r'[.*+?]+', r'a|b', r'ab|cd', r'a|ab|abc', r'abc|ab|a',
    r'x*', r'x+', r'x?', r'a*', r'a+', r'a?', r'a*?', r'a+?', r'a??', r'a{2}', r'a{2,}', r'a{,2}',
    r'a{1,2}', r'a{1,2}?', r'a{0}', r'a{}', r'a{,}', r'a{x}', r'a{1', r'{', r'a{1,2}+', r'a*+', r'a++',
    r'a?+', r'(a)', r'(a)(b)', r'(a|b)', r'(a)|(b)', r'(a)|b', r'(?:a)', r'(?:ab)+', r'(ab)+',
    r'(a*)*', r'(a*)+', r'(a|)*', r'(|a)*', r'(a?)*?', r'(a+)+b', r'(a|b)*c', r'(?:(a)|b)*',
    r'(?:(a)|(b))*', r'((a)|b)+', r'(a)?b', r'(a)*', r'(a)+?', r'(?P<x>a)', r'(?P<x>a)(?P=x)',
    r'(a)\1', r'(a*)\1', r'(\w)\1', r'(?=a)', r'(?=a)a', r'(?!a)', r'(?!a).', r'(?<=a)b', r'(?<!a)b',
    r'(?<=ab)c', r'(?<!^)b', r'(?>a+)', r'(?>a+)b', r'(?>a|ab)c', r'(a)(?(1)b|c)', r'(a)?(?(1)b|c)',
    r'(?P<q>")?\w+(?(q)")', r'(?#comment)a', r'\x41', r'\u00e9', r'\U0001F600', r'\N{LATIN SMALL LETTER E WITH ACUTE}',
    r'\101', r'\0', r'\07', r'\n', r'\t', r'\.', r'\*', r'é', '日本', '😀', 'ß', 'ς', 'Σ', 'ſ', 'K',
    r'.*', r'.+', r'.*?', r'.*a', r'.*?a', r'a.*b', r'a.*?b', r'\w+@\w+', r'(\w+) (\w+)',
    r'(?P<first>\w+) (?P<last>\w+)', r'(\d+)-(\d+)-(\d+)', r'^(\w+)', r'(\w+)$', r'\s*', r'\b\w',
    r'[^\W\d_]+', r'[\S]', r'[\s\S]', r'(?:a|b|c)+', r'[a-z]{2,3}', r'(..)*', r'(.)(.)?',
]

FLAG_PATTERNS = [
    ('a', re.I), ('A', re.I), ('abc', re.I), ('[a-c]+', re.I), ('[^a-c]+', re.I), ('ß', re.I),
    ('ss', re.I), ('s', re.I), ('S', re.I), ('ſ', re.I), ('k', re.I), ('K', re.I), ('\u212a', re.I),
    ('i', re.I), ('I', re.I), ('ı', re.I), ('İ', re.I), ('σ', re.I), ('Σ', re.I), ('ς', re.I),
    ('µ', re.I), ('μ', re.I), ('[σ]', re.I), ('[sk]+', re.I), ('[^sk]+', re.I), ('[a-z]+', re.I),
    ('[A-Z]+', re.I), ('[k-l]', re.I), ('[r-t]', re.I), ('[ſ]', re.I), ('ǆ', re.I), ('ǅ', re.I),
    ('ﬁ', re.I), ('[ﬀ-ﬆ]', re.I), ('straße', re.I), ('timeout', re.I), ('(a)\\1', re.I), ('(ß)\\1', re.I),
    ('\\w+', re.A), ('\\d+', re.A), ('\\s+', re.A), ('\\b\\w', re.A), ('[\\w]+', re.A), ('k', re.I | re.A),
    ('[k]', re.I | re.A), ('s', re.I | re.A), ('[a-z]+', re.I | re.A), ('^a', re.M), ('c$', re.M),
    ('^$', re.M), ('^\\w+$', re.M), ('$', re.M), ('.', re.S), ('.+', re.S), ('a.b', re.S),
    ('a b c', re.X), ('a # comment\nb', re.X), ('[ ]', re.X), ('a\\ b', re.X), ('(?x) a b', 0),
    ('(?i)ABC', 0), ('(?m)^b', 0), ('(?s).+', 0), ('(?a)\\w+', 0), ('(?i:a)b', 0), ('a(?i:b)', 0),
    ('(?-i:a)b', re.I), ('(?i)(?-i:a)b', 0), ('(?x:a b)c d', 0), ('(?a:\\w)\\w', 0), ('(?u)\\w', 0),
    ('(?is)a.b', 0), ('(?im)^A', 0), ('\\w', re.U), ('(?i)[^\\W\\d]+', 0), ('(?i)\\bfoo', 0),
]

CAPTURE = [
    r'(a)|(b)', r'(a)|b|(c)', r'(?:(a)|(b))+', r'(?:(a)|b)+', r'(?:(a)b)*', r'(?:(a)|(b)|c)*',
    r'((a)|(b))*', r'(a)*(b)*', r'(a*)(b*)', r'(a*?)(b*?)', r'(a)?(b)?(c)?', r'(?:x(a)|x(b))*',
    r'(?:(a)|b)*?c', r'(a|ab)(c|bcd)(d*)', r'(a+)(b+)?', r'((a)b)+', r'(?:(a)|(a)b)*c', r'(?=(a))a',
    r'(?!(a)b)a', r'(?<=(a))b', r'(?>(a)|(b))+', r'(a)(?:(b)|c)*', r'(?:a(b)?)+', r'(?:(b)?a)+',
    r'(?:()|a)+', r'(()|a)+', r'(a|())+', r'(?:(a)|())+', r'(x)?(?(1)y|z)+', r'(?:(x)?(?(1)y|z))+',
    r'(a)(?P<n>b)?(c)', r'((a)|(b))c', r'(?:(?:(a)|b)c)+', r'(a|b)*?b', r'(?:(a)|b){2}',
    r'(?:(a)|b){1,3}?c', r'(a)+(?=b)', r'(?:(a)+)+', r'((a)+)+', r'(a)++b', r'(?:(a)|b)++',
    r'(?:(a)|b)*+', r'(?>(a)*)b',
]

EMPTY_ITER = [
    r'', r'x*', r'\b', r'\B', r'a|', r'|a', r'(?=a)', r'$', r'^', r'a*?', r'(a)|', r'\b|\w+',
    r'\w*', r'\s*', r'(?m)^', r'(?m)$', r'a?', r'(?:)', r'(|x)', r'x*?y?',
]

TEMPLATES = [
    r'-', r'\g<0>', r'[\g<0>]', r'\1', r'<\1>', r'\g<1>', r'\g<name>', r'\n', r'\t', r'\\', r'\0',
    r'\012', r'\101', r'\.', r'\-', r'\g<1>\g<1>', r'x\2y', r'', r'\a\b\f\r\v', r'\x', r'\q', r'\g',
    r'\g<', r'\g<>', r'\g<9>', r'\g<1a>', r'\g<nope>', r'\8', r'\19', r'\400', r'\g<00>', r'\g<-1>',
    'func:wrap', r'\g<99999999999999999999>', 'abc\\',
]


def gen_matching():
    fns = ['search', 'match', 'fullmatch', 'findall', 'finditer']
    for pat in BASIC:
        for s in TEXTS:
            add('search', pat, s)
        for s in TEXTS[:12] + ['naïve café', '日本語のテキスト', 'ΣΊΣΥΦΟΣ σίσυφος ς']:
            add('finditer', pat, s)
            add('match', pat, s)
        for s in ['abc', 'aaa', 'ab cd', 'a\nb\n']:
            add('fullmatch', pat, s)
            add('findall', pat, s)
    for pat, flags in FLAG_PATTERNS:
        add('compile', pat, flags=flags)
        for s in TEXTS:
            add('finditer', pat, s, flags)
    for pat in CAPTURE:
        add('compile', pat)
        for s in ['', 'a', 'ab', 'abc', 'abab', 'aab', 'bab', 'ba', 'abcd', 'aabbcc', 'xyxz', 'aaab',
                  'xaxb', 'acbcd', 'abbbc', '"word"', 'cab']:
            add('search', pat, s)
            add('fullmatch', pat, s)
        add('finditer', pat, 'abcabcaab')
    for pat in EMPTY_ITER:
        for s in ['', 'a', 'ab cd', 'abxd', 'aaa', 'x\ny\n', 'ba', 'a b']:
            add('findall', pat, s)
            add('finditer', pat, s)
            add('split', pat, s)
            add('sub', pat, s, repl='-')
    # log analysis
    for pat in [r'ERROR', r'\d{4}-\d\d-\d\d', r'(?i)timeout', r'user_(\d+)', r'^\S+ (\w+)',
                r'(?m)^\S+ (\w+)', r'ERROR|WARN|INFO', r'(?m)^(\S+) (\S+) (\w+)', r'\d+%',
                r'(?i)error.*?(\d+)s', r'(?m)^$', r'(?m)^.*ERROR.*$', r'\b\w{7}\b', r'(\w+)_(\d+)']:
        add('findall', pat, LOG)
        add('finditer', pat, LOG)
        add('split', pat, LOG)
        add('sub', pat, LOG, repl='<\\g<0>>')
    # leading unbounded repeats (the search skips runs after a failure)
    for pat in [r'\w+(?<=ab)', r'a*(?<!a)b', r'.*?(?<=c)d', r'[ab]*+c', r'\w*\b', r'(a*)b', r'a*?b',
                r'\s*$', r'.*x', r'.+(?=\n)', r'[^x]*x', r'\d+(?=ms)', r'(?:a)*c', r'\w+@\w+',
                r'a*(?<=aa)c', r'[^ ]+ (?<=a )', r'.*?(?<=ab)', r'\S+$']:
        for s in ['aab aabd cd', 'aaac abac', 'x ab\n cd\ncd', '12ms 3s 45ms', 'a@b cc@dd',
                  'aaaaac aac', 'ab ab aab', '  \n ', '', 'é@é']:
            add('finditer', pat, s)
            add('finditer', pat, s, re.M)

    # pos / endpos
    for pat in [r'^a', r'a$', r'\Aa', r'a\Z', r'\ba', r'a\b', r'(?<=a)b', r'(?<!a)b', r'$', r'^',
                r'b', r'.*', r'\w+', r'(?m)^b', r'(?m)b$', r'', r'x*', r'(?=c)', r'é']:
        for s in ['abab', 'aba\nb', 'éaébé']:
            for pos, endpos in [(0, 4), (1, 4), (1, 3), (2, 2), (3, 1), (0, 0), (-5, 2), (2, 99), (4, 4)]:
                add('search', pat, s, pos=pos, endpos=endpos)
                add('match', pat, s, pos=pos, endpos=endpos)
                add('fullmatch', pat, s, pos=pos, endpos=endpos)
                add('finditer', pat, s, pos=pos, endpos=endpos)
    # split with groups and maxsplit
    for pat in [r',', r'(,)', r'(,)|(;)', r'\s*', r'(\s)*', r'x*', r'(?:a)|(b)', r'\W+', r'(\W+)', r'']:
        for s in ['a,b;c', 'a, b ,c', 'abc', '', ',,', 'a b  c']:
            for ms in [0, 1, 2, -1]:
                add('split', pat, s, maxsplit=ms)
    # sub / subn
    for pat, s in [(r'(a)(b)?', 'ab a xa'), (r'(?P<name>\w+)', 'hi there'), (r'x*', 'abxd'),
                   (r'', 'abc'), (r'a|(b)', 'abc'), (r'é', 'café é'), (r'(\d+)', 'a1b22c333')]:
        for t in TEMPLATES:
            add('subn', pat, s, repl=t)
        for count in [0, 1, 2, -1]:
            add('subn', pat, s, repl='<\\g<0>>', count=count)
    for t in [r'\1-\g<name>', r'\g<0>!', r'\2', r'[\g<1>]']:
        add('expand', r'(?P<name>a)(b)?', 'xab', repl=t)
        add('expand', r'(?P<name>a)(b)?', 'xa', repl=t)
    # catastrophic but small
    for pat, s in [(r'(a+)+b', 'a' * 12), (r'(a|aa)+c', 'a' * 16), (r'(x+x+)+y', 'x' * 14)]:
        add('search', pat, s)


def gen_unicode():
    specials = ['ſ', 'K', 'k', 'K', 'S', 's', 'ß', 'ẞ', 'İ', 'i', 'I', 'ı', 'Σ', 'σ', 'ς', 'µ', 'μ',
                'Μ', 'ǅ', 'ǆ', 'Ǆ', 'ﬁ', 'Ω', 'Ω', 'ω', 'θ', 'ϑ', 'ϴ', 'ᲀ', 'в', 'В', 'ꙋ', 'ᲈ', 'ι', 'ͅ',
                'ι', 'Ι', 'ẛ', 'ṡ', 'ﬅ', 'ﬆ', '𐐀', '𐐨', 'Ꭰ', 'ꭰ', 'Ａ', 'ａ', 'é', 'É', 'ΐ', 'ΐ']
    subject = ''.join(specials)
    for c in specials:
        add('findall', c, subject, re.I)
        add('findall', '[' + c + ']', subject, re.I)
        add('findall', '[' + c + 'x]', subject, re.I)
        add('findall', '[^' + c + 'x]', subject, re.I)
        add('findall', '(' + c + ')\\1', c + c.upper() + c.lower() + c, re.I)
    for lo, hi in [('a', 'z'), ('A', 'Z'), ('à', 'ÿ'), ('Α', 'Ω'), ('α', 'ω'), ('\u0100', '\u017f'),
                   ('\u2100', '\u2200'), ('\U00010400', '\U0001044f'), ('\x00', '\U0010ffff'),
                   ('Ａ', 'Ｚ'), ('\u1c80', '\u1c88'), ('\ufb00', '\ufb06')]:
        for flags in [0, re.I, re.I | re.A]:
            add('findall', '[' + lo + '-' + hi + ']', subject, flags)
            add('findall', '[^' + lo + '-' + hi + ']', subject, flags)
    # categories over many code points
    sample = ''.join(chr(c) for c in [0x30, 0x39, 0x41, 0x5f, 0x61, 0xaa, 0xb2, 0xb5, 0xba, 0xbc, 0xc0,
                                      0x660, 0x669, 0x6f0, 0x966, 0x1c, 0x1f, 0x85, 0xa0, 0x1680,
                                      0x2000, 0x2028, 0x202f, 0x3000, 0x2160, 0x3007, 0x4e00, 0xff10,
                                      0x1d7ce, 0x10400, 0x200b, 0xfeff, 0x00ad, 0x0301, 0x0903, 0x2070,
                                      0x2179, 0x19da, 0x1f600, 0x9, 0xa, 0xb, 0xc, 0xd, 0x20])
    for pat in [r'\w', r'\W', r'\d', r'\D', r'\s', r'\S', r'[\w]', r'[^\w]', r'[\d\s]', r'\b.',
                r'.\b', r'\B.']:
        for flags in [0, re.A, re.I]:
            add('findall', pat, sample, flags)
    for s in ['naïve café', 'über straße', 'Ünïcödé', '日本語 テキスト', 'emoji😀x', 'tab\tsep']:
        for pat in [r'\w+', r'\b\w', r'.', r'\S+', r'(?i)É', r'[à-ÿ]+', r'[^\x00-\x7f]+', r'..',
                    r'(?<=é)', r'(?<=\w)\b']:
            add('finditer', pat, s)


def gen_bytes():
    subjects = [b'', b'abc', b'a\nb', b'caf\xc3\xa9', b'\xff\xfe\x00\x7f', b'A1_ b2-C3', b'\xe9\xc9',
                b'foo bar', b'aaa']
    pats = [rb'a', rb'.', rb'\w+', rb'\W+', rb'\d', rb'\s', rb'\b', rb'[\x80-\xff]+', rb'\xff',
            rb'(?i)A', rb'(?i)\xe9', rb'(?i)[\xc0-\xdf]', rb'(?L)\w+', rb'(?Li)a', rb'(?Li)[^ab]',
            rb'(?a)\w', rb'^', rb'$', rb'(a)\1', rb'(?i)(a)\1', rb'(?Li)(a)\1', rb'x*', rb'[^a]',
            rb'\x00', rb'\0', rb'\377', rb'(?i)[a-z]+', rb'(?i)k', rb'(?i)s', rb'(?L)\b\w']
    for p in pats:
        add('compile', p)
        for s in subjects:
            add('finditer', p, s)
    add('compile', rb'\w', flags=re.L)
    add('compile', rb'a', flags=re.L | re.I)
    for t in [rb'-', rb'\1', rb'\g<0>', rb'\x41', rb'\xe9', rb'\n', rb'\q', b'\xe9']:
        add('subn', rb'(a)', b'cab', repl=t)
    add('split', rb'\s+', b'a b\tc\xa0d')
    add('findall', rb'(\w)(\d)?', b'a1b c3')


def gen_errors():
    bad = [
        'a**', 'a*+*', '*', '+a', '?', '{1}', 'a{2}{3}', '(', ')', 'a)', '(()', '(?', '(?P', '(?P<',
        '(?P<>a)', '(?P<1>a)', '(?P<a b>c)', '(?P<a>x)(?P<a>y)', '(?P=a)', '(?P=)', '(?P=1)',
        '(?P<a>(?P=a))', '(?Px)', '(?<', '(?<x)', '(?<=', '(?<=a', '(?<=a*)', '(?<=a|bc)', '(?<!a+)',
        '(?<=a{1,2})', '(?<=(?P<x>a))(?P=x)', '(?<=(a)\\1)', '(?<=\\1)(a)', '(?#', '(?#abc', '(?x',
        '(?z)', '(?i', '(?i-', '(?-', '(?-i', '(?-i)', '(?i-i:a)', '(?L)a', '(?u)a', '(?au)a',
        '(?a-u:x)', '(?-t:a)', '(?t:a)', 'a(?i)', '(?i)a(?m)', 'a|(?i)b', '(?i)(?m)ok', '(?iq)',
        '(?i=', '(?i:a', '(?:a', '(?=a', '(?!a', '(?>a', '(a', '(a|b', '[', '[a', '[a-', '[^', '[]',
        '[b-a]', '[\\d-z]', '[a-\\d]', '[\\w-]', '[a-\\w]', '[\\x41-\\d]', '\\', 'a\\', '\\q', '\\e',
        '\\i', '\\c', '\\g', '\\x', '\\x4', '\\xg', '\\u12', '\\U1234567', '\\U00110000', '\\N',
        '\\N{', '\\N{}', '\\N{LATIN', '\\N{NO SUCH NAME}', '\\N{LATIN SMALL LETTER A WITH MACRON AND GRAVE}',
        '[\\N{NOPE}]', '\\400', '\\777', '[\\400]', '[\\8]', '[\\9]', '\\1', '\\2(a)', '(a)\\2',
        '(a\\1)', '\\10', '(?(1)a|b)', '(?(0)a)', '(?(00)a)', '(?(x)a)', '(?(1a)b)', '(?(-1)a)',
        '(?(1)a|b|c)', '(a)(?(1)a|b|c)', '(?(1', '(?(', '(?()a)', '(?(99999999999999999999)a)',
        '(?(2)a)(b)', '(?<=(?(1)a|b))(a)', 'a{2,1}', 'a{99999999999}', 'a{1,99999999999}',
        'a{4294967295}', 'a{4294967294,4294967295}', '^*', '$*', '\\b*', '\\A+', '\\Z?', '(?i)*',
        'x{1,2}{3}', 'x??+', 'x+?+', '(?P<a>a)(?P<b>(?P=b))', '(?P<name>', '(?P<name', '(?P=name',
        '(?<=a)(?<=', '[[:alpha:]]', 'abc\ndef)', 'ab\n(', '\n\n\\q', '(?x)a b\n c )', 'a\nb\\',
        '(?P<\u00e9t\u00e9>a)(?P=\u00e9t\u00e9)', '(?P<\u0661>a)', '[\\A]', '[\\Z]', '[\\b-a]',
        '[a-\\b]', '(?<=x(?=y))', '(?<=\\b)', '(?<=.{3})', '(?<=a{4294967294}aa)', '(?m', '(?s)(?',
        '(?P>a)', '(?P!a)', '(?&a)', '(?R)', '(?|a)', '\\k<a>', '(?<a>b)', "(?P<a'>b)",
        '(?P<a\\>b)', '(?P=a\\)', '\\g<1>', '(?x)[a', '(?x)(?#', '(?#)', '(?#)(', '(?:)*',
        '\\N{latin small letter a}', '\\N{LINE FEED}', '\\N{CJK UNIFIED IDEOGRAPH-4E00}',
        '\\N{cjk unified ideograph-4E00}', '\\N{CJK UNIFIED IDEOGRAPH-4e00}', '\\N{HANGUL SYLLABLE GA}',
        '\\N{hangul syllable GA}', '\\N{HANGUL SYLLABLE ga}', '\\N{TANGUT IDEOGRAPH-17000}',
        '\\N{EM DASH}', '\\N{em dash}', '\\N{BYTE ORDER MARK}', '\\N{NUSHU CHARACTER-1B170}',
        '\\N{CJK COMPATIBILITY IDEOGRAPH-F900}', '\\N{HANGUL SYLLABLE GAG}', '\\N{HANGUL SYLLABLE GGWAELH}',
        '\\N{HANGUL SYLLABLE KX}', '[\\N{EM DASH}-\\N{HORIZONTAL BAR}]',
    ]
    for p in bad:
        add('compile', p)
        add('compile', p, flags=re.X)
    bad_bytes = [rb'(?u)a', rb'\u0041', rb'\U00000041', rb'\N{EM DASH}', rb'(?P<\xe9>a)', rb'\xe9\q',
                 rb'(?P<a>a)(?P=\xe9)', rb'[\xff-\x00]', rb'(?<\xe9a)', rb'(?\xe9)', rb'\\', b'\\']
    for p in bad_bytes:
        add('compile', p)
    for p, f in [('a', re.L), ('a', re.A | re.U), ('(?a)x', re.U), (b'a', re.U), (b'a', re.L | re.A),
                 ('(?x)a', re.T), ('a*', re.T), ('(?t)a+', 0), ('(?t)a', 0), ('a', re.I | re.M | re.S)]:
        add('compile', p, flags=f)
    for n in [50, 100, 200, 240]:
        add('compile', '(' * n + 'a' + ')' * n)
        add('compile', '(?:' * n + 'a' + ')' * n)


def gen_misc():
    for p in ['(?P<a>x)(?P<b>y)', '(?P<b>x)(?P<a>y)', '(x)(?P<z>y)(z)', '', 'abc', '(?i)x', '(?x)x', '(?m)(?s)x',
              '(?a)x', '[a-z', 'a{1,2}x', '[[a]', '[a--b]', '[a&&b]', '[a||b]', '[a~~b]', '[[:a:]]',
              '[a-b-c]', '[--a]', '[a-]-', '[&&a]']:
        add('compile', p)
    for s in ['', 'abc', 'a.b', '(x)', 'a b\tc\nd', '#&~', 'naïve', '日本', '\x00\x7f', '$^*+?{}[]|\\-']:
        escape_case(s)
        escape_case(s.encode('utf-8'))
    escape_case(b'\xff\x80 x')


def gen_random():
    import random
    r = random.Random(20240506)
    quants = ['', '', '', '*', '+', '?', '*?', '+?', '??', '{2}', '{1,2}', '{0,1}?', '*+', '++', '?+',
              '{,2}', '{2,}']

    def atom(depth, st):
        k = r.randrange(24 if depth < 3 else 12)
        if k < 3:
            return r.choice('abc')
        if k == 3:
            return '.'
        if k == 4:
            return r.choice(['[ab]', '[^a]', '[a-c]', '[^\\n]', '[é ]'])
        if k == 5:
            return r.choice(['\\w', '\\s', '\\d', '\\W', 'é', ' ', '\\n'])
        if k == 6:
            return r.choice(['\\b', '\\B', '^', '$', '\\A', '\\Z'])
        if k == 7 and st['groups'] > 0:
            g = r.randint(1, st['groups'])
            if g in st['closed']:
                return '\\%d' % g
            return 'a'
        if k in (8, 9, 10, 11):
            return r.choice(['a', 'b', 'ab', 'ba', 'c'])
        if k in (12, 13, 14):
            st['groups'] += 1
            g = st['groups']
            inner = alt(depth + 1, st)
            st['closed'].add(g)
            return '(' + inner + ')'
        if k == 15:
            return '(?:' + alt(depth + 1, st) + ')'
        if k == 16:
            return r.choice(['(?=', '(?!']) + alt(depth + 1, st) + ')'
        if k == 17:
            return r.choice(['(?<=', '(?<!']) + r.choice(['a', 'b', 'ab', '[ab]', '\\w', '.', 'a|b']) + ')'
        if k == 18:
            return '(?>' + alt(depth + 1, st) + ')'
        if k == 19 and st['closed']:
            g = r.choice(sorted(st['closed']))
            yes = seq(depth + 1, st)
            no = seq(depth + 1, st) if r.random() < 0.6 else None
            return '(?(%d)%s%s)' % (g, yes, '' if no is None else '|' + no)
        if k == 20:
            return '(?i:' + alt(depth + 1, st) + ')'
        if k == 21:
            st['groups'] += 1
            g = st['groups']
            inner = alt(depth + 1, st)
            st['closed'].add(g)
            return '(?P<g%d>%s)' % (g, inner)
        return r.choice('abc')

    def seq(depth, st):
        out = ''
        for _ in range(r.randint(1, 3)):
            a = atom(depth, st)
            if a not in ('^', '$', '\\b', '\\B', '\\A', '\\Z'):
                a += r.choice(quants)
            out += a
        return out

    def alt(depth, st):
        return '|'.join(seq(depth, st) for _ in range(r.choice([1, 1, 1, 2, 3])))

    import signal

    def on_alarm(signum, frame):
        raise TimeoutError
    signal.signal(signal.SIGALRM, on_alarm)
    alphabet = ['a', 'b', 'c', 'a', 'b', 'é', ' ', '\n', 'A']
    for i in range(2500):
        st = {'groups': 0, 'closed': set()}
        pat = alt(0, st)
        flags = r.choice([0, 0, 0, re.I, re.M, re.S, re.A])
        subj = ''.join(r.choice(alphabet) for _ in range(r.randint(0, 10)))
        # Keep the corpus quick to replay: skip long patterns, and those
        # whose matching CPython cannot finish within a generous deadline
        # (a deterministic choice in practice: cases are either quick or
        # explosive).
        if len(pat) > 70:
            continue
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        try:
            try:
                list(re.compile(pat, flags).finditer(subj))
                re.compile(pat, flags).fullmatch(subj)
            except re.error:
                pass
        except TimeoutError:
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        add('finditer', pat, subj, flags)
        add('fullmatch', pat, subj[:r.randint(0, len(subj))], flags)
        if i % 5 == 0:
            add('split', pat, subj, flags)
            add('subn', pat, subj, flags, repl='<\\g<0>>')
        if i % 7 == 0:
            add('finditer', pat.encode('utf-8'), subj.encode('utf-8'), flags & ~re.A)


gen_matching()
gen_random()
gen_unicode()
gen_bytes()
gen_errors()
gen_misc()

with open(OUT, 'w', encoding='utf-8') as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
errs = sum(1 for c in cases if 'err' in c and c['err']['type'] == 'error')
print('wrote', OUT, len(cases), 'cases,', errs, 're.error cases')
