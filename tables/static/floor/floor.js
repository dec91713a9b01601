// The floor's live tiles: a notice for table N re-reads only that table's tile; a notice
// without a table (the socket came back) re-reads every tile. The lists re-read themselves.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("live-changed", function (event) {
      var table = event.detail && event.detail.table;
      var tile = table ? document.getElementById("tile-" + table) : null;
      if (tile) { htmx.trigger(tile, "tile-changed"); return; }
      var tiles = document.getElementById("floor-tiles");
      if (tiles) htmx.trigger(tiles, "floor-reread");
    });
  });
})();
