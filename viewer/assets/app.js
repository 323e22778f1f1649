// rlm trace viewer: plain JavaScript, no build step, no dependencies.
// It draws the model served by /api/tree (nodes in tree order, each with
// its subtree size and totals) into a virtualized list: only the rows in
// view exist in the DOM, so 100k events scroll like 100.
"use strict";
(function () {
  const ROW = 20; // px, must match .row height in app.css
  const $ = (s) => document.querySelector(s);
  const VIEWS = ["run", "tree", "timeline", "compare"];
  const hashView = location.hash.slice(1);
  const st = { files: [], cur: 0, model: null, view: VIEWS.includes(hashView) ? hashView : "run", collapsed: new Set(), sel: -1, rows: [], live: null, pending: null,
    runs: null, open: new Map() };

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const ms = (v) => (v >= 1000 ? (v / 1000).toFixed(2) + "s" : v >= 1 ? v.toFixed(1) + "ms" : Math.round(v * 1000) + "µs");
  const usd = (v) => "$" + v.toFixed(6);
  const mark = (s) => (s === "error" ? "✗" : s === "cancelled" ? "⊘" : s === "ok" ? "✓" : s === "started" ? "…" : "·");
  const label = (n) => (n.n === n.k || (n.n || "").startsWith(n.k + " ") ? n.n : n.k + (n.n ? " " + n.n : ""));

  async function getJSON(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(url + ": " + r.status);
    return r.json();
  }

  async function loadFiles() {
    st.files = await getJSON("/api/files");
    $("#files").innerHTML = st.files.map((f) => `<button data-file="${f.file}" class="${f.file === st.cur ? "on" : ""}">${esc(f.name)}</button>`).join("");
  }

  // The tree (every node of the file) is loaded only for the views that
  // draw it: the run view never waits for it.
  async function loadTree() {
    const m = await getJSON("/api/tree?file=" + st.cur);
    st.model = m;
    computeRows();
    summary();
    render();
    if (st.sel >= m.nodes.length) st.sel = -1;
    document.body.dataset.version = m.version;
  }

  async function reload() {
    if (st.view === "run") await loadRuns();
    else if (st.view !== "compare") await loadTree();
  }

  function summary() {
    const m = st.model, s = m.summary, el = $("#summary");
    el.dataset.events = s.events;
    el.dataset.tokens = s.tokens;
    el.dataset.cost = s.cost_usd.toFixed(6);
    el.dataset.failed = s.failed;
    el.dataset.turns = s.turns;
    const bd = s.by_depth || [];
    el.dataset.depths = bd.map((d) => `${d.depth}:${d.model_calls}:${d.tokens}`).join(",");
    el.innerHTML =
      `<span><b>${s.events}</b> events</span><span><b>${s.turns}</b> turns</span><span><b>${s.model_calls}</b> model calls</span>` +
      `<span><b>${s.tokens}</b> tokens</span><span><b>${usd(s.cost_usd)}</b></span><span>wall <b>${ms(s.wall_ms)}</b></span>` +
      `<span>max depth <b>${s.max_depth}</b></span><span class="${s.failed ? "err" : ""}"><b>${s.failed}</b> failed</span>` +
      (s.in_flight ? `<span class="flight"><b>${s.in_flight}</b> in flight</span>` : "") +
      (m.waiting ? `<span class="waiting">waiting for ${esc(m.name)} to appear…</span>` : "") +
      (bd.length > 1 ? `<span class="depths">` + bd.map((d) => `depth ${d.depth}: <b>${d.model_calls}</b> calls, <b>${d.tokens}</b> tokens, <b>${usd(d.cost_usd)}</b>`).join(" · ") + `</span>` : "") +
      (m.error ? `<span class="err">${esc(m.error.phase + "/" + m.error.kind + ": " + m.error.message)}</span>` : "");
  }

  function computeRows() {
    const nodes = st.model.nodes, q = $("#search").value.trim().toLowerCase(), f = $("#filter").value;
    const rows = [];
    if (!q && !f) {
      for (let p = 0; p < nodes.length; ) {
        rows.push(p);
        p += st.collapsed.has(nodes[p].id) ? nodes[p].sn : 1;
      }
    } else {
      for (let p = 0; p < nodes.length; p++) {
        const n = nodes[p];
        if (f === "failed" && n.s !== "error") continue;
        if ((f === "model_call" || f === "tool_call" || f === "rlm_child") && n.k !== f) continue;
        if (q && !(n.n + " " + n.k + " " + (n.e || "") + " " + n.id).toLowerCase().includes(q)) continue;
        rows.push(p);
      }
      if (f === "slowest") rows.sort((a, b) => nodes[b].ms - nodes[a].ms);
      if (f === "costliest") rows.sort((a, b) => nodes[b].sc - nodes[a].sc || nodes[b].c - nodes[a].c);
    }
    st.rows = rows;
    st.flat = !!(q || f);
    $("#count").textContent = rows.length + " rows";
    $("#spacer").style.height = rows.length * ROW + "px";
  }

  function rowHTML(p, timeline) {
    const n = st.model.nodes[p];
    const ind = st.flat ? 0 : n.l;
    const tw = !st.flat && n.sn > 1 ? (st.collapsed.has(n.id) ? "▸" : "▾") : "";
    let lab = `<span class="tw">${tw}</span><span class="st-${esc(n.s)}">${mark(n.s)}</span> <span class="k">${esc(label(n))}</span>`;
    let figs = ` d${n.d} ${n.s === "started" ? "in flight" : ms(n.ms)}` + (n.tk ? ` tok=${n.tk}` : "") + (n.c ? ` ${n.est ? "~" : ""}${usd(n.c)}` : "");
    const tot = n.sn > 1 ? `Σ${n.sn}` + (n.stk ? ` tok=${n.stk}` : "") + (n.sc ? ` ${usd(n.sc)}` : "") + (n.se ? ` ✗${n.se}` : "") : "";
    const cls = "row" + (p === st.sel ? " sel" : "");
    const data = `data-pos="${p}" data-sn="${n.sn}" data-stk="${n.stk || 0}" data-sc="${(n.sc || 0).toFixed(6)}"`;
    if (timeline) {
      const wall = st.model.summary.wall_ms || 1;
      const left = (100 * n.t0) / wall, width = (100 * (n.s === "started" ? Math.max(0, wall - n.t0) : n.ms)) / wall;
      return `<div class="${cls}" ${data}><span class="lab" style="padding-left:${ind}em">${lab}</span>` +
        `<span class="track"><span class="bar k-${esc(n.k)} st-${esc(n.s)}" style="left:${left}%;width:${width}%" title="${esc(label(n))} ${ms(n.ms)}"></span></span></div>`;
    }
    return `<div class="${cls}" ${data} style="padding-left:${ind}em"><span class="lab">${lab}<span class="f">${figs}</span>` +
      (tot ? `<span class="tot">${tot}</span>` : "") + (n.e ? `<span class="ek">${esc(n.e)}</span>` : "") + `</span></div>`;
  }

  function render() {
    if (!st.model) return;
    const list = $("#list"), rows = st.rows;
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 10);
    const last = Math.min(rows.length, first + Math.ceil(list.clientHeight / ROW) + 20);
    const tl = st.view === "timeline";
    list.classList.toggle("timeline", tl);
    let h = "";
    for (let i = first; i < last; i++) h += rowHTML(rows[i], tl);
    const axis = $("#axis");
    axis.hidden = !tl;
    if (tl) {
      const wall = st.model.summary.wall_ms || 0;
      axis.innerHTML = `<span class="lab">wall ${ms(wall)}</span><span class="track">` +
        [0, 0.25, 0.5, 0.75].map((f) => `<span class="tick" style="left:${f * 100}%">${ms(wall * f)}</span>`).join("") + "</span>";
    }
    $("#rows").style.top = first * ROW + (tl ? ROW : 0) + "px";
    $("#rows").innerHTML = h;
  }

  const CONTENT = ["reply", "plan", "code", "stdout", "stderr", "observation", "answer", "prompt", "response", "arguments"];

  async function detail(p) {
    st.sel = p;
    render();
    const d = await getJSON(`/api/node?file=${st.cur}&pos=${p}&version=${st.model.version}`), e = d.event, n = d.node;
    const rows = [["id", e.id], ["kind", e.kind], ["name", e.name || ""], ["status", e.status || ""], ["depth", e.depth], ["start", e.start], ["duration", ms(e.duration_ms)]];
    if (e.tokens) rows.push(["tokens", `${e.tokens.total} (${e.tokens.prompt} prompt + ${e.tokens.completion} completion)`]);
    if (e.cost_usd) rows.push(["cost", (e.cost_known ? "" : "~") + usd(e.cost_usd) + (e.cost_known ? " reported" : " estimated")]);
    if (e.bytes) rows.push(["bytes", e.bytes]);
    if (n.sn > 1) rows.push(["subtree", `${n.sn} events, ${n.stk || 0} tokens, ${usd(n.sc || 0)}, ${n.se || 0} failed`]);
    const attrs = e.attrs || {}, content = [];
    for (const k of Object.keys(attrs).sort()) {
      if (CONTENT.includes(k)) content.push(k);
      else rows.push([k, typeof attrs[k] === "object" ? JSON.stringify(attrs[k]) : attrs[k]]);
    }
    let h = `<h3>${esc(label(n))}</h3><table>${rows.map(([k, v]) => `<tr><td class="muted">${esc(k)}</td><td>${esc(v)}</td></tr>`).join("")}</table>`;
    if (e.error) {
      h += `<h4 class="st-error">error <span id="errkind">${esc(e.error.phase + "/" + e.error.kind)}</span></h4><pre>${esc(e.error.message || "")}` +
        (e.error.hint ? "\nhint: " + esc(e.error.hint) : "") + (e.error.detail ? "\n" + esc(JSON.stringify(e.error.detail, null, 1)) : "") + "</pre>";
    }
    for (const k of content) h += `<h4>${esc(k)}</h4><pre class="content">${esc(typeof attrs[k] === "string" ? attrs[k] : JSON.stringify(attrs[k], null, 1))}</pre>`;
    if (!content.length && (e.kind === "turn" || e.kind === "model_call" || e.kind === "plan_step"))
      h += `<p class="muted">No content recorded (rlm run --trace-content records replies, code and output).</p>`;
    $("#detail").innerHTML = h;
    $("#detail").dataset.pos = p;
  }

  async function compare() {
    await loadFiles();
    const fs = st.files;
    const row = (name, f) => `<tr><th>${name}</th>${fs.map((x) => `<td>${f(x.summary || {}, x)}</td>`).join("")}</tr>`;
    $("#compare").innerHTML = `<table><tr><th></th>${fs.map((f) => `<th>${esc(f.name)}</th>`).join("")}</tr>` +
      row("status", (s) => esc(s.status || "")) + row("events", (s) => s.events) + row("turns", (s) => s.turns) +
      row("model calls", (s) => s.model_calls) + row("tokens", (s) => s.tokens) + row("cost", (s) => usd(s.cost_usd || 0)) +
      row("wall", (s) => ms(s.wall_ms || 0)) + row("max depth", (s) => s.max_depth) +
      row("calls by depth", (s) => (s.by_depth || []).map((d) => `${d.depth}: ${d.model_calls}`).join(", ")) + row("failed", (s) => s.failed) +
      `<tr><th>answer</th>${fs.map((f) => `<td class="ans">${esc((f.summary && f.summary.answer) || "(not recorded)")}</td>`).join("")}</tr></table>`;
  }

  // ---- The run view: a run's summary and its iterations (the default
  // view). Everything comes computed from /api/runs, /api/iteration; the
  // page only draws it. A strip draws its chips CHUNK at a time, and an
  // iteration is fetched when opened, so a run of any size opens at once.
  const CHUNK = 200;
  const NOT_RECORDED = `<p class="muted">Not recorded (rlm run --trace-content records replies, code and output).</p>`;
  const itMark = (bad, status, flight) => (status === "started" || flight ? "…" : bad ? "✗" : status === "cancelled" ? "⊘" : "✓");

  async function loadRuns() {
    let r;
    try {
      r = await getJSON("/api/runs?file=" + st.cur);
    } catch (e) {
      $("#runview").innerHTML = `<p class="err">${esc(e.message)}</p>`;
      return;
    }
    st.runs = r;
    drawRuns();
    document.body.dataset.runs = r.version;
    if (!document.body.dataset.firstPaint) requestAnimationFrame(() => { document.body.dataset.firstPaint = Math.round(performance.now()); });
    // Reopen what was open (a live file redrawn), parents before children.
    const open = [...st.open];
    if (!open.length && r.runs.length && r.runs[0].iterations.length) open.push([String(r.runs[0].pos), r.runs[0].iterations[0].pos]);
    for (const [run, pos] of open) {
      const card = document.querySelector(`#runview .run[data-pos="${run}"]`);
      if (card && card.querySelector(`:scope > .strip .chip[data-iter="${pos}"]`)) await openIter(card, pos);
    }
  }

  function drawRuns() {
    const r = st.runs, el = $("#runview");
    let h = "";
    if (r.waiting) h += `<p class="waiting" id="waiting">Waiting for <b>${esc(r.name)}</b> to appear… the page follows it as soon as a run writes it.</p>`;
    if (r.error) h += `<p class="err">${esc(r.error.phase + "/" + r.error.kind + ": " + r.error.message)}</p>`;
    if (!r.runs.length && !r.waiting) h += `<p class="muted">No run in this file yet: the Tree view shows its events.</p>`;
    el.innerHTML = h;
    for (const rv of r.runs) el.appendChild(runCard(rv));
  }

  const stat = (label, v, cls) => `<span class="stat ${cls || ""}"><b>${v}</b> ${label}</span>`;

  function runCard(rv) {
    const d = document.createElement("div");
    const child = rv.kind === "rlm_child";
    d.className = "run" + (child ? " child" : "");
    d.dataset.pos = rv.pos;
    d.dataset.failed = rv.failed;
    d.dataset.turns = rv.turns;
    const status = rv.status === "started" ? "running" : rv.status || "?";
    let ans = rv.answer ? esc(rv.answer) : rv.status === "started" ? `<span class="muted">(not yet: running)</span>` :
      rv.error ? `<span class="st-error">none: ${esc(rv.error + (rv.error_message ? ": " + rv.error_message : ""))}</span>` :
        `<span class="muted">(not recorded: --trace-content records it)</span>`;
    d.innerHTML =
      `<div class="runhead"><span class="badge st-${esc(rv.status)}">${esc(status)}</span> <b>${child ? "child RLM " + esc(rv.name) : "run"}</b>` +
      (rv.mode ? ` <span class="muted">${esc(rv.mode)} mode</span>` : "") + (rv.error ? ` <span class="ek">${esc(rv.error)}</span>` : "") + `</div>` +
      `<div class="qa"><div class="q"><span class="lbl">question</span> ${rv.question ? esc(rv.question) : `<span class="muted">(not recorded: --trace-content records it)</span>`}</div>` +
      `<div class="a"><span class="lbl">answer</span> ${ans}</div></div>` +
      `<div class="stats">` + stat("turns", rv.turns) + stat("sub-calls", rv.sub_calls) + stat(rv.children === 1 ? "child" : "children", rv.children) + stat("max depth", rv.max_depth) +
      stat("tokens", rv.tokens) + stat("", usd(rv.cost_usd)) + stat("wall", ms(rv.wall_ms)) + stat("failed", rv.failed, rv.failed ? "err" : "") +
      (rv.in_flight ? stat("in flight", rv.in_flight, "flight") : "") + `</div>` +
      `<div class="strip" role="tablist"></div><div class="iter"></div>`;
    d._run = rv;
    drawChips(d.querySelector(".strip"), rv, 0);
    return d;
  }

  function drawChips(strip, rv, from) {
    const its = rv.iterations, to = Math.min(its.length, from + CHUNK), unit = rv.mode === "plan" ? "step" : "cell";
    let h = "";
    for (let i = from; i < to; i++) {
      const it = its[i], bad = it.failed_cells > 0 || it.failed_calls > 0 || it.status === "error", flight = it.in_flight > 0;
      const sub = [it.n_cells ? it.n_cells + " " + unit + (it.n_cells > 1 ? "s" : "") : "", it.sub_calls ? it.sub_calls + " call" + (it.sub_calls > 1 ? "s" : "") : "",
        it.children ? it.children + " child" + (it.children > 1 ? "ren" : "") : ""].filter(Boolean).join(" · ");
      h += `<button class="chip${bad ? " fail" : ""}${flight ? " flight" : ""}${it.final ? " final" : ""}" data-iter="${it.pos}" title="iteration ${it.n}: ${ms(it.ms)}, ${it.tokens} tokens` +
        `${it.failed ? ", " + it.failed + " failed" : ""}"><span class="m">${itMark(bad, it.status, flight)}</span> ${it.n}${it.final ? " ⚑" : ""}<small>${esc(sub)}</small></button>`;
    }
    const more = strip.querySelector(".more");
    if (more) more.remove();
    strip.insertAdjacentHTML("beforeend", h);
    const rest = its.length - to + (rv.more_iterations || 0);
    if (rest > 0) strip.insertAdjacentHTML("beforeend", `<button class="more" data-from="${to}">+${rest} more</button>`);
  }

  async function openIter(card, pos) {
    const t0 = performance.now();
    card.querySelectorAll(":scope > .strip .chip.sel").forEach((c) => c.classList.remove("sel"));
    const chip = card.querySelector(`:scope > .strip .chip[data-iter="${pos}"]`);
    if (chip) chip.classList.add("sel");
    st.open.set(card.dataset.pos, pos);
    let it;
    try {
      it = await getJSON(`/api/iteration?file=${st.cur}&pos=${pos}&version=${st.runs.version}`);
    } catch (e) {
      return; // the file changed: the live reload redraws and reopens it
    }
    const box = card.querySelector(":scope > .iter");
    box.innerHTML = "";
    box.appendChild(iterEl(it));
    box.dataset.pos = pos;
    document.body.dataset.iterMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.iterOpen = pos;
  }

  // replyHTML shows a reply with its fenced code blocks highlighted.
  function replyHTML(s) {
    let out = "", last = 0;
    const re = /```([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)(?:```|$(?![\s\S]))/gm;
    for (let m; (m = re.exec(s)); ) {
      if (m[0] === "") { re.lastIndex++; continue; }
      out += esc(s.slice(last, m.index));
      last = m.index + m[0].length;
      const py = /^(py|python|python3|repl|)$/i.test(m[1]);
      out += `<span class="fence">\`\`\`${esc(m[1])}</span>\n<span class="code">${py ? highlightPython(m[2]) : esc(m[2])}</span><span class="fence">\`\`\`</span>`;
    }
    return out + esc(s.slice(last));
  }

  // Only base64 data URLs of PNG or JPEG images are drawn (the server
  // hands nothing else over; this checks again).
  const THUMB = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/;

  // thumbsHTML draws the images a call sent: a thumbnail when the trace
  // kept one (--trace-content), captioned with the image's hash prefix and
  // dimensions.
  function thumbsHTML(c) {
    const ims = c.images || [];
    if (!ims.length) return "";
    return `<span class="thumbs">` + ims.map((im) => {
      const name = im.image || "", parts = name.split(" ");
      const cap = (parts[0] || "").slice(0, 19) + (parts[1] ? " " + parts[1] : "");
      const img = im.thumbnail && THUMB.test(im.thumbnail) ? `<img alt="${esc(name)}" src="${esc(im.thumbnail)}">` : "";
      return `<span class="thumb" title="${esc(name)}">${img}<span class="cap">${esc(cap)}</span></span>`;
    }).join("") + (c.more_images ? `<span class="muted"> +${c.more_images} more</span>` : "") + `</span>`;
  }

  function callHTML(c) {
    const bad = c.status === "error", flight = c.status === "started";
    const preview = c.reply ? c.reply.slice(0, 90) + (c.reply.length > 90 ? "…" : "") : "";
    let h = `<details class="call${bad ? " fail" : ""}${flight ? " flight" : ""}" data-pos="${c.pos}"><summary><span class="m">${itMark(bad, c.status, false)}</span> ` +
      `sub-call <b>${esc(c.model || "?")}</b> <span class="muted">d${c.depth} · ${c.tokens} tokens · ${flight ? "in flight" : ms(c.ms)}</span>` +
      (c.error ? ` <span class="ek">${esc(c.error)}</span>` : "") + (preview ? ` <span class="preview">${esc(preview)}</span>` : "") + thumbsHTML(c) + `</summary>`;
    if (c.error_message) h += `<pre class="exc">${esc(c.error + ": " + c.error_message)}</pre>`;
    if (c.prompt) h += `<div class="lbl">prompt</div><pre class="prompt">${esc(c.prompt)}</pre>`;
    if (c.reply) h += `<div class="lbl">reply</div><pre class="out">${esc(c.reply)}</pre>`;
    if (!c.prompt && !c.reply && !flight) h += `<p class="muted">Prompt and reply not recorded.</p>`;
    return h + `</details>`;
  }

  function cellHTML(c, i) {
    const bad = c.failed, flight = c.status === "started";
    const title = c.name === "cell" ? "cell " + (c.n || i + 1) : c.kind === "plan_step" ? "step " + esc(c.name) :
      c.kind === "note" ? "call " + esc(c.name) : esc(c.kind + " " + c.name);
    let h = `<div class="cell${bad ? " fail" : ""}${flight ? " flight" : ""}" data-pos="${c.pos}"><div class="cellhead"><span class="m">${itMark(bad, c.status, flight)}</span> <b>${title}</b>` +
      (c.bind ? ` → <code>${esc(c.bind)}</code>` : "") + ` <span class="muted">${flight ? "running" : ms(c.ms)}${c.tokens ? " · " + c.tokens + " tokens" : ""}</span>` +
      (c.exception ? ` <span class="ek">${esc(c.exception)}</span>` : "") + (c.error && !c.exception ? ` <span class="ek">${esc(c.error)}</span>` : "") +
      (c.final ? ` <span class="final">FINAL</span>` : "") + `</div>`;
    if (c.code) h += `<pre class="code">${highlightPython(c.code)}</pre>`;
    if (c.stdout) h += `<div class="lbl">output</div><pre class="out">${esc(c.stdout)}</pre>`;
    if (c.arguments) h += `<div class="lbl">arguments</div><pre class="code">${esc(c.arguments)}</pre>`;
    if (c.observation) h += `<div class="lbl">observation</div><pre class="out">${esc(c.observation)}</pre>`;
    if (c.stderr) h += `<div class="lbl err">exception</div><pre class="exc">${esc(c.stderr)}</pre>`;
    else if (bad && c.error_message) h += `<pre class="exc">${esc(c.error + ": " + c.error_message)}</pre>`;
    const ops = (c.ops || []).map((o) => `${esc(o.name)} ×${o.count}` + (o.failed ? ` <span class="st-error">✗${o.failed}</span>` : "")).join(", ");
    if (ops || c.steps) h += `<div class="ops muted">` + (ops ? "operations: " + ops : "") + (c.steps ? `${ops ? " · " : ""}${c.steps} nested steps` +
      (c.failed_steps ? ` <span class="st-error">✗${c.failed_steps}</span>` : "") : "") + `</div>`;
    if (c.calls.length) h += `<div class="calls">` + c.calls.map(callHTML).join("") + `</div>`;
    if (c.more_calls) h += `<p class="muted">… and ${c.more_calls} more sub-calls (the Tree view lists them all).</p>`;
    if (c.children.length) h += `<div class="kids" data-cell="${i}"></div>`;
    if (c.more_children) h += `<p class="muted">… and ${c.more_children} more child RLMs (the Tree view lists them all).</p>`;
    return h + `</div>`;
  }

  function iterEl(it) {
    const d = document.createElement("div");
    d.className = "iteration";
    d.dataset.pos = it.pos;
    const plan = it.mode === "plan", bad = it.failed_cells > 0 || it.failed_calls > 0 || it.status === "error";
    let h = `<h3><span class="m ${bad ? "st-error" : ""}">${itMark(bad, it.status, it.in_flight > 0)}</span> Iteration ${it.n}` +
      ` <span class="muted">${it.status === "started" ? "running" : ms(it.ms)} · ${it.tokens} tokens` +
      (it.call ? ` · model ${esc(it.call.model)} (${it.call.tokens} tokens, ${it.call.status === "started" ? "in flight" : ms(it.call.ms)})` : "") + `</span>` +
      (it.call ? thumbsHTML(it.call) : "") + `</h3>`;
    if (it.call && it.call.status === "error") h += `<pre class="exc">${esc(it.call.error + ": " + (it.call.error_message || ""))}</pre>`;
    if (it.error) h += `<pre class="exc">${esc(it.error + ": " + (it.error_message || ""))}</pre>`;
    h += `<div class="lbl">${plan ? "plan" : "model reply"}</div>` + (it.reply ? `<pre class="reply">${plan ? esc(it.reply) : replyHTML(it.reply)}</pre>` : NOT_RECORDED);
    it.cells.forEach((c, i) => { h += cellHTML(c, i); });
    if (!it.cells.length) h += `<p class="muted">${it.status === "started" ? "Nothing ran yet." : "No cell or step ran in this iteration."}</p>`;
    if (it.observation) h += `<div class="lbl">observation</div><pre class="out">${esc(it.observation)}</pre>`;
    d.innerHTML = h;
    d.querySelectorAll(".kids").forEach((k) => {
      for (const rv of it.cells[+k.dataset.cell].children) k.appendChild(runCard(rv));
    });
    return d;
  }

  $("#runview").addEventListener("click", (ev) => {
    const chip = ev.target.closest(".chip");
    const card = ev.target.closest(".run");
    if (chip && card) { openIter(card, +chip.dataset.iter); return; }
    const more = ev.target.closest(".more");
    if (more && card) drawChips(more.parentElement, card._run, +more.dataset.from);
  });

  function follow() {
    if (st.live) st.live.close();
    const es = new EventSource("/api/live?file=" + st.cur);
    st.live = es;
    es.onopen = () => $("#live").classList.add("on");
    es.onerror = () => $("#live").classList.remove("on");
    es.addEventListener("version", (ev) => {
      st.latest = +ev.data;
      const cur = st.view === "run" ? st.runs : st.model;
      if (cur && String(cur.version) === ev.data) return;
      if (st.pending) return;
      st.pending = setTimeout(() => { st.pending = null; reload(); }, 200);
    });
  }

  async function setView(v) {
    st.view = v;
    document.querySelectorAll("#views button").forEach((b) => b.classList.toggle("on", b.dataset.view === v));
    const cmp = v === "compare", rv = v === "run";
    $("#compare").hidden = !cmp;
    $("#runview").hidden = !rv;
    document.querySelector("main").hidden = cmp || rv;
    $("#controls").hidden = cmp || rv;
    $("#summary").hidden = cmp || rv;
    if (location.hash.slice(1) !== v) history.replaceState(null, "", "#" + v);
    if (cmp) compare();
    else if (rv) await loadRuns();
    else if (!st.model || (st.latest !== undefined && st.latest !== st.model.version)) await loadTree();
    else render();
  }

  $("#list").addEventListener("scroll", () => requestAnimationFrame(render));
  window.addEventListener("resize", render);
  $("#rows").addEventListener("click", (ev) => {
    const r = ev.target.closest(".row");
    if (!r) return;
    const p = +r.dataset.pos, n = st.model.nodes[p];
    if (ev.target.classList.contains("tw") && n.sn > 1) {
      st.collapsed.has(n.id) ? st.collapsed.delete(n.id) : st.collapsed.add(n.id);
      computeRows();
      render();
      return;
    }
    detail(p);
  });
  $("#search").addEventListener("input", () => { computeRows(); $("#list").scrollTop = 0; render(); });
  $("#filter").addEventListener("change", () => { computeRows(); $("#list").scrollTop = 0; render(); });
  $("#expand").addEventListener("click", () => { st.collapsed.clear(); computeRows(); render(); });
  $("#collapse").addEventListener("click", () => {
    st.collapsed = new Set(st.model.nodes.filter((n) => n.k === "turn" || n.k === "rlm_child").map((n) => n.id));
    computeRows();
    render();
  });
  $("#views").addEventListener("click", (ev) => { if (ev.target.dataset.view) setView(ev.target.dataset.view); });
  $("#files").addEventListener("click", async (ev) => {
    if (ev.target.dataset.file === undefined) return;
    st.cur = +ev.target.dataset.file;
    st.collapsed.clear();
    st.sel = -1;
    $("#detail").innerHTML = "";
    st.model = null;
    st.runs = null;
    st.open.clear();
    await loadFiles();
    if (st.view === "compare") await setView("run");
    else await reload();
    follow();
  });

  (async function start() {
    await loadFiles();
    await setView(st.view);
    follow();
  })();
})();
