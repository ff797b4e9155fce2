// rulelang serve: the page.  Plain JavaScript, no build step, nothing fetched from elsewhere.
// The server sends this seat's view only; the page draws it and sends back the index of a
// choice.  Every text from the game is put in with textContent (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
};

// The link's fragment holds its token: #host=..., #seat=..., #spectator=..., #hotseat=...
// (a fragment is never sent to the server, so no request log holds it).
function linkOf() {
  const h = new URLSearchParams(location.hash.slice(1));
  for (const role of ["host", "seat", "spectator", "hotseat", "replay"]) {
    if (h.get(role)) return { role, token: h.get(role) };
  }
  return null;
}

function say(text) {
  const m = $("message");
  m.textContent = text;
  m.hidden = !text;
  if (text) setTimeout(() => { if (m.textContent === text) m.hidden = true; }, 4000);
}

// ---- the lobby -----------------------------------------------------------------------------

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function linkURL(name, token) {
  const role = name.startsWith("seat") ? "seat" : name;
  return `${location.origin}/#${role}=${token}`;
}

function showLinks(box, links) {
  for (const [name, token] of Object.entries(links)) {
    const p = el("p");
    p.append(el("strong", null, name + ": "));
    const a = el("a", null, linkURL(name, token));
    a.href = linkURL(name, token);
    a.target = "_blank";
    a.dataset.link = name;
    p.append(a);
    box.append(p);
  }
}

async function lobby(token) {
  const box = $("lobby");
  box.hidden = false;
  let info;
  try { info = await post("/api/lobby", { token }); }
  catch (e) { box.textContent = "This is not the host's link: " + e.message; return; }
  $("title").textContent = info.game;
  $("who").textContent = "host";
  const form = el("form");
  form.id = "lobby-form";
  form.append(el("h2", null, "A new game of " + info.game));
  const [lo, hi] = info.players;
  const nLabel = el("label", null, "Players ");
  const n = el("select");
  n.id = "players";
  for (let k = lo; k <= hi; k++) {
    const o = el("option", null, k); o.value = k; if (k === info.default_players) o.selected = true; n.append(o);
  }
  nLabel.append(n);
  form.append(nLabel);
  const seats = el("fieldset");
  seats.append(el("legend", null, "Who plays each seat"));
  form.append(seats);
  const drawSeats = () => {
    seats.querySelectorAll("div").forEach((d) => d.remove());
    for (let p = 1; p <= Number(n.value); p++) {
      const d = el("div");
      d.append(el("span", null, "Player " + p + " "));
      const s = el("select");
      s.className = "seat-kind";
      s.dataset.seat = p;
      const human = el("option", null, "a person"); human.value = "human"; s.append(human);
      for (const a of info.agents) {
        const o = el("option", null, "computer: " + a.name); o.value = a.name; o.title = a.description; s.append(o);
      }
      if (p > 1) s.value = "random";
      const budget = el("input"); budget.type = "number"; budget.min = 1; budget.placeholder = "budget";
      budget.className = "budget"; budget.title = "playouts (mc) or iterations (ismcts) per decision";
      d.append(s, budget);
      seats.append(d);
    }
  };
  n.addEventListener("change", drawSeats);
  drawSeats();
  if (info.options.length) {
    const opts = el("fieldset");
    opts.append(el("legend", null, "Options (as --set NAME=VALUE)"));
    for (const o of info.options) {
      const l = el("label", null, o.label + " ");
      const i = el("input"); i.type = "text"; i.value = o.value; i.dataset.option = o.name; i.maxLength = 80;
      l.append(i); opts.append(l);
    }
    form.append(opts);
  }
  const hs = el("label", null, " one screen passed around (hot-seat)");
  const hsBox = el("input"); hsBox.type = "checkbox"; hsBox.id = "hotseat";
  hs.prepend(hsBox);
  form.append(hs, el("br"));
  const go = el("button", null, "Start the game"); go.type = "submit"; go.id = "start";
  form.append(go);
  const links = el("div", "links"); links.id = "links"; links.hidden = true;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const spec = { token, players: Number(n.value), seats: [], options: {}, hotseat: hsBox.checked };
    seats.querySelectorAll("div").forEach((d) => {
      const kind = d.querySelector(".seat-kind").value;
      const b = d.querySelector(".budget").value;
      spec.seats.push(kind !== "human" && b ? `${kind}:${b}` : kind);
    });
    form.querySelectorAll("[data-option]").forEach((i) => {
      const o = info.options.find((x) => x.name === i.dataset.option);
      if (i.value !== o.value) spec.options[o.name] = i.value;
    });
    try {
      const t = await post("/api/start", spec);
      links.hidden = false;
      links.replaceChildren(el("h2", null, "Links of the new game (give each only to its player)"));
      showLinks(links, t.links);
    } catch (e) { say(e.message); }
  });
  box.append(form, links);
  if (info.tables.length) {
    const old = el("div", "links");
    old.append(el("h2", null, "Games on this server"));
    for (const t of info.tables) {
      const p = el("p", null, `${t.players} players, ${t.moves} moves` + (t.over ? ", over " : " "));
      const save = el("button", "save", "Save");
      save.type = "button";
      save.addEventListener("click", async () => {
        try { const r = await post("/api/save", { token, table: t.table }); say("Saved as " + r.save); }
        catch (e) { say(e.message); }
      });
      p.append(save);
      old.append(p);
      showLinks(old, t.links);
      t.seats.forEach((kind, k) => {
        if (kind !== "human" || t.over) return;
        const give = el("button", "takeover", `Player ${k + 1} left: a computer plays on`);
        give.type = "button";
        give.addEventListener("click", async () => {
          try { await post("/api/takeover", { token, table: t.table, seat: k + 1, agent: "random" }); give.disabled = true; }
          catch (e) { say(e.message); }
        });
        old.append(give);
      });
    }
    box.append(old);
  }
  if (info.saves.length) {
    const saved = el("div", "links");
    saved.id = "saves";
    saved.append(el("h2", null, "Saved games"));
    for (const name of info.saves) {
      const p = el("p", null, name + " ");
      const go = el("button", "resume", "Resume");
      go.type = "button";
      go.addEventListener("click", async () => {
        try {
          const t = await post("/api/resume", { token, save: name, hotseat: hsBox.checked });
          links.hidden = false;
          links.replaceChildren(el("h2", null, "Links of the resumed game (give each only to its player)"));
          showLinks(links, t.links);
        } catch (e) { say(e.message); }
      });
      p.append(go);
      saved.append(p);
    }
    box.append(saved);
  }
}

// ---- a seat at the table -------------------------------------------------------------------

const state = { ws: null, version: -1, link: null, table: null, sent: false, retry: 500, refused: null };

function cardEl(c, extra) {
  const d = el("div", "card" + (extra ? " " + extra : ""));
  if (!c) { d.classList.add("back"); d.title = "face down"; return d; }
  const text = c.text || c.name;
  d.append(el("span", "name", text));
  if (c.rank && c.suit && !/[♠♥♦♣]/.test(text)) d.append(el("span", "sub", `${c.rank} · ${c.suit}`));
  if (/[♥♦]/.test(text)) d.classList.add("red");
  if (c.s >= 0) d.classList.add("s" + (c.s % 6));
  if (text.length > 6) d.classList.add("long");
  d.title = text;
  d.dataset.card = c.name;
  return d;
}

function zoneEl(z, playable) {
  const box = el("div", "zone");
  box.dataset.zone = z.key;
  const head = el("div", "label", z.label);
  box.append(head);
  const cards = el("div", "cards");
  if (z.cards) {
    if (!z.cards.length) cards.append(el("span", "count", "(empty)"));
    z.cards.forEach((c, i) => {
      const d = cardEl(c);
      const by = z.played_by && z.played_by[i];
      if (by) { d.append(el("span", "by", by)); d.title += ` (played by ${by})`; }
      const ch = playable.get(c.name);
      if (ch !== undefined) { d.classList.add("playable"); d.dataset.choice = ch; d.addEventListener("click", () => act(ch)); }
      cards.append(d);
    });
    if (z.cards.length > 1) head.append(document.createTextNode(` (${z.cards.length})`));
  } else if (z.size === null) {
    cards.append(el("span", "count", "(hidden)"));
  } else {
    const pile = el("div", "pile");
    if (z.top) pile.append(cardEl(z.top));
    else if (z.size > 0) pile.append(cardEl(null));
    const topBy = z.played_by && z.size > 0 ? z.played_by[z.size - 1] : null;
    pile.append(el("span", "count", (z.size === 0 ? "(empty)" : (z.top ? `${z.size} cards, top face up` : `${z.size} face down`))
                                     + (topBy ? `, the top played by ${topBy}` : "")));
    cards.append(pile);
  }
  if (z.known && z.known.length) {
    const k = el("div", "cards");
    k.append(el("span", "count", "you know: "));
    for (const c of z.known) k.append(cardEl(c, "known"));
    box.append(k);
  }
  box.append(cards);
  if (z.extra) box.append(el("div", "extra", `${z.extra[0]}: ${z.extra[1]}`));
  return box;
}

function draw(frame) {
  const v = frame.view;
  state.version = frame.version;
  state.table = frame.table;
  state.sent = false;
  $("title").textContent = frame.game;
  $("rules-button").hidden = false;
  $("game").hidden = false;
  $("who").textContent = v.you ? `You are Player ${v.you} of ${v.players}` :
    (frame.role === "hotseat" ? "hot-seat" : "spectator");
  const turnOf = v.to_decide.length ? v.to_decide : [v.turn_of];
  let status = v.terminal ? "The game is over" :
    `Turn ${v.turn}: ` + (turnOf.includes(v.you) ? "your decision" :
      turnOf.map((p) => "Player " + p).join(", ") + (turnOf.length > 1 ? " decide" : " to decide"));
  if (frame.thinking) status += " (a computer player is thinking)";
  $("status").textContent = status;
  // who may be chosen by clicking a card: the card choices of this seat
  const playable = new Map();
  if (v.decision) for (const c of v.decision.choices) if (c.card && !playable.has(c.card.name)) playable.set(c.card.name, c.i);
  const others = $("others"), middle = $("middle"), mine = $("mine");
  others.replaceChildren(); middle.replaceChildren(); mine.replaceChildren();
  const seatBox = {};
  const order = [];
  for (let k = 0; k < v.players; k++) order.push(((v.you || 1) - 1 + k) % v.players + 1);
  for (const p of order) {
    const s = v.seats[p - 1];
    const box = el("div", "seat");
    box.dataset.seat = p;
    if (turnOf.includes(p) && !v.terminal) box.classList.add("turn");
    box.append(el("h3", null, s.name + (frame.seats && frame.seats[p - 1] !== "human" ? ` (computer: ${frame.seats[p - 1]})` : "")));
    if (s.team) { box.dataset.team = s.team; box.append(el("div", "team", `Team ${s.team}`)); }
    if (s.vars.length) box.append(el("div", "vars", s.vars.map(([a, b]) => `${a}: ${b}`).join(" · ")));
    seatBox[p] = box;
    (p === v.you ? mine : others).append(box);
  }
  for (const z of v.zones) (z.owner ? seatBox[z.owner] : middle).append(zoneEl(z, playable));
  if (v.vars.length) middle.append(el("div", "vars", v.vars.map(([a, b]) => `${a}: ${b}`).join(" · ")));
  // a game with teams: who plays with whom, each team's values and, at the end, its score
  if (v.teams) {
    const box = el("div", "teams");
    for (const t of v.teams) {
      const who = t.players.map((p) => (p === v.you ? "you" : "Player " + p)).join(", ");
      const parts = [`Team ${t.team}: ${who}`].concat(t.vars.map(([a, b]) => `${a}: ${b}`));
      if (t.score !== undefined) parts.push(`score ${t.score}`);
      const row = el("div", "team", parts.join(" · "));
      row.dataset.team = t.team;
      box.append(row);
    }
    middle.append(box);
  }
  drawDecision(v);
  drawReplay(frame);
  const res = $("result");
  res.hidden = !v.terminal;
  if (v.terminal) {
    let t = v.result;
    if (v.scores) t += "\nScores: " + v.scores.map((s, i) => `Player ${i + 1} ${s}`).join(", ");
    if (v.teams && v.teams.some((tm) => tm.score !== undefined))
      t += "\nTeams: " + v.teams.map((tm) => `Team ${tm.team} ${tm.score}`).join(", ");
    res.textContent = t;
  }
  // for people's tools and tests: what the page shows now
  document.body.dataset.version = frame.version;
  document.body.dataset.phase = frame.replay ? "replay" : v.terminal ? "over" : (v.decision ? "decide" : "wait");
  const story = $("story");
  if (frame.story_reset) story.replaceChildren();
  for (const line of frame.story) story.append(el("li", null, line));
  story.scrollTop = story.scrollHeight;
}

const MODE_NOTE = {
  simultaneous: "The others choose at the same time, in secret; nobody sees your choice until all have chosen.",
  claim: "Any of several players may claim this; you are asked now.",
};

function drawDecision(v) {
  const box = $("decision");
  box.replaceChildren();
  const d = v.decision;
  box.dataset.mode = d ? d.mode : "";
  if (!d) {
    box.append(el("p", "note", v.terminal ? "" : "Waiting for the other players."));
    return;
  }
  box.append(el("h2", null, "Your decision: " + d.labels.join(" or ")));
  if (MODE_NOTE[d.mode]) box.append(el("p", "note", MODE_NOTE[d.mode]));
  const list = el("div", "choices");
  for (const c of d.choices) {
    const b = el("button", "choice", c.text);
    b.type = "button";
    b.dataset.i = c.i;
    b.dataset.kind = c.kind;
    b.addEventListener("click", () => act(c.i));
    list.append(b);
  }
  box.append(list);
  if (d.choices.length === 1) box.append(el("p", "note", "Your only choice."));
}

// A replay of a game log: the moves stepped through, seen as the public or as one seat.
function drawReplay(frame) {
  const box = $("replay");
  if (!frame.replay) { box.hidden = true; return; }
  const r = frame.replay;
  box.hidden = false;
  $("who").textContent = "replay";
  $("status").textContent = `After move ${r.at} of ${r.of}`;
  const step = (to, seat) => state.ws.send(JSON.stringify({ type: "step", to: Math.max(0, Math.min(to, r.of)), seat }));
  const controls = el("div", "controls");
  const buttons = [["⏮ start", 0], ["◀ back", r.at - 1], ["next ▶", r.at + 1], ["end ⏭", r.of]];
  for (const [label, to] of buttons) {
    const b = el("button", "step", label);
    b.type = "button";
    b.dataset.to = to;
    b.disabled = to < 0 || to > r.of || to === r.at;
    b.addEventListener("click", () => step(to, r.seat));
    controls.append(b);
  }
  const as = el("select");
  as.id = "viewpoint";
  const pub = el("option", null, "seen by the public"); pub.value = 0; as.append(pub);
  for (let p = 1; p <= frame.view.players; p++) { const o = el("option", null, `seen by Player ${p}`); o.value = p; as.append(o); }
  as.value = r.seat;
  as.addEventListener("change", () => step(r.at, Number(as.value)));
  controls.append(as);
  box.replaceChildren(controls);
}

function act(i) {
  if (state.sent || !state.ws) return;
  state.sent = true;
  document.querySelectorAll("button.choice, .card.playable").forEach((b) => { b.disabled = true; b.classList.remove("playable"); });
  state.ws.send(JSON.stringify({ type: "act", version: state.version, choice: i }));
}

function handover(frame) {
  // Nothing of the last seat stays on the screen: the table is emptied before the cover shows.
  for (const id of ["others", "middle", "mine", "decision", "story"]) $(id).replaceChildren();
  $("result").hidden = true;
  $("who").textContent = "hot-seat";
  $("status").textContent = `Player ${frame.seat}'s turn`;
  $("handover-text").textContent = `Pass the screen to Player ${frame.seat}.`;
  const b = $("handover-button");
  b.textContent = `I am Player ${frame.seat}: show my cards`;
  b.onclick = () => {
    $("handover").hidden = true;
    state.ws.send(JSON.stringify({ type: "ready", seat: frame.seat }));
  };
  $("handover").hidden = false;
  document.body.dataset.phase = "handover";
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  state.ws = ws;
  ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", token: state.link.token })); };
  ws.onmessage = (ev) => {
    const f = JSON.parse(ev.data);
    if (f.type === "view") { $("handover").hidden = true; state.refused = null; state.retry = 500; draw(f); }
    else if (f.type === "handover") { state.retry = 500; handover(f); }
    else if (f.type === "error") { say(f.message); state.refused = f.message; state.sent = false; }
  };
  ws.onclose = (ev) => {
    state.ws = null;
    if (ev.code === 1008) { say(state.refused || "This link opens no seat on this server."); return; }
    // 1013: refused for now (too many connections from this address): said, then tried again later
    $("status").textContent = ev.code === 1013 && ev.reason ? `${ev.reason}; trying again...`
      : "Connection lost; reconnecting...";
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

function rules() {
  $("rules-frame").src = `/rules/${state.table}`;
  $("rules").hidden = false;
}

function start() {
  $("rules-button").addEventListener("click", rules);
  $("rules-close").addEventListener("click", () => { $("rules").hidden = true; });
  const link = linkOf();
  if (!link) {
    $("lobby").hidden = false;
    $("lobby").textContent = "Open the link `rulelang serve` printed (it holds a token after #).";
    return;
  }
  if (link.role === "host") return lobby(link.token);
  state.link = link;
  connect();
}

document.addEventListener("DOMContentLoaded", start);
