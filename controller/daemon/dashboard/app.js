// The uro daemon's live dashboard: polls /status (and /schedule when the routes change)
// and draws the current slice's circuits, the switches, failures and reactions.
// Plain JS, no libraries, nothing loaded from elsewhere (served by the daemon's API).
"use strict";

const PERIOD_MS = 250;          // poll period of /status
const WINDOW_S = 120;           // the timeline shows the last two minutes
const state = { sched: null, schedKey: null, view: "matrix", seen: new Map(), prev: null, fails: 0 };

const $ = (sel) => document.querySelector(sel);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}
function peerColour(p, n) {           // evenly spread hues, one per peer ToR
  return `hsl(${Math.round((p * 360) / Math.max(n, 1))}, 55%, 45%)`;
}
function fmt(x, digits) { return x == null ? "–" : Number(x).toFixed(digits); }
function targetText(kind, t) {
  if (kind === "uplink") return `tor ${t[0]} uplink ${t[1]}`;
  return `${kind} ${t}`;
}
function failureKey(kind, t) { return `${kind}:${Array.isArray(t) ? t.join(":") : t}`; }

async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r.json();
}

// ---- circuits ------------------------------------------------------------------------------
function downSet(st) {
  // uplinks that carry nothing now: masked on a switch, failed cables, failed OCSes, failed ToRs
  const down = new Set();
  const a = st.failures.active;
  for (const [t, u] of a.uplinks) down.add(`${t}:${u}`);
  for (const s of st.switches) if (s.tor != null) for (const u of s.down_uplinks) down.add(`${s.tor}:${u}`);
  return { down, ocs: new Set(a.ocs), tors: new Set(a.tors) };
}

function drawCircuits(st) {
  const box = $("#circuits");
  const sc = state.sched, cur = st.clock ? st.clock.current_slice : null;
  box.replaceChildren();
  if (!sc) { box.append(el("p", { text: "no schedule yet" })); return; }
  if (cur == null) { box.append(el("p", { text: "the slice clock has not started" })); return; }
  const peers = sc.peer[cur], n = sc.tors, d = sc.uplinks, f = downSet(st);
  const isDown = (t, u) => f.down.has(`${t}:${u}`) || f.ocs.has(u) || f.tors.has(t) ||
    (peers[t][u] >= 0 && f.tors.has(peers[t][u]));
  const table = el("table", { class: "matrix", id: "matrix", "data-slice": String(cur) });
  if (state.view === "matrix") {
    table.append(el("tr", {}, el("th", { text: "ToR \\ uplink" }),
      ...Array.from({ length: d }, (_, u) => el("th", { text: `u${u}` }))));
    for (let t = 0; t < n; t++) {
      const row = el("tr", { class: f.tors.has(t) ? "dead" : "" }, el("th", { text: sc.names[t] || `tor${t}` }));
      for (let u = 0; u < d; u++) {
        const p = peers[t][u];
        const td = el("td", { "data-tor": String(t), "data-uplink": String(u), text: p >= 0 ? String(p) : "·",
          title: p >= 0 ? `tor ${t} uplink ${u} -> tor ${p} in slice ${cur}` : "no circuit" });
        if (p < 0) td.className = "idle"; else td.style.background = peerColour(p, n);
        if (isDown(t, u)) td.classList.add("down");
        row.append(td);
      }
      table.append(row);
    }
  } else {          // per OCS: which ToR pairs each OCS connects in this slice
    table.append(el("tr", {}, el("th", { text: "OCS" }), el("th", { text: "circuits (ToR–ToR) in this slice" })));
    for (let u = 0; u < d; u++) {
      const pairs = el("td", { class: "chips" });
      pairs.style.textAlign = "left";
      for (let t = 0; t < n; t++) {
        const p = peers[t][u];
        if (p > t || (p >= 0 && p === t)) {
          const chip = el("span", { text: `${t}–${p}` });
          if (isDown(t, u) || isDown(p, u)) chip.className = "hot";
          pairs.append(chip);
        }
      }
      table.append(el("tr", { class: f.ocs.has(u) ? "dead" : "" }, el("th", { text: `ocs ${u}` }), pairs));
    }
  }
  box.append(table);
  const strip = $("#strip");
  if (strip.childElementCount !== sc.slices) {
    strip.replaceChildren(...Array.from({ length: sc.slices }, (_, s) => el("span", { text: String(s) })));
  }
  [...strip.children].forEach((c, s) => c.classList.toggle("cur", s === cur));
}

// ---- switches --------------------------------------------------------------------------------
function chips(cells, hot) {
  const td = el("td", { class: "chips" });
  const items = Object.entries(cells || {}).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  if (!items.length) td.append("–");
  for (const [k, v] of items) td.append(el("span", { class: hot ? "hot" : "", text: `${k} ${v}` }));
  return td;
}

function drawSwitches(st) {
  const body = $("#switches tbody");
  body.replaceChildren(...st.switches.map((s) => {
    const c = s.counters || {};
    return el("tr", { "data-switch": s.name, "data-state": s.state, "data-generation": String(s.generation) },
      el("td", { text: s.name }), el("td", { text: s.role + (s.tor != null ? ` ${s.tor}` : "") }),
      el("td", { class: `state-${s.state}`, text: s.state }),
      el("td", { class: "num", text: s.generation == null ? "–" : String(s.generation) }),
      el("td", { class: "num", text: String(s.entries) }),
      el("td", { text: s.down_uplinks.length ? s.down_uplinks.join(",") : "–" }),
      el("td", { class: "num", text: String(s.swaps) }), el("td", { class: "num", text: String(s.repairs) }),
      el("td", { class: "num", text: String(s.restores) }),
      chips(c.drops, true), chips(c.events, false), el("td", { text: s.last_error || "" }));
  }));
}

function drawClock(st) {
  const c = st.clock || {}, j = c.jitter_between_switches || {}, l = c.lateness_vs_ideal || {};
  const tail = [["routes", st.routes ? `v${st.routes.version} (${st.routes.per_hop || "–"} / ${st.routes.source || "–"})` : "–"],
    ["uptime", `${fmt(st.uptime_s, 0)} s`]];
  const rows = c.mode === "sync" ? [["mode", "sync: the switches keep time"], ["current slice", c.current_slice],
    ["max ToR error", c.max_error_us == null ? "–" : `${fmt(c.max_error_us, 1)} µs (alarm at ${fmt(c.alarm_us, 0)} µs)`],
    ["alarms", (c.alarms || []).join(", ") || "none"], ["unsynchronized", (c.unsynchronized || []).join(", ") || "none"],
    ["liveness", liveness(st.liveness)], ...tail] : [["mode", "timer: the daemon sends every slice's timer"], ["current slice", c.current_slice],
    ["slices since start", c.slices_since_start],
    ["timers sent", c.timers_sent], ["slices skipped", c.slices_skipped],
    ["spread p50 / p99", `${fmt(j.p50_ms, 3)} / ${fmt(j.p99_ms, 3)} ms`],
    ["lateness p50 / p99", `${fmt(l.p50_ms, 3)} / ${fmt(l.p99_ms, 3)} ms`], ...tail];
  $("#clock").replaceChildren(...rows.map(([k, v]) => el("tr", {}, el("td", { text: k }),
    el("td", { class: "num", text: v == null ? "–" : String(v) }))));
  drawSwitchClocks(c, st.liveness);
}

// how many circuits a ToR marked (``what``: marks | wrong_peer), as the liveness status lists them
function marked(lv, what, tor) {
  if (!lv || !lv.enabled || tor == null || !lv.marks || !(String(tor) in lv.marks)) return "–";
  return String(((lv[what] || {})[String(tor)] || []).length);
}

// what the switches' own liveness marks say failed (docs/liveness.md)
function liveness(lv) {
  if (!lv || !lv.enabled) return "off";
  const v = lv.verdict || {}, parts = [];
  if ((v.tors || []).length) parts.push(`dead ToR ${v.tors.join(", ")}`);
  if ((v.uplinks || []).length) parts.push(`cable ${v.uplinks.map((x) => x.join("/")).join(", ")}`);
  if ((v.misconfigured || []).length) parts.push(`ToR ${v.misconfigured.join(", ")} answers under another id`);
  if ((v.circuits || []).length) parts.push(`${v.circuits.length} circuits`);
  if ((v.wrong_peer || []).length) parts.push(`wrong peer on ${v.wrong_peer.map((x) => x.join("/")).join(", ")}`);
  return parts.join(" · ") || "every circuit heard";
}

// the switches' own clocks (sync mode): stratum, error against the reference with its
// uncertainty, the last exchange's offset and delay, drift, refusals, the circuits the ToR
// marked down itself (liveness) and the error's history
function drawSwitchClocks(c, lv) {
  const box = $("#switch-clocks");
  if (!box) return;
  if (c.mode !== "sync") { box.replaceChildren(); return; }
  const sw = c.switches || {};
  const head = el("tr", {}, ...["switch", "stratum", "error µs", "± µs", "offset ns", "delay ns", "drift ppb",
    "refused", "marked", "wrong peer", "history (error µs)"].map((t) => el("th", { text: t })));
  box.replaceChildren(head, ...Object.entries(sw).map(([name, s]) => {
    const r = s.registers || {}, hist = (s.history || []).map((h) => h[1]).filter((x) => x != null);
    const cls = s.alarm ? "bad" : (s.synced ? "" : "warn");
    return el("tr", { class: cls }, el("td", { text: name }),
      el("td", { class: "num", text: s.stratum == null ? "–" : String(s.stratum) }),
      el("td", { class: "num", text: fmt(s.error_us, 1) }), el("td", { class: "num", text: fmt(s.uncertainty_us, 1) }),
      el("td", { class: "num", text: r.offset == null ? "–" : String(r.offset) }),
      el("td", { class: "num", text: r.delay == null ? "–" : String(r.delay) }),
      el("td", { class: "num", text: r.drift == null ? "–" : String(r.drift) }),
      el("td", { class: "num", text: r.refusals == null ? "–" : String(r.refusals) }),
      el("td", { class: "num", text: marked(lv, "marks", s.tor) }),
      el("td", { class: "num", text: marked(lv, "wrong_peer", s.tor) }),
      el("td", { text: hist.slice(-20).map((x) => fmt(x, 0)).join(" ") }));
  }));
}

// ---- traffic ---------------------------------------------------------------------------------
function drawTraffic(st, dt) {
  // per-uplink packet counters where the program has them (a counter with one cell per
  // uplink, "u0".."u{d-1}" or "0".."{d-1}"); otherwise the switches' own counter rates
  const box = $("#traffic"), prev = state.prev;
  const rows = [];
  let perUplink = false;
  for (const s of st.switches) {
    for (const [name, cells] of Object.entries(s.counters || {})) {
      const keys = Object.keys(cells);
      const uplinkCells = keys.length > 0 && keys.every((k) => /^u?\d+$/.test(k)) && /uplink|port|tx/.test(name);
      perUplink = perUplink || uplinkCells;
      const old = prev && prev.get(s.name) && prev.get(s.name)[name];
      for (const k of keys) {
        const rate = old && dt > 0 ? Math.max(0, (cells[k] - (old[k] || 0)) / dt) : null;
        if (uplinkCells || cells[k] > 0) rows.push([s.name, `${name}.${k}`, cells[k], rate]);
      }
    }
  }
  const note = perUplink ? null : el("p", { class: "legend",
    text: "These programs count drops and events per switch, not packets per uplink: the rates below are the " +
          "switches' own counters (packets/s between polls)." });
  const t = el("table", {}, el("tr", {}, el("th", { text: "switch" }), el("th", { text: "counter" }),
    el("th", { text: "packets" }), el("th", { text: "packets/s" })),
    ...rows.map(([n, k, v, r]) => el("tr", {}, el("td", { text: n }), el("td", { text: k }),
      el("td", { class: "num", text: String(v) }), el("td", { class: "num", text: r == null ? "–" : fmt(r, 1) }))));
  box.replaceChildren(...[note, t].filter(Boolean));
}

// ---- failures --------------------------------------------------------------------------------
function drawFailures(st, now) {
  const a = st.failures.active;
  const active = [...a.uplinks.map((t) => ["uplink", t]), ...a.tors.map((t) => ["tor", t]),
    ...a.ocs.map((t) => ["ocs", t])];
  for (const [k, t] of active) {
    const key = failureKey(k, t);
    if (!state.seen.has(key)) state.seen.set(key, now);
  }
  for (const key of [...state.seen.keys()]) {
    if (!active.some(([k, t]) => failureKey(k, t) === key)) state.seen.delete(key);
  }
  const box = $("#active");
  box.replaceChildren(active.length ? "" : "no failure active",
    ...active.map(([k, t]) => el("span", { class: "fail", "data-failure": failureKey(k, t), text: `✖ ${targetText(k, t)}` })));

  const evs = st.failures.events || [];
  $("#events").replaceChildren(...evs.slice().reverse().map((e) => {
    const when = e.detected ? new Date(e.detected).toLocaleTimeString() : "";
    const react = [e.dataplane_ms != null ? `data plane ${fmt(e.dataplane_ms, 1)} ms` : "no data-plane mask",
      e.generation_s != null ? `new generation (routes v${e.routes_version}) ${fmt(e.generation_s, 2)} s` : null]
      .filter(Boolean).join(", ");
    return el("li", { class: e.op, "data-event": `${e.op}:${failureKey(e.kind, e.target)}` },
      `${when} ${e.op} ${targetText(e.kind, e.target)} (${e.source}) → ${react}`,
      e.error ? el("span", { class: "err", text: ` · ${e.error}` }) : null);
  }));
  drawTimeline(evs, now);
}

function drawTimeline(evs, now) {
  const svg = $("#timeline"), w = svg.clientWidth || 800, h = 90, ns = "http://www.w3.org/2000/svg";
  const x = (t) => w - ((now - t) / (WINDOW_S * 1000)) * (w - 40) - 10;
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  };
  const kids = [mk("line", { x1: 30, x2: w - 10, y1: 70, y2: 70, stroke: "#9ca3af" })];
  for (let s = 0; s <= WINDOW_S; s += 30) {
    kids.push(mk("text", { x: x(now - s * 1000) - 8, y: 85 }, s ? `-${s}s` : "now"));
  }
  for (const e of evs) {
    const t = Date.parse(e.detected);
    if (!(now - t < WINDOW_S * 1000)) continue;
    const colour = e.op === "fail" ? "#c81e1e" : "#15803d", x0 = x(t);
    const x1 = e.generation_s != null ? x(t + e.generation_s * 1000) : x0;
    kids.push(mk("rect", { x: x0, y: e.op === "fail" ? 20 : 42, width: Math.max(3, x1 - x0), height: 18, fill: colour,
      opacity: 0.8 }));
    const right = x0 > w - 160;
    kids.push(mk("text", { x: right ? x0 - 4 : x0 + 4, y: e.op === "fail" ? 16 : 38,
      "text-anchor": right ? "end" : "start" }, `${e.op} ${targetText(e.kind, e.target)}`));
  }
  const reported = new Set(evs.filter((e) => e.op === "fail").map((e) => failureKey(e.kind, e.target)));
  for (const [key, t0] of state.seen) {     // active, its reaction not reported yet
    if (reported.has(key)) continue;
    kids.push(mk("circle", { cx: x(t0), cy: 62, r: 4, fill: "#b45309" }));
    kids.push(mk("text", { x: x(t0) - 6, y: 66, "text-anchor": "end" }, `${key} (reacting)`));
  }
  svg.replaceChildren(...kids);
}

// ---- loop ------------------------------------------------------------------------------------
async function refreshSchedule(st) {
  const key = st.routes ? `${st.routes.schedule_version}` : null;
  if (key === state.schedKey && state.sched) return;
  state.sched = await getJSON("/schedule");
  state.schedKey = key;
}

async function poll() {
  const t0 = performance.now();
  try {
    const st = await getJSON("/status");
    const now = Date.parse(st.started) + st.uptime_s * 1000;   // the daemon's wall clock
    await refreshSchedule(st);
    const dt = state.prevT ? (now - state.prevT) / 1000 : 0;
    $("#network").textContent = st.network;
    $("#nslices").textContent = state.sched ? state.sched.slices : "–";
    $("#slice").textContent = st.clock && st.clock.current_slice != null ? st.clock.current_slice : "–";
    $("#slicems").textContent = st.clock ? fmt(st.clock.slice_ms, 0) : "–";
    const up = st.switches.filter((s) => s.state === "up").length;
    $("#summary").textContent = `${up}/${st.switches.length} switches up · routes v${st.routes ? st.routes.version : "–"}`;
    drawCircuits(st); drawClock(st); drawSwitches(st); drawTraffic(st, dt); drawFailures(st, now);
    state.prev = new Map(st.switches.map((s) => [s.name, s.counters || {}]));
    state.prevT = now;
    state.fails = 0;
    $("#conn").textContent = "live"; $("#conn").className = "badge live";
  } catch (err) {
    // the daemon not answering is shown, not logged; anything else is a bug of this page
    if (!(err instanceof TypeError && /fetch/i.test(err.message)) && !/HTTP \d+/.test(err.message)) console.error(err);
    state.fails += 1;
    $("#conn").textContent = `no answer (${state.fails})`; $("#conn").className = "badge stale";
  }
  setTimeout(poll, Math.max(50, PERIOD_MS - (performance.now() - t0)));
}

$("#view-matrix").addEventListener("click", () => { state.view = "matrix"; $("#view-matrix").className = "on"; $("#view-ocs").className = ""; });
$("#view-ocs").addEventListener("click", () => { state.view = "ocs"; $("#view-ocs").className = "on"; $("#view-matrix").className = ""; });
$("#period").textContent = String(PERIOD_MS);
poll();
