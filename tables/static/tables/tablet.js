// The tablet's taps: every tap is queued here (in localStorage, with its idempotency key and
// the tablet's clock) and sent in order through the API. Through a Wi-Fi drop the queue
// waits; when the connection is back it is sent in order, each answer shown, and a refusal
// stops it. A retry carries the same key, so nothing is applied twice.
(function () {
  "use strict";
  var body, api, tapUrl, storageKey, queue = [], halted = false, sending = false, pending = null;
  var answers = [];
  var RETRY_MS = 3000;

  function csrfToken() {
    try { return JSON.parse(body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return "tap-" + crypto.randomUUID();
    return "tap-" + Date.now() + "-" + Math.random().toString(36).slice(2);
  }
  function load() {
    try { queue = JSON.parse(localStorage.getItem(storageKey) || "[]"); } catch (e) { queue = []; }
  }
  function save() { localStorage.setItem(storageKey, JSON.stringify(queue)); }
  function el(id) { return document.getElementById(id); }
  function text(name) { return el("tap-queue").dataset[name] || ""; }

  function render() {
    var panel = el("tap-queue"), list = el("queue-items");
    list.textContent = "";
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label + " — " + (item.state === "sending" ? text("textSending") : text("textWaiting"));
      list.appendChild(li);
    });
    panel.hidden = queue.length === 0;
    el("queue-note").textContent = halted ? text("textHalted") : (queue.length ? text("textOffline") : "");
  }
  function showRefusal(detail) {
    var box = el("refusal");
    box.textContent = "⚠ " + detail;
    box.hidden = false;
  }
  function showAnswer(line) {
    answers.push(line);
    answers = answers.slice(-6);
    var box = el("answer");
    box.textContent = "";
    answers.forEach(function (a) { var div = document.createElement("div"); div.textContent = "✔ " + a; box.appendChild(div); });
    box.hidden = false;
  }

  function enqueue(endpoint, payload, label) {
    el("refusal").hidden = true;
    queue.push({ key: newKey(), endpoint: endpoint, body: payload, label: label,
                 tablet_time: new Date().toISOString(), state: "waiting" });
    save();
    render();
    flush();
  }

  async function send(item) {
    // An endpoint of another part of the API (the custody books) comes whole.
    // A game command goes to the tablet's own door, which answers with the screen after it too.
    var url = item.endpoint.charAt(0) === "/" ? item.endpoint : api + item.endpoint;
    if (item.endpoint === "commands" && tapUrl) url = tapUrl;
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "X-CSRFToken": csrfToken(),
        "Idempotency-Key": item.key,
        "X-Tablet-Time": item.tablet_time,
        "X-Tablet-Clock": new Date().toISOString(),
      },
      body: JSON.stringify(item.body),
    });
  }

  async function flush() {
    if (sending || halted || !queue.length) { render(); return; }
    sending = true;
    try {
      while (queue.length && !halted) {
        var item = queue[0];
        item.state = "sending";
        render();
        var response, live = window.casinoLive;
        // This tap's own push must not re-read what its answer will draw: hold the notices.
        if (live) live.hold();
        try { response = await send(item); } catch (e) { response = null; }
        if (response === null || response.status >= 500) {
          item.state = "waiting";  // no answer: the same key goes again later
          save();
          if (live) { live.release(null); live.setStatus("offline"); }
          setTimeout(flush, RETRY_MS);
          break;
        }
        var answer = {};
        try { answer = await response.json(); } catch (e) { answer = {}; }
        queue.shift();
        save();
        if (response.ok) {
          showAnswer(item.label);
          var drawn = answer.fragment ? showFragment(answer.fragment) : 0;
          if (live) live.release(drawn || null);
          if (!drawn) refreshAfter(answer);
        } else {
          if (live) live.release(null);
          // The screen stays as it was; the service's sentence says why.
          showRefusal(answer.detail || answer.code || String(response.status));
          halted = queue.length > 0;
        }
      }
    } finally {
      sending = false;
      render();
    }
  }

  // Without a fragment in the answer (another endpoint), re-read straight away with the
  // answer's seq: its own push then finds that seq asked for (live.js) and reads nothing.
  function refreshAfter(answer) {
    var live = window.casinoLive;
    if (!live) return;
    live.setStatus("online");
    var events = (answer && answer.events) || [];
    var seq = events.length ? Math.max.apply(null, events.map(function (e) { return e.seq || 0; })) : 0;
    live.refresh(seq || null);
  }

  // Draws the fragment a tap's answer carries; returns the seq now shown (0: not drawn).
  function showFragment(html) {
    var node = el("table-state"), holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!node || !fresh || fresh.id !== "table-state") return 0;
    var seq = Number(fresh.dataset.seq);
    if (seq <= Number(node.dataset.seq)) return Number(node.dataset.seq); // a newer read won
    keepTyped();
    node.replaceWith(fresh);
    if (window.htmx) htmx.process(fresh);
    restoreTyped();
    if (window.casinoLive) window.casinoLive.setStatus("online");
    return seq;
  }

  // A redraw must not lose what the dealer is typing or picking.
  var typed = {};
  function keepTyped() {
    typed = {};
    document.querySelectorAll("#table-state input[id]").forEach(function (input) {
      if (input.dataset.touched) typed[input.id] = input.value;
    });
  }
  function restoreTyped() {
    Object.keys(typed).forEach(function (id) {
      var input = el(id);
      if (input) { input.value = typed[id]; input.dataset.touched = "1"; }
    });
    if (pending) openPicker(pending);
  }

  function openPicker(action) {
    pending = action;
    var picker = el("card-picker");
    if (!picker) return;
    el("picker-for").textContent = action.label;
    el("pick-unseen").hidden = !action.optional;
    if (action.optionalLabel) el("pick-unseen").textContent = action.optionalLabel;
    picker.hidden = false;
    picker.scrollIntoView({ block: "nearest" });
  }
  function closePicker() {
    pending = null;
    var picker = el("card-picker");
    if (picker) picker.hidden = true;
  }

  function onCommand(button) {
    var payload = JSON.parse(button.dataset.body || "{}");
    var action = { endpoint: button.dataset.endpoint, body: payload, label: button.dataset.label,
                   optional: button.dataset.cardOptional === "1",
                   optionalLabel: button.dataset.optionalLabel || "" };
    if (button.dataset.asks === "amount") {
      var input = el(button.dataset.amountFrom);
      var amount = input ? parseInt(input.value, 10) : NaN;
      payload.data.amount = isNaN(amount) ? null : amount;
      action.label += " " + (isNaN(amount) ? "" : amount);
    }
    if (button.dataset.asks === "card") { openPicker(action); return; }
    if (button.dataset.amountFrom && el(button.dataset.amountFrom)) delete el(button.dataset.amountFrom).dataset.touched;
    enqueue(action.endpoint, action.body, action.label);
  }
  function onPick(button) {
    if (!pending) return;
    var card = button.dataset.pick || null;
    pending.body.data.card = card;
    enqueue(pending.endpoint, pending.body, pending.label + (card ? " " + card : ""));
    closePicker();
  }

  // A correction request: the chosen correction's command, its fields and the reason.
  var WHOLE_NUMBERS = ["box", "seat", "from_box", "to_box", "amount"];
  function onCorrection(form) {
    var data = {}, fields = new FormData(form), reason = String(fields.get("reason") || "").trim();
    fields.forEach(function (value, name) {
      if (name === "reason") return;
      data[name] = WHOLE_NUMBERS.indexOf(name) >= 0 ? parseInt(value, 10) : String(value);
    });
    if (form.dataset.carriesReason === "1") data.reason = reason;
    enqueue("corrections", { command: { type: form.dataset.correction, data: data }, reason: reason },
            form.dataset.label);
    form.reset();
    var details = form.closest("details");
    if (details) details.open = false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    body = document.body;
    api = body.dataset.api;
    tapUrl = body.dataset.tapUrl || "";
    if (!api) return;
    storageKey = "casino.tablet.queue." + body.dataset.table;
    load();
    queue.forEach(function (item) { item.state = "waiting"; });
    render();
    document.addEventListener("click", function (event) {
      var target = event.target.closest("button");
      if (!target) return;
      if (target.dataset.command) onCommand(target);
      else if (target.hasAttribute("data-pick")) onPick(target);
      else if (target.id === "pick-cancel") closePicker();
      else if (target.id === "queue-retry") { halted = false; flush(); }
      else if (target.id === "queue-discard") { queue = []; halted = false; save(); render(); }
    });
    document.addEventListener("submit", function (event) {
      if (!event.target.matches("form.correction-form")) return;
      event.preventDefault();
      onCorrection(event.target);
    });
    body.addEventListener("live-status", function (event) { if (event.detail.state === "online") flush(); });
    window.addEventListener("online", flush);
    body.addEventListener("htmx:beforeSwap", keepTyped);
    body.addEventListener("htmx:afterSwap", restoreTyped);
    document.addEventListener("input", function (event) {
      if (event.target.matches && event.target.matches("#table-state input")) event.target.dataset.touched = "1";
    });
    flush();
  });
})();
