// The live socket: hears "table N changed at seq S" and asks the page to re-read its fragments.
// Pages opt in with <body data-live-socket="/ws/tables/7/">; fragments listen with
// hx-trigger="live-changed from:body". On every (re)connect the page re-reads too, so a
// notice lost while the socket was down loses nothing.
(function () {
  "use strict";
  var status, socket, retryDelay = 500, lastSeq = null, askedSeq = null;
  var holding = 0, heldSeq = null;
  var MAX_DELAY = 10000;

  function setStatus(state) {
    if (!status) return;
    status.dataset.state = state;
    var label = status.querySelector(".live-label");
    if (label) label.textContent = label.dataset["label" + state.charAt(0).toUpperCase() + state.slice(1)];
    document.body.dispatchEvent(new CustomEvent("live-status", { detail: { state: state } }));
  }

  // A fragment that says which seq it shows (data-seq) is not re-read for a notice it
  // already reflects, nor for one a re-read under way was asked for (a tap's answer asks
  // first, then its own push arrives): one change, one redraw.
  function shownSeq() {
    var shown = null;
    document.querySelectorAll("[data-seq]").forEach(function (node) {
      var value = Number(node.dataset.seq);
      shown = shown === null ? value : Math.min(shown, value);
    });
    return shown;
  }
  function refresh(seq, table) {
    var shown = shownSeq();
    var known = seq !== null && seq !== undefined;
    if (known && shown !== null && seq <= Math.max(shown, askedSeq === null ? shown : askedSeq)) return;
    // A read asked after the commit of `seq` shows it; a forced read (seq unknown) promises nothing.
    if (known) askedSeq = seq;
    document.body.dispatchEvent(new CustomEvent("live-changed", { detail: { seq: seq, table: table } }));
  }

  function connect(path) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.onopen = function () {
      retryDelay = 500;
      setStatus("online");
      refresh(null); // a forced re-read: notices may have been missed while down
    };
    socket.onmessage = function (message) {
      var notice = JSON.parse(message.data);
      // A drawing the server pushed (the floor's tiles): the page that asked for it places it.
      if (notice.type === "tile.drawn") {
        document.body.dispatchEvent(new CustomEvent("live-drawn", { detail: notice }));
        return;
      }
      if (notice.type !== "table.changed") return;
      lastSeq = notice.seq;
      if (holding) { heldSeq = Math.max(heldSeq || 0, notice.seq || 0); return; }
      refresh(notice.seq, notice.table);
    };
    socket.onclose = function (event) {
      setStatus("offline");
      if (event.code >= 4000 && event.code < 5000) return; // refused: signed out or no table
      // Exponential backoff with jitter, so a floor of tablets does not reconnect in step.
      var wait = retryDelay * (0.75 + Math.random() / 2);
      retryDelay = Math.min(retryDelay * 2, MAX_DELAY);
      setTimeout(function () { connect(path); }, wait);
    };
  }

  // While a tap is on its way its answer will draw the screen: notices heard meanwhile wait,
  // and on release are read only if they are newer than what the answer drew.
  function hold() { holding += 1; }
  function release(drawnSeq) {
    holding = Math.max(0, holding - 1);
    if (holding) return;
    var wanted = heldSeq;
    heldSeq = null;
    if (drawnSeq !== null) {
      // The answer's screen replaced the fragment: a read under way was for the old one and
      // is lost, so the seq it was asked for is asked again if the answer did not cover it.
      if (askedSeq !== null && (wanted === null || askedSeq > wanted)) wanted = askedSeq;
      askedSeq = null;
    }
    if (wanted !== null && (drawnSeq === null || wanted > drawnSeq)) refresh(wanted);
  }

  window.casinoLive = {
    setStatus: setStatus,
    refresh: refresh,
    hold: hold,
    release: release,
    isOpen: function () { return socket && socket.readyState === WebSocket.OPEN; },
  };

  // The language picker sends itself on a change (a listener here, as the pages allow no
  // inline script).
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "language-select") event.target.form.submit();
  });

  document.addEventListener("DOMContentLoaded", function () {
    status = document.getElementById("live-status");
    // A re-read that failed showed nothing: the next notice of that seq must read again.
    document.body.addEventListener("htmx:afterRequest", function (event) {
      if (!event.detail.successful) askedSeq = null;
    });
    var path = document.body.dataset.liveSocket;
    if (!path) { setStatus(navigator.onLine ? "online" : "offline"); return; }
    connect(path);
    window.addEventListener("offline", function () { setStatus("offline"); });
    window.addEventListener("online", function () {
      if (socket && socket.readyState === WebSocket.OPEN) { setStatus("online"); refresh(null); }
      else if (socket) { socket.close(); }
    });
  });
})();
