// boa dashboard: a single page over the JSON endpoints of docs/dashboard.md.
// Everything heavy (aggregation, downsampling, paging) happens in the
// server; this script only draws what it is given, with Apache ECharts.
// window.boa exposes the charts and the render time for the browser tests
// and the benchmark (server/dashboard_browser_test.go).
"use strict";

const POLL_MS = 4000;
const STATE_COLOURS = { COMPLETE: "#2563eb", PRUNED: "#ea580c", FAILED: "#dc2626", RUNNING: "#16a34a", WAITING: "#9ca3af", infeasible: "#9ca3af" };
const boa = (window.boa = { charts: {}, rendered: null, page: null, marks: {} });
let timer = null;

// ---- plumbing ----
const $ = (sel, root = document) => root.querySelector(sel);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const fmt = (v) => (v === null || v === undefined ? "–" : typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toPrecision(6).replace(/\.?0+(e|$)/, "$1")) : String(v));
const when = (t) => (t ? new Date(t).toLocaleString() : "–");

class Unauthorised extends Error {}

async function getJSON(url) {
  const pre = window.boaPrefetch && boaPrefetch[url];
  if (pre) delete boaPrefetch[url]; // once: later polls fetch afresh
  const r = await (pre || fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }));
  if (r.status === 401) throw new Unauthorised();
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.status + " " + r.statusText);
  return body;
}

function status(text, isError) {
  const el = $("#status");
  el.textContent = text;
  el.className = isError ? "error" : "";
}

function mount(tplID) {
  Object.values(boa.charts).forEach((c) => c.dispose());
  boa.charts = {};
  const main = $("#main");
  main.replaceChildren($("#" + tplID).content.cloneNode(true));
  return main;
}

function showLogin() {
  clearInterval(timer);
  mount("login-tpl");
  $("#crumbs").textContent = "";
  if (location.hash.includes("login=failed")) $("#login-error").hidden = false;
}

function chart(id) {
  const el = document.getElementById(id);
  const c = echarts.init(el, null, { renderer: "canvas" });
  c.boaKey = id.replace(/^c-/, "");
  boa.charts[c.boaKey] = c;
  return c;
}

// awaiting holds the charts whose first drawing with data the page still
// waits for; once ECharts has finished drawing each of them, the page is
// rendered (boa.rendered: ms since navigation start, for the benchmark).
let awaiting = null;

function paint(c, option) {
  if (awaiting && awaiting.has(c.boaKey)) {
    const once = () => {
      c.off("finished", once);
      if (!awaiting) return;
      awaiting.delete(c.boaKey);
      boa.marks[c.boaKey] = performance.now();
      if (awaiting.size === 0) {
        awaiting = null;
        boa.rendered = performance.now();
      }
    };
    c.on("finished", once);
  }
  const t0 = performance.now();
  c.setOption(option, true);
  boa.marks[c.boaKey + "-setOption"] = Math.round(performance.now() - t0);
}

function message(c, text) {
  c.clear();
  paint(c, { title: { text, left: "center", top: "middle", textStyle: { color: "#6b7280", fontSize: 13, fontWeight: "normal" } } }, true);
}

// ---- router ----
async function route() {
  clearInterval(timer);
  boa.rendered = null;
  awaiting = null;
  const m = location.hash.match(/^#\/study\/(.+)$/);
  try {
    if (m) await studyPage(decodeURIComponent(m[1]));
    else await studiesPage();
  } catch (e) {
    if (e instanceof Unauthorised) return showLogin();
    status(e.message, true);
  }
}
window.addEventListener("hashchange", route);
window.addEventListener("resize", () => Object.values(boa.charts).forEach((c) => c.resize()));
document.addEventListener("DOMContentLoaded", route);

function live(fn) {
  timer = setInterval(() => {
    if ($("#live").checked && !document.hidden) fn().catch((e) => (e instanceof Unauthorised ? showLogin() : status(e.message, true)));
  }, POLL_MS);
}

// ---- studies list ----
async function studiesPage() {
  boa.page = "studies";
  mount("studies-tpl");
  $("#crumbs").textContent = "studies";
  const draw = async () => {
    const { studies } = await getJSON("/api/v1/studies");
    const rows = studies.map((s) => {
      const states = Object.entries(s.states).filter(([, n]) => n > 0).map(([k, n]) => `<span class="state-${k}">${n} ${k.toLowerCase()}</span>`).join(", ");
      return `<tr><td><a href="#/study/${encodeURIComponent(s.name)}">${esc(s.name)}</a></td><td>${esc(s.direction)}</td>` +
        `<td>${esc(s.sampler)}${s.auto_choice ? " → " + esc(s.auto_choice) : ""}</td><td>${states || "none"}</td>` +
        `<td class="num">${fmt(s.best_value)}</td><td>${when(s.last_activity)}</td></tr>`;
    });
    $("#studies tbody").innerHTML = rows.join("") || `<tr><td colspan="6" class="muted">No study in this storage yet.</td></tr>`;
    status(`${studies.length} studies · ${new Date().toLocaleTimeString()}`);
    boa.rendered = boa.rendered || performance.now();
  };
  await draw();
  live(draw);
}

// ---- study page ----
// The forest behind the importances is the slowest analysis: it comes in
// a request of its own, in parallel with the rest. Slice and contour come
// with the first answer, for the first parameters. (index.html asks for
// both before this script runs.)
const KINDS = window.boaKinds;

async function studyPage(name) {
  boa.page = "study";
  mount("study-tpl");
  $("#crumbs").innerHTML = `<a href="#/">studies</a> / ${esc(name)}`;
  const base = `/api/v1/studies/${encodeURIComponent(name)}`;
  const charts = ["c-history", "c-importance", "c-edf", "c-parallel", "c-slice", "c-contour", "c-curves", "c-timeline"].map(chart);
  awaiting = new Set(charts.map((c) => c.boaKey));

  const table = trialTable(base);
  let last = null;
  const draw = async (first) => {
    const imp = first ? getJSON(`${base}/analysis?kind=importance`) : null;
    const [a] = await Promise.all([getJSON(`${base}/analysis?kind=${KINDS}${first ? ",slice,contour" : ""}`), first ? table.load() : null]);
    boa.marks.data = boa.marks.data || performance.now();
    const s = a.summary.study;
    // Redraw when trials came or went, or a running trial reported.
    const sig = JSON.stringify([s.trials, s.states, s.best_value, a.curves.curves.map((c) => c.steps.length)]);
    if (!first && sig === last) return status(`up to date · ${new Date().toLocaleTimeString()}`);
    last = sig;
    summary(a.summary);
    history(a.history, s);
    (imp || getJSON(`${base}/analysis?kind=importance`)).then((i) => importance(i.importance)).catch((e) => message(boa.charts.importance, e.message));
    edf(a.edf, s);
    parallel(a.parallel, s);
    curves(a.curves);
    timeline(a.timeline);
    if (first) {
      selectors(a.summary, base, a);
      table.setup(a.summary);
      if (a.summary.nas) motifs(base);
    } else {
      await Promise.all([table.load(), slice(base), contour(base)]);
    }
    status(`${s.trials} trials · ${new Date().toLocaleTimeString()}`);
  };
  await draw(true);
  live(() => draw(false));
}

function summary(sum) {
  const s = sum.study;
  const items = [
    ["direction", s.direction], ["sampler", s.sampler + (s.auto_choice ? " → " + s.auto_choice : "")],
    ["trials", s.trials + (s.budget ? " / " + s.budget : "")],
    ...Object.entries(s.states).filter(([, n]) => n > 0).map(([k, n]) => [k.toLowerCase(), n]),
    ["best", s.best_value === null ? "–" : `${fmt(s.best_value)} (trial ${s.best_trial})`],
    ["last activity", when(s.last_activity)],
  ];
  if (s.constraints) items.push(["feasible", `${s.feasible} / ${s.feasible + s.infeasible}`]);
  $("#summary").innerHTML = `<h2>${esc(s.name)}</h2><dl>` + items.map(([k, v]) => `<div class="item"><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join("") + "</dl>";
}

const scatterStyle = (name, colour, symbol) => ({ name, type: "scatter", symbolSize: 6, symbol: symbol || "circle", itemStyle: { color: colour }, large: true, largeThreshold: 300, data: [] });

function history(h, s) {
  const c = boa.charts.history;
  const series = { COMPLETE: scatterStyle("complete", STATE_COLOURS.COMPLETE), infeasible: scatterStyle("infeasible", STATE_COLOURS.infeasible, "diamond"), PRUNED: scatterStyle("pruned", STATE_COLOURS.PRUNED, "triangle") };
  const best = [];
  let failed = 0;
  for (const p of h.points) {
    if (p.b !== null) best.push([p.n, p.b]);
    if (p.s === "FAILED" || p.v === null) { failed += p.s === "FAILED"; continue; }
    const key = p.s === "COMPLETE" && p.f === false ? "infeasible" : p.s;
    if (series[key]) series[key].data.push([p.n, p.v]);
  }
  const note = h.points.length < h.total ? ` (${h.points.length} of ${h.total} shown; every improvement kept)` : "";
  paint(c, {
    animation: false, tooltip: { trigger: "item" }, legend: { top: 0 },
    title: { text: failed ? `${failed} failed (no value)${note}` : note, right: 10, top: 0, textStyle: { fontSize: 11, color: "#6b7280", fontWeight: "normal" } },
    grid: { left: 60, right: 20, top: 40, bottom: 40 },
    xAxis: { type: "value", name: "trial", nameLocation: "middle", nameGap: 25 },
    yAxis: { type: "value", name: "value", scale: true },
    dataZoom: [{ type: "inside" }],
    series: [...Object.values(series), { name: `best so far (${s.direction})`, type: "line", step: "end", symbol: "none", lineStyle: { color: "#111827" }, data: best }],
  }, true);
}

function errorOr(c, v) {
  if (v && v.error) { message(c, v.error); return true; }
  return false;
}

function importance(imp) {
  const c = boa.charts.importance;
  if (errorOr(c, imp)) return;
  const rows = [...imp].reverse();
  paint(c, {
    animation: false, tooltip: {}, grid: { left: 120, right: 30, top: 10, bottom: 30 },
    xAxis: { type: "value", max: 1, name: "share" }, yAxis: { type: "category", data: rows.map((r) => r.param) },
    series: [{ type: "bar", data: rows.map((r) => r.share), itemStyle: { color: STATE_COLOURS.COMPLETE }, label: { show: true, position: "right", formatter: (p) => p.value.toFixed(2) } }],
  }, true);
}

function edf(e, s) {
  const c = boa.charts.edf;
  if (!e.values.length) return message(c, "no COMPLETE trial yet");
  paint(c, {
    animation: false, tooltip: { trigger: "axis" }, grid: { left: 60, right: 20, top: 20, bottom: 40 },
    xAxis: { type: "value", name: "value", scale: true, nameLocation: "middle", nameGap: 25 }, yAxis: { type: "value", max: 1, name: "share ≤ value" },
    series: [{ type: "line", step: "end", symbol: "none", data: e.values.map((v, i) => [v, e.shares[i]]) }],
  }, true);
}

function parallel(p, s) {
  const c = boa.charts.parallel;
  if (!p.lines.length) return message(c, "no COMPLETE trial yet");
  const axes = p.axes.map((a, i) => (a.categories ? { dim: i, name: a.param, type: "category", data: a.categories } : { dim: i, name: a.param, type: a.log ? "log" : "value", min: a.low, max: a.high }));
  const vi = axes.length;
  axes.push({ dim: vi, name: "value", type: "value", scale: true });
  const vals = p.lines.map((l) => l.v);
  const data = p.lines.map((l) => ({ value: [...l.c.map((x, i) => (x === null ? null : p.axes[i].categories ? p.axes[i].categories[x] : x)), l.v], lineStyle: l.f === false ? { type: "dashed", color: STATE_COLOURS.infeasible } : undefined }));
  const [lo, hi] = [Math.min(...vals), Math.max(...vals)];
  paint(c, {
    animation: false,
    title: { text: p.lines.length < p.total ? `${p.lines.length} of ${p.total} trials: the best half and a sample` : "", right: 10, textStyle: { fontSize: 11, color: "#6b7280", fontWeight: "normal" } },
    parallelAxis: axes, parallel: { left: 60, right: 80, top: 40, bottom: 30 },
    visualMap: { type: "continuous", min: lo, max: hi === lo ? lo + 1 : hi, dimension: vi, inRange: { color: s.direction === "maximize" ? ["#dc2626", "#facc15", "#2563eb"] : ["#2563eb", "#facc15", "#dc2626"] }, right: 0, top: "middle", calculable: true },
    series: [{ type: "parallel", lineStyle: { width: 1, opacity: 0.5 }, progressive: 500, data }],
  }, true);
}

function curves(cv) {
  const c = boa.charts.curves;
  if (!cv.curves.length) return message(c, "no trial reported intermediate values");
  paint(c, {
    animation: false, tooltip: { trigger: "item", formatter: (p) => `trial ${p.seriesName}: ${fmt(p.value[1])} at step ${p.value[0]}` },
    title: { text: cv.curves.length < cv.total ? `${cv.curves.length} of ${cv.total} curves: the 25 best and the latest` : "", right: 10, textStyle: { fontSize: 11, color: "#6b7280", fontWeight: "normal" } },
    grid: { left: 60, right: 20, top: 30, bottom: 40 },
    xAxis: { type: "value", name: "step", nameLocation: "middle", nameGap: 25 }, yAxis: { type: "value", scale: true },
    series: cv.curves.map((k) => ({
      name: String(k.n), type: "line", showSymbol: k.state === "PRUNED", symbol: "none", endLabel: { show: false },
      lineStyle: { width: 1, type: k.state === "PRUNED" ? "dashed" : "solid", color: STATE_COLOURS[k.state] || "#6b7280" },
      markPoint: k.state === "PRUNED" ? { symbol: "pin", symbolSize: 18, itemStyle: { color: STATE_COLOURS.PRUNED }, data: [{ coord: [k.steps[k.steps.length - 1], k.values[k.values.length - 1]], value: "✂" }] } : undefined,
      data: k.steps.map((st, i) => [st, k.values[i]]),
    })),
  }, true);
}

function timeline(t) {
  const c = boa.charts.timeline;
  if (!t.spans.length) return message(c, "no trial has started");
  const workers = [...new Set(t.spans.map((s) => s.worker || "(none)"))].sort();
  const now = Date.now();
  const data = t.spans.map((s) => ({
    value: [workers.indexOf(s.worker || "(none)"), Date.parse(s.start), s.end ? Date.parse(s.end) : now, s.n, s.state, s.retry_of ?? -1, s.reason || ""],
    itemStyle: { color: STATE_COLOURS[s.state], borderColor: s.retry_of !== undefined ? "#111827" : undefined, borderWidth: s.retry_of !== undefined ? 1.5 : 0 },
  }));
  paint(c, {
    animation: false,
    title: { text: t.spans.length < t.total ? `the latest ${t.spans.length} of ${t.total} trials` : "", right: 10, textStyle: { fontSize: 11, color: "#6b7280", fontWeight: "normal" } },
    tooltip: { formatter: (p) => { const v = p.value; return `trial ${v[3]} ${v[4]}${v[5] >= 0 ? " (re-run of " + v[5] + ")" : ""}<br>${esc(v[6])}`; } },
    grid: { left: 110, right: 20, top: 30, bottom: 40 }, dataZoom: [{ type: "inside", filterMode: "weakFilter" }],
    xAxis: { type: "time" }, yAxis: { type: "category", data: workers },
    series: [{
      type: "custom", encode: { x: [1, 2], y: 0 }, data,
      clip: true,
      renderItem: (params, api) => {
        const y = api.value(0), a = api.coord([api.value(1), y]), b = api.coord([api.value(2), y]);
        const h = api.size([0, 1])[1] * 0.6;
        return { type: "rect", shape: { x: a[0], y: a[1] - h / 2, width: Math.max(b[0] - a[0], 2), height: h }, style: api.style() };
      },
    }],
  }, true);
}

function selectors(sum, base, first) {
  const opts = sum.params.map((p) => `<option>${esc(p.name)}</option>`).join("");
  for (const id of ["slice-param", "contour-x", "contour-y"]) $("#" + id).innerHTML = opts;
  if (sum.params.length > 1) $("#contour-y").selectedIndex = 1;
  $("#slice-param").onchange = () => slice(base);
  $("#contour-x").onchange = $("#contour-y").onchange = () => contour(base);
  slice(base, first.slice);
  contour(base, first.contour);
}

async function slice(base, given) {
  const c = boa.charts.slice, param = $("#slice-param").value;
  if (!param) return message(c, "no parameter");
  const { slice: sl } = given && given.param === param ? { slice: given } : await getJSON(`${base}/analysis?kind=slice&param=${encodeURIComponent(param)}`).catch((e) => ({ slice: { error: e.message } }));
  if (errorOr(c, sl)) return;
  if (!sl.points.length) return message(c, "no COMPLETE trial with " + param + " active");
  const cat = sl.points.some((p) => p.cat !== undefined);
  const feas = sl.points.filter((p) => p.f !== false), infeas = sl.points.filter((p) => p.f === false);
  const xy = (p) => [cat ? p.cat : p.x, p.v, p.n];
  paint(c, {
    animation: false, tooltip: { formatter: (p) => `trial ${p.value[2]}: ${fmt(p.value[1])}` },
    title: { text: sl.points.length < sl.total ? `${sl.points.length} of ${sl.total}` : "", right: 10, textStyle: { fontSize: 11, color: "#6b7280", fontWeight: "normal" } },
    grid: { left: 60, right: 20, top: 30, bottom: 40 },
    xAxis: cat ? { type: "category", name: param } : { type: "value", name: param, scale: true, nameLocation: "middle", nameGap: 25 },
    yAxis: { type: "value", scale: true, name: "value" },
    series: [{ ...scatterStyle("feasible", STATE_COLOURS.COMPLETE), data: feas.map(xy) }, { ...scatterStyle("infeasible", STATE_COLOURS.infeasible, "diamond"), data: infeas.map(xy) }],
  }, true);
}

async function contour(base, given) {
  const c = boa.charts.contour, x = $("#contour-x").value, y = $("#contour-y").value;
  if (!x || !y || x === y) return message(c, "choose two different parameters");
  const { contour: k } = given && (given.error || (given.x === x && given.y === y)) ? { contour: given } : await getJSON(`${base}/analysis?kind=contour&x=${encodeURIComponent(x)}&y=${encodeURIComponent(y)}`).catch((e) => ({ contour: { error: e.message } }));
  if (errorOr(c, k)) return;
  const cells = [];
  let lo = Infinity, hi = -Infinity;
  k.z.forEach((row, j) => row.forEach((v, i) => { if (v !== null) { cells.push([i, j, v]); lo = Math.min(lo, v); hi = Math.max(hi, v); } }));
  const label = (vals, labels) => vals.map((v, i) => (labels && labels.length ? labels[i] : fmt(v)));
  // The observed trials sit on the grid's category axes at their nearest cell.
  const near = (vals, v) => vals.reduce((b, w, i) => (Math.abs(w - v) < Math.abs(vals[b] - v) ? i : b), 0);
  paint(c, {
    animation: false, tooltip: {}, grid: { left: 70, right: 70, top: 20, bottom: 50 },
    xAxis: { type: "category", name: x, data: label(k.xs, k.x_labels), nameLocation: "middle", nameGap: 30 },
    yAxis: { type: "category", name: y, data: label(k.ys, k.y_labels) },
    visualMap: { min: lo, max: hi === lo ? lo + 1 : hi, calculable: true, right: 0, top: "middle", dimension: 2, seriesIndex: 0, inRange: { color: ["#1e3a8a", "#60a5fa", "#fde68a", "#dc2626"] } },
    series: [
      { name: "predicted", type: "heatmap", data: cells },
      { name: "trials", type: "scatter", symbolSize: 5, itemStyle: { color: "#111827" }, data: k.points.map((p) => [near(k.xs, p.x), near(k.ys, p.y), p.v]) },
    ],
  }, true);
}

async function motifs(base) {
  $("#motifs-card").hidden = false;
  try {
    const { motifs: ms } = await getJSON(`${base}/motifs?min_trials=2`);
    $("#motifs tbody").innerHTML = ms.slice(0, 10).concat(ms.length > 20 ? ms.slice(-10) : ms.slice(10)).map((m) =>
      `<tr><td class="num">${m.score.toFixed(2)}</td><td class="num">${fmt(m.effect)}</td><td class="num">${m.trials}</td><td class="num">${m.depth}</td><td>${esc(m.motif)}</td></tr>`).join("");
  } catch (e) {
    $("#motifs tbody").innerHTML = `<tr><td colspan="5" class="muted">${esc(e.message)}</td></tr>`;
  }
}

// ---- trial table: filtered, sorted and paged by the server ----
function trialTable(base) {
  const st = { page: 0, size: 50, sort: "number", query: "" , params: [], metrics: [], matched: 0 };
  const form = () => $("#filters");
  const query = () => {
    const f = new FormData(form()), q = new URLSearchParams();
    for (const k of ["state", "feasible", "min", "max", "q"]) if (f.get(k)) q.set(k, f.get(k));
    if (f.get("wparam")) q.set("where", `${f.get("wparam")}:${f.get("wlo") || ""}:${f.get("whi") || ""}`);
    return q;
  };
  const load = async () => {
    const q = query();
    $("#csv").href = `${base}/export?format=csv&sort=${encodeURIComponent(st.sort)}&${q}`;
    q.set("page", st.page); q.set("size", st.size); q.set("sort", st.sort);
    const r = await getJSON(`${base}/table?${q}`);
    st.matched = r.matched;
    st.loads = (st.loads || 0) + 1; // for the browser test: a page of the table arrived
    const cols = ["number", "state", "value", ...st.params.map((p) => "param:" + p), ...st.metrics.map((m) => "metric:" + m), "worker", "started", "reason"];
    $("#trials thead").innerHTML = "<tr>" + cols.map((k) => `<th data-sort="${esc(k)}">${esc(k.replace(/^param:/, ""))}${st.sort === k ? " ▲" : st.sort === "-" + k ? " ▼" : ""}</th>`).join("") + "</tr>";
    $("#trials tbody").innerHTML = r.trials.map((t) => {
      const inf = t.feasible === false ? " infeasible" : "";
      return `<tr data-n="${t.number}"><td class="num">${t.number}</td><td class="state-${t.state}">${t.state}</td><td class="num${inf}">${fmt(t.value)}</td>` +
        st.params.map((p) => `<td class="num">${fmt(t.params[p])}</td>`).join("") +
        st.metrics.map((m) => `<td class="num">${fmt(t.metrics[m])}</td>`).join("") +
        `<td>${esc(t.worker || "")}</td><td>${when(t.started)}</td><td title="${esc(t.reason || "")}">${esc((t.reason || "").split("\n")[0].slice(0, 80))}</td></tr>`;
    }).join("") || `<tr><td colspan="${cols.length}" class="muted">No trial matches.</td></tr>`;
    const pages = Math.max(1, Math.ceil(r.matched / st.size));
    $("#pageinfo").textContent = `page ${st.page + 1} of ${pages} · ${r.matched} of ${r.total} trials`;
    $("#prev").disabled = st.page === 0;
    $("#next").disabled = st.page + 1 >= pages;
  };
  const setup = (sum) => {
    st.params = sum.params.map((p) => p.name);
    st.metrics = sum.metrics;
    form().wparam.innerHTML = `<option value=""></option>` + sum.params.filter((p) => p.kind !== "categorical").map((p) => `<option>${esc(p.name)}</option>`).join("");
    $("#feasible-filter").hidden = !sum.study.constraints;
    form().onsubmit = (e) => { e.preventDefault(); st.page = 0; load().catch((e) => status(e.message, true)); };
    $("#prev").onclick = () => { st.page--; load(); };
    $("#next").onclick = () => { st.page++; load(); };
    $("#trials thead").onclick = (e) => {
      const k = e.target.closest("th")?.dataset.sort;
      if (!k) return;
      st.sort = st.sort === k ? "-" + k : k;
      st.page = 0;
      load();
    };
    return load();
  };
  boa.table = st;
  return { load: () => (st.params.length ? load() : Promise.resolve()), setup };
}
