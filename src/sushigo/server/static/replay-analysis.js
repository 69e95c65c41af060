// The analysis board of the replay page: for a chosen seat, each of its decisions with every choice's
// value (mean final margin and win chance, played out from what the seat knew then), the preferred
// choice, the played one and what it cost, and the seat's win chance over the game as a small plot.
// The server computes it once per seat (GET /api/tables/{id}/analysis?seat=N: 202 while it runs, then
// the document); every word goes through the catalogue, and a language switch draws it again.
const { esc } = window.SushiArt;
const { t } = window.I18N;
const num = (n) => window.I18N.num(n);
const pct = (x) => num(Math.round(100 * x));
const signed = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + num(Math.abs(Math.round(10 * x) / 10));

let tableId = "", names = [], docs = {}, seat = 0, running = null, problem = null, poll = null;
let jump = () => {};

/** An action's words: card ids become the catalogue's card names; die positions are counted from 1. */
export function actionWords(text) {
  if (text === null || text === undefined) return t("(not recorded)");
  const s = String(text);
  let m = /^take (\d+)$/.exec(s);
  if (m) return t("take die {n}", { n: num(+m[1] + 1) });
  m = /^reroll ([\d,]+)$/.exec(s);
  if (m) return t("re-roll dice {dice}", { dice: m[1].split(",").map((d) => num(+d + 1)).join(", ") });
  m = /^swap (\d+) with (\d+):(\d+)$/.exec(s);
  if (m) return t("swap die {n} with die {m} of seat {seat}", { n: num(+m[1] + 1), m: num(+m[3] + 1), seat: num(+m[2] + 1) });
  return s.split(" ").map((part) => {
    const [key, value] = part.includes("=") ? part.split("=") : [null, part];
    const cards = value.split(/[+,]/).map((id) => window.SushiArt.cardLabel(id)).join(" + ");
    if (key === "dummy") return t("dummy: {card}", { card: cards });
    if (key === "bonus") return t("bonus: {cards}", { cards });
    if (key === "copies") return t("copies {card}", { card: cards });
    if (part === "nowasabi") return t("not on wasabi");
    return cards;
  }).join(", ");
}

function where(d) {
  if (d.round !== null && d.turn !== null) return t("Round {r}, turn {n}", { r: num(d.round + 1), n: num(d.turn + 1) });
  if (d.round !== null) return t("Round {r}, decision {n}", { r: num(d.round + 1), n: num(d.index + 1) });
  return t("Decision {n}", { n: num(d.index + 1) });
}

/** The win-chance plot: the played choice's win chance after each decision, round boundaries marked. */
function plot(doc) {
  const ds = doc.decisions.filter((d) => d.win !== null);
  if (ds.length < 2) return "";
  const W = 320, H = 90, pad = 4, x = (i) => pad + (i * (W - 2 * pad)) / (ds.length - 1), y = (w) => H - pad - w * (H - 2 * pad);
  const points = ds.map((d, i) => `${x(i).toFixed(1)},${y(d.win).toFixed(1)}`).join(" ");
  const marks = ds.map((d, i) => (i > 0 && d.round !== ds[i - 1].round ? `<line class="an-round" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="0" y2="${H}"/>` : "")).join("");
  const label = t("Win chance over the game");
  return `<figure class="an-plot"><figcaption class="muted">${esc(label)}</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}" preserveAspectRatio="none">
<line class="an-half" x1="0" x2="${W}" y1="${y(0.5)}" y2="${y(0.5)}"/>${marks}
<polyline class="an-line" points="${points}"/></svg>
<div class="an-axis muted"><span>${esc(t("start"))}</span><span>${esc(t("50%"))}</span><span>${esc(t("end"))}</span></div></figure>`;
}

function choiceRow(c, d, lo, hi) {
  const span = Math.max(1e-9, hi - lo), width = Math.max(2, Math.round((100 * (c.margin - lo)) / span));
  const played = c.action === d.played, best = c.action === d.preferred;
  const tags = [best ? t("preferred") : "", played ? t("played") : ""].filter(Boolean).join(", ");
  return `<li class="an-choice${played ? " played" : ""}${best ? " best" : ""}">
<span class="an-name">${esc(actionWords(c.action))}${tags ? ` <em>${esc(tags)}</em>` : ""}</span>
<span class="an-bar" aria-hidden="true"><span style="width:${width}%"></span></span>
<span class="an-nums">${esc(t("margin {m}", { m: signed(c.margin) }))} · ${esc(t("win {p}%", { p: pct(c.win) }))}</span></li>`;
}

function decision(d) {
  const margins = d.choices.map((c) => c.margin), lo = Math.min(...margins), hi = Math.max(...margins);
  const agree = d.played === d.preferred;
  const head = agree
    ? t("{where}: {played}, as preferred", { where: where(d), played: actionWords(d.played) })
    : t("{where}: played {played}; preferred {best} (cost {cost})", { where: where(d), played: actionWords(d.played), best: actionWords(d.preferred), cost: d.cost === null ? "?" : num(Math.round(10 * d.cost) / 10) });
  const more = d.legal > d.choices.length ? `<p class="muted">${esc(t("{shown} of {all} choices valued.", { shown: num(d.choices.length), all: num(d.legal) }))}</p>` : "";
  const bot = d.bot && d.bot_choice ? `<p class="muted">${esc(t("The {bot} bot would play {choice} here.", { bot: d.bot, choice: actionWords(d.bot_choice) }))}</p>` : "";
  return `<details class="an-decision${agree ? "" : " miss"}" data-index="${d.index}"><summary>${esc(head)}</summary>
<ol class="an-choices">${d.choices.map((c) => choiceRow(c, d, lo, hi)).join("")}</ol>${more}${bot}</details>`;
}

function body(doc) {
  const s = doc.summary;
  const line = t("{agreed} of {n} decisions as preferred; margin lost in all: {cost}.", { agreed: num(s.agreed), n: num(s.decisions), cost: num(Math.round(10 * s.total_cost) / 10) });
  const how = t("Each choice is played out {budget} times from what the seat knew at that moment, with the {bot} bot at every seat.", { budget: num(doc.budget), bot: doc.rollout });
  return `<p>${esc(line)}</p>${plot(doc)}<p class="muted">${esc(how)}</p><div class="an-list">${doc.decisions.map(decision).join("")}</div>`;
}

function failure(r, data) {
  const code = (/^([a-z_]+\/[a-z_]+): /.exec(String((data && data.detail) || "")) || [])[1];
  const words = {
    "analysis/busy": () => t("One analysis at a time: wait for the one you started."),
    "analysis/limit": () => t("The server is analysing other games; try again in a minute."),
    "analysis/not_finished": () => t("Only finished games are analysed."),
    "rate/limited": () => t("Too many requests; wait a minute and try again."),
  };
  return code && words[code] ? words[code]() : t("The analysis failed; please try again.");
}

export function draw() {
  const box = document.getElementById("analysis");
  if (!box) return;
  const options = names.map((n, i) => `<option value="${i}"${i === seat ? " selected" : ""}>${esc(n)}</option>`).join("");
  let content = "";
  if (docs[seat]) content = body(docs[seat]);
  else if (running !== null) content = `<p aria-live="polite">${esc(t("Analysing… {p}%", { p: pct(running) }))}</p><progress max="1" value="${running}"></progress>`;
  else if (problem) content = `<p class="error">${esc(problem)}</p>`;
  else content = `<p class="muted">${esc(t("Choose a seat: each of its decisions is valued from what it knew then."))}</p>`;
  box.innerHTML = `<h2>${esc(t("Analysis"))}</h2>
<div class="row an-controls"><label>${esc(t("Seat"))} <select id="anSeat">${options}</select></label>
<button class="btn" id="anRun"${running !== null ? " disabled" : ""}>${esc(t("Analyse"))}</button></div>
<div id="anBody">${content}</div>`;
  document.getElementById("anSeat").onchange = (e) => { seat = +e.target.value; problem = null; draw(); };
  document.getElementById("anRun").onclick = () => request();
  box.querySelectorAll(".an-decision").forEach((el) => el.addEventListener("toggle", () => { if (el.open) jump(docs[seat], +el.dataset.index); }));
}

async function request() {
  clearTimeout(poll);
  const asked = seat;
  let r, data;
  try {
    r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/analysis?seat=${asked}`);
    data = await r.json();
  } catch (e) { r = { status: 0 }; data = null; }
  if (r.status === 200) { docs[asked] = data; running = null; problem = null; }
  else if (r.status === 202) { running = data.progress || 0; problem = null; poll = setTimeout(request, 1500); }
  else { running = null; problem = failure(r, data); }
  if (asked === seat) draw();
}

/** Mounts the panel: ``seatNames`` label the seat choice; ``onPick(doc, index)`` is told which decision
 *  was opened (the replay steps to it). */
export function mount(id, seatNames, onPick) {
  tableId = id; names = seatNames; jump = onPick || jump;
  draw();
}
