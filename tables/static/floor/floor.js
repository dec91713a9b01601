// The floor's live tiles. The server pushes each changed tile already drawn ("live-drawn");
// a notice for table N is answered by that push, and only when none came within a moment
// is the tile fetched, together with every other tile still behind, in one request. A notice
// without a table (the socket came back) re-reads the whole grid. The lists re-read themselves.
(function () {
  "use strict";
  var WAIT_FOR_PUSH_MS = 150;
  var behind = {}; // table -> the newest seq a notice announced for it
  var timer = null;

  function shownSeq(tile) {
    return tile ? Number(tile.dataset.tileSeq || -1) : -1;
  }

  // Place a drawn tile unless the page already shows the same or a newer one.
  function place(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    holder.content.querySelectorAll("article[id^='tile-']").forEach(function (fresh) {
      var shown = document.getElementById(fresh.id);
      if (!shown || shownSeq(shown) >= shownSeq(fresh)) return;
      shown.replaceWith(fresh);
      htmx.process(fresh);
    });
  }

  function fetchBehind() {
    timer = null;
    var tables = Object.keys(behind).filter(function (table) {
      return shownSeq(document.getElementById("tile-" + table)) < behind[table];
    });
    behind = {};
    if (!tables.length) return;
    fetch("/floor/tiles/?tables=" + tables.join(","), {
      headers: { "HX-Request": "true" }, credentials: "same-origin",
    }).then(function (answer) {
      return answer.ok ? answer.text() : "";
    }).then(place).catch(function () { /* the next notice or reconnect re-reads */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("live-drawn", function (event) {
      if (event.detail && event.detail.html) place(event.detail.html);
    });
    document.body.addEventListener("live-changed", function (event) {
      var table = event.detail && event.detail.table;
      var seq = event.detail && event.detail.seq;
      if (table && document.getElementById("tile-" + table)) {
        // A notice without a seq is always behind: fetch.
        var wanted = seq === null || seq === undefined ? Infinity : Number(seq);
        behind[table] = Math.max(behind[table] || 0, wanted);
        if (timer === null) timer = setTimeout(fetchBehind, WAIT_FOR_PUSH_MS);
        return;
      }
      var tiles = document.getElementById("floor-tiles");
      if (tiles) htmx.trigger(tiles, "floor-reread");
    });
  });
})();
