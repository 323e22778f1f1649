// rlm trace viewer: plain JavaScript, no build step, no dependencies.
// It draws the model served by /api/tree (nodes in tree order, each with
// its subtree size and totals) into a virtualized list: only the rows in
// view exist in the DOM, so 100k events scroll like 100.
"use strict";
(function () {
  const ROW = 20; // px, must match .row height in app.css
  const $ = (s) => document.querySelector(s);
  const st = { files: [], cur: 0, model: null, view: "tree", collapsed: new Set(), sel: -1, rows: [], live: null, pending: null };

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const ms = (v) => (v >= 1000 ? (v / 1000).toFixed(2) + "s" : v >= 1 ? v.toFixed(1) + "ms" : Math.round(v * 1000) + "µs");
  const usd = (v) => "$" + v.toFixed(6);
  const mark = (s) => (s === "error" ? "✗" : s === "cancelled" ? "⊘" : s === "ok" ? "✓" : "·");
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

  async function loadTree() {
    const m = await getJSON("/api/tree?file=" + st.cur);
    st.model = m;
    computeRows();
    summary();
    render();
    if (st.sel >= m.nodes.length) st.sel = -1;
    document.body.dataset.version = m.version;
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
    let figs = ` d${n.d} ${ms(n.ms)}` + (n.tk ? ` tok=${n.tk}` : "") + (n.c ? ` ${n.est ? "~" : ""}${usd(n.c)}` : "");
    const tot = n.sn > 1 ? `Σ${n.sn}` + (n.stk ? ` tok=${n.stk}` : "") + (n.sc ? ` ${usd(n.sc)}` : "") + (n.se ? ` ✗${n.se}` : "") : "";
    const cls = "row" + (p === st.sel ? " sel" : "");
    const data = `data-pos="${p}" data-sn="${n.sn}" data-stk="${n.stk || 0}" data-sc="${(n.sc || 0).toFixed(6)}"`;
    if (timeline) {
      const wall = st.model.summary.wall_ms || 1;
      const left = (100 * n.t0) / wall, width = (100 * n.ms) / wall;
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

  const CONTENT = ["reply", "plan", "code", "stdout", "stderr", "observation", "answer", "prompt", "response"];

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

  function follow() {
    if (st.live) st.live.close();
    const es = new EventSource("/api/live?file=" + st.cur);
    st.live = es;
    es.onopen = () => $("#live").classList.add("on");
    es.onerror = () => $("#live").classList.remove("on");
    es.addEventListener("version", (ev) => {
      if (st.model && String(st.model.version) === ev.data) return;
      if (st.pending) return;
      st.pending = setTimeout(() => { st.pending = null; loadTree(); }, 200);
    });
  }

  function setView(v) {
    st.view = v;
    document.querySelectorAll("#views button").forEach((b) => b.classList.toggle("on", b.dataset.view === v));
    const cmp = v === "compare";
    $("#compare").hidden = !cmp;
    document.querySelector("main").hidden = cmp;
    $("#controls").hidden = cmp;
    $("#summary").hidden = cmp;
    if (cmp) compare(); else render();
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
    await loadFiles();
    await loadTree();
    follow();
    if (st.view === "compare") setView("tree");
  });

  (async function start() {
    await loadFiles();
    await loadTree();
    follow();
  })();
})();
