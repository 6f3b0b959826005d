// Every heatmap of a figure gets a transparent grid over it that the keyboard reaches (Tab)
// and a screen reader names ("Matrix 1, 4 rows × 4 columns"). That is all this file does at
// load. The first time a reader points at, taps or tabs to a grid, it loads
// cell-explanations.js, which outlines the cell and shows how its number was computed, and
// hands it the event, so that first point, tap or focus is answered too. A reader who never
// does pays for none of it (about 4 KiB gzipped on every page with a heatmap). It also loads
// the script of an explorable whose controls are in the page on their first use (at the end).
// Each grid's place comes from the SVG's data-figure attribute (written by the build:
// snippets/plotting.py's heatmap() records it, sitebuild/after_pages/figure_data.py keeps
// it in the page). Without JavaScript the figure reads as drawn, and the tables under it
// hold its numbers.
(function () {
  "use strict";

  var TEXT = {
    en: {matrix: "Matrix", cells: "{r} rows × {c} columns", end: ". ", keys: "Arrow keys move between cells, Escape closes.",
      sep: ", "},
    zh: {matrix: "矩阵", cells: "{r} 行 × {c} 列", end: "。", keys: "方向键在格子之间移动，Esc 关闭。", sep: "，"}
  };
  var SVG = "http://www.w3.org/2000/svg";
  var FIRST_USE = ["focus", "pointermove", "click"];
  var here = document.currentScript.src, loading = null, latest = null, laid = [];

  // cell-explanations.js, loaded once (at once on a page whose explorable needs its maths).
  function explanations() {
    if (!loading) {
      loading = window.cellExplanations ? Promise.resolve() : new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = here.replace(/cell-grids\.js/, "cell-explanations.js");
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  // Until the explanations have arrived: remember the reader's latest event, then replay it.
  function firstUse(event) {
    if (window.cellExplanations) return;
    var hit = event.currentTarget;
    latest = {hit: hit, event: event.type === "focus" ? null : new event.constructor(event.type, event)};
    explanations().then(function () {
      if (!latest || latest.hit !== hit) return;
      var replay = latest.event;
      latest = null;
      if (replay) hit.dispatchEvent(replay);
      else if (document.activeElement === hit) hit.dispatchEvent(new FocusEvent("focus"));
    });
  }

  function layGrids(svg, t) {
    var data;
    try { data = JSON.parse(svg.getAttribute("data-figure")); } catch (e) { return; }
    if (!data || !data.heatmaps.length) return;
    var view = svg.viewBox.baseVal, figure = svg.closest("figure") || svg.parentNode;
    figure.classList.add("has-cell-explanations");
    svg.setAttribute("role", "group");  // its grids are focusable now; it keeps its name
    var live = document.createElement("div");  // in the page before anything is said in it
    live.className = "cell-explanation-live";
    live.setAttribute("aria-live", "polite");
    figure.appendChild(live);
    var grids = data.heatmaps.map(function (grid, n) {
      var rows = grid.shape ? grid.shape[0] : grid.values.length;  // the full data when the page keeps it
      var cols = grid.shape ? grid.shape[1] : grid.values[0].length;
      var place = {grid: grid, n: n, rows: rows, cols: cols, x0: grid.box[0] * view.width, y0: grid.box[1] * view.height,
        cw: (grid.box[2] - grid.box[0]) * view.width / cols, ch: (grid.box[3] - grid.box[1]) * view.height / rows};
      var hit = place.hit = document.createElementNS(SVG, "rect");
      [["x", place.x0], ["y", place.y0], ["width", cols * place.cw], ["height", rows * place.ch], ["class", "cell-hit"],
        ["tabindex", "0"], ["role", "img"], ["aria-label", (grid.title || t.matrix + " " + (n + 1)) + t.sep +
          t.cells.replace("{r}", rows).replace("{c}", cols) + t.end + t.keys]].forEach(function (a) {
        hit.setAttribute(a[0], a[1]);
      });
      svg.appendChild(hit);
      FIRST_USE.forEach(function (type) { hit.addEventListener(type, firstUse); });
      return place;
    });
    laid.push({svg: svg, figure: figure, live: live, grids: grids});
  }

  var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
  document.querySelectorAll("svg[data-figure]").forEach(function (svg) { layGrids(svg, t); });
  // An explorable whose controls the build put in the page with the name of its script (data-script,
  // sitebuild/after_pages/figure_data.py): the first press, tap or change of them loads that script,
  // which picks up from the controls as they are then.
  document.querySelectorAll("[data-script]").forEach(function (box) {
    function load() {
      ["pointerdown", "input"].forEach(function (type) { box.removeEventListener(type, load); });
      var script = document.createElement("script");
      script.src = here.replace(/cell-grids\.js/, box.getAttribute("data-script"));
      document.head.appendChild(script);
    }
    ["pointerdown", "input"].forEach(function (type) { box.addEventListener(type, load); });
  });
  // lay(svg): the grids of a heatmap drawn after the page loaded (minilm-in-page.js), its data
  // in full in its data-figure attribute; explained at once if the explanations are in.
  window.cellGrids = {laid: laid, explanations: explanations, lay: function (svg) {
    layGrids(svg, t);
    if (window.cellExplanations) window.cellExplanations.enhanceAll();
  }};
})();
