// The account page (/account): password change, the data export, API tokens (created with the token
// shown once, listed by label and prefix, revoked) and deleting the account. Every request goes through
// SushiAccount.api, which adds the CSRF header (account.js).
"use strict";
(function () {
const $ = (id) => document.getElementById(id);
const { t } = window.I18N;
const A = window.SushiAccount;
const esc = A.esc;
const when = (ts) => (ts ? window.I18N.date(ts * 1000, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "");
let me = null, tokens = [];
/** Whether a refusal says the password given was wrong (`password/wrong`, or `auth/failed`). */
const wrongPassword = (r) => ["password/wrong", "auth/failed"].includes(A.codeOf(r.body));

function drawMe() {
  $("guest").classList.toggle("hidden", !!me);
  $("mine").classList.toggle("hidden", !me);
  if (!me) return;
  $("meName").textContent = me.name;
  $("meSince").textContent = t("Account since {date}", { date: when(me.created_at) });
  $("meProfile").href = A.profileHref(me.name);
}

function drawTokens() {
  const head = `<tr class="head"><th>${esc(t("Label"))}</th><th>${esc(t("Token"))}</th><th>${esc(t("Created"))}</th><th>${esc(t("Last used"))}</th><th></th></tr>`;
  const rows = tokens.map((k) => `<tr data-token="${esc(k.id)}"><td>${esc(k.label || t("(no label)"))}</td><td><code>${esc(k.prefix)}…</code></td><td>${esc(when(k.created_at))}</td>` +
    `<td>${esc(k.last_used ? when(k.last_used) : t("never"))}</td><td class="actions"><button class="btn secondary" type="button" data-revoke="${esc(k.id)}">${esc(t("Revoke"))}</button></td></tr>`);
  $("tokens").innerHTML = tokens.length ? head + rows.join("") : `<tr><td class="muted">${esc(t("No tokens yet."))}</td></tr>`;
  $("tokCreate").disabled = tokens.length >= 5;
  $("tokMsg").textContent = tokens.length >= 5 ? t("An account has at most 5 API tokens; revoke one first.") : "";
}

async function loadTokens() {
  const r = await A.api("GET", "/api/me/tokens");
  if (r.ok && Array.isArray(r.body)) { tokens = r.body; drawTokens(); }
}

$("tokens").addEventListener("click", async (e) => {
  const b = e.target.closest("button[data-revoke]");
  if (!b) return;
  b.disabled = true;
  const r = await A.api("DELETE", "/api/me/tokens/" + encodeURIComponent(b.dataset.revoke));
  if (!r.ok) { $("tokMsg").textContent = A.errorText(r.body, t("The token could not be revoked.")); b.disabled = false; return; }
  await loadTokens();
});

$("tokForm").addEventListener("submit", async (e) => {
  e.preventDefault();
  const label = $("tokLabel").value.trim();
  $("tokCreate").disabled = true;
  const r = await A.api("POST", "/api/me/tokens", { label });
  $("tokCreate").disabled = false;
  if (!r.ok || !r.body || !r.body.token) { $("tokMsg").textContent = A.errorText(r.body, t("The token could not be created.")); return; }
  $("tokLabel").value = "";
  $("tokValue").value = r.body.token;  // shown this once; never stored by the page
  $("tokNew").classList.remove("hidden");
  $("tokValue").select();
  await loadTokens();
});
$("tokCopy").onclick = async () => {
  try { await navigator.clipboard.writeText($("tokValue").value); $("tokCopy").textContent = t("Copied!"); }
  catch (e) { $("tokValue").select(); }
};
$("tokDone").onclick = () => { $("tokValue").value = ""; $("tokNew").classList.add("hidden"); $("tokCopy").textContent = t("Copy"); };

$("pwForm").addEventListener("submit", async (e) => {
  e.preventDefault();
  const old = $("pwOld").value, neu = $("pwNew").value;
  if (!old || !neu) { $("pwMsg").textContent = t("Enter your current and your new password."); return; }
  $("pwSubmit").disabled = true;
  const r = await A.api("POST", "/api/me/password", { old, new: neu });
  $("pwSubmit").disabled = false;
  if (!r.ok) { $("pwMsg").textContent = wrongPassword(r) ? t("The password is not right.") : A.errorText(r.body, t("The password could not be changed.")); return; }
  $("pwOld").value = ""; $("pwNew").value = "";
  $("pwMsg").textContent = t("Password changed. Your other devices are signed out.");
});

$("delSure").addEventListener("change", () => { $("delSubmit").disabled = !$("delSure").checked; });
$("delForm").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!$("delSure").checked) return;
  const password = $("delPassword").value;
  if (!password) { $("delMsg").textContent = t("Enter your password to delete the account."); return; }
  $("delSubmit").disabled = true;
  const r = await A.api("DELETE", "/api/me", { password });
  if (!r.ok) {
    $("delSubmit").disabled = false;
    $("delMsg").textContent = wrongPassword(r) ? t("The password is not right.") : A.errorText(r.body, t("The account could not be deleted."));
    return;
  }
  $("delPassword").value = "";
  location.href = "/";
});

$("guestSignIn").onclick = () => A.openDialog("in");
$("guestCreate").onclick = () => A.openDialog("create");
window.I18N.mountSwitch($("nav"));
window.addEventListener("sushigo:lang", () => { drawMe(); drawTokens(); });
Promise.all([A.me(), window.I18N.ready]).then(([doc]) => {
  me = doc;
  drawMe();
  drawTokens();
  if (me) loadTokens();
});
})();
