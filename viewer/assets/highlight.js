// A small Python highlighter for the run view, written for rlm (no
// library, nothing fetched). It splits code into comments, strings,
// numbers, names and decorators with one regular expression and wraps
// each in a span with a class (tok-c comment, tok-s string, tok-n number,
// tok-k keyword, tok-b builtin, tok-r the RLM environment's names, tok-f a
// name being defined, tok-d decorator); the text between matches, and
// every piece, is HTML-escaped. It never fails: unterminated strings run
// to the end of their line (or of the code, for triple quotes).
"use strict";
window.highlightPython = (function () {
  const KEYWORDS = new Set(("False None True and as assert async await break class continue def del elif else except finally for " +
    "from global if import in is lambda nonlocal not or pass raise return try while with yield match case").split(" "));
  const BUILTINS = new Set(("abs all any bool bytes callable chr dict dir divmod enumerate filter float format frozenset getattr " +
    "hasattr hash hex id input int isinstance issubclass iter len list map max min next object oct open ord pow print range repr " +
    "reversed round set setattr slice sorted str sum super tuple type vars zip self Exception ValueError TypeError KeyError " +
    "IndexError ZeroDivisionError RuntimeError AttributeError NameError StopIteration").split(" "));
  const RLM = new Set("context llm_query llm_query_batched rlm_query rlm_query_batched FINAL FINAL_VAR SHOW_VARS answer".split(" "));
  const TOKEN = new RegExp([
    /(#[^\n]*)/.source, // 1 comment
    /((?:\b[rRbBuUfF]{1,2})?(?:"""[\s\S]*?(?:"""|$(?![\s\S]))|'''[\s\S]*?(?:'''|$(?![\s\S]))|"(?:\\.|[^"\\\n])*(?:"|$)|'(?:\\.|[^'\\\n])*(?:'|$)))/.source, // 2 string
    /(\b0[xXoObB][0-9a-fA-F_]+\b|\b\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?j?\b|\.\d[\d_]*(?:[eE][+-]?\d+)?j?\b)/.source, // 3 number
    /(@[A-Za-z_][\w.]*)/.source, // 4 decorator
    /([A-Za-z_][A-Za-z0-9_]*)/.source, // 5 name
  ].join("|"), "gm");
  const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const span = (cls, s) => `<span class="${cls}">${esc(s)}</span>`;
  return function highlightPython(code) {
    code = String(code);
    let out = "", last = 0, prev = "";
    TOKEN.lastIndex = 0;
    for (let m; (m = TOKEN.exec(code)); ) {
      if (m[0] === "") { TOKEN.lastIndex++; continue; }
      out += esc(code.slice(last, m.index));
      last = m.index + m[0].length;
      if (m[1] !== undefined) out += span("tok-c", m[1]);
      else if (m[2] !== undefined) out += span("tok-s", m[2]);
      else if (m[3] !== undefined) out += span("tok-n", m[3]);
      else if (m[4] !== undefined) out += span("tok-d", m[4]);
      else {
        const w = m[5];
        if (prev === "def" || prev === "class") out += span("tok-f", w);
        else if (KEYWORDS.has(w)) out += span("tok-k", w);
        else if (RLM.has(w)) out += span("tok-r", w);
        else if (BUILTINS.has(w)) out += span("tok-b", w);
        else out += esc(w);
        prev = w;
        continue;
      }
      prev = "";
    }
    return out + esc(code.slice(last));
  };
})();
