// The training replay of learning-relevance: the slider under the figure of milk's query turning
// towards drank's key steps through the training run. At each step it draws milk's query and the
// keys of "drank", "cat" and "black" as arrows, in the figure's plane, and milk's row of attention
// weights as bars, and says the weights in words for screen readers.
// The build puts the controls in the page (sitebuild/after_pages/figure_data.py) and writes the
// run's vectors at every tenth step to <figure id>.json (snippets/fig_query_turns_to_key.py
// attaches them). cell-grids.js loads this script the first time a reader moves the slider; it
// fetches the run at once and computes each weight from it: softmax(q · k / √d_k). Without
// JavaScript the controls are hidden and the static figure tells the story.
(function () {
  "use strict";

  var TEXT = {
    en: {of: "step {s} of {n}", says: "Step {s}: milk's attention weights: {w}.", sep: ", ",
      loading: "Loading the training run…", failed: "The training run could not be loaded."},
    zh: {of: "第 {s} 步，共 {n} 步", says: "第 {s} 步，milk 的注意力权重：{w}。", sep: "，",
      loading: "正在载入这次训练的数据……", failed: "无法载入这次训练的数据。"}
  };
  var SVG = "http://www.w3.org/2000/svg";
  var ARROWS = [["drank", "#f76707", ""], ["cat", "#1c7ed6", "6 4"], ["black", "currentColor", "2 3"]];
  var QUERY = "#be4bdb", R = 95, CX = 100, CY = 105;  // the arrows' square (its axes come with the page): centre, reach

  function el(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function dot(a, b) { return a.reduce(function (s, x, m) { return s + x * b[m]; }, 0); }

  function softmax(scores) {
    var top = Math.max.apply(null, scores), e = scores.map(function (s) { return Math.exp(s - top); });
    var sum = e.reduce(function (a, b) { return a + b; }, 0);
    return e.map(function (x) { return x / sum; });
  }

  // milk's row of weights at one frame of the run: softmax(k_j · q / √d_k) over the sentence's keys.
  function weights(run, frame) {
    var q = run.queries[frame];
    return softmax(run.keys[frame].map(function (k) { return dot(k, q) / Math.sqrt(run.d_k); }));
  }

  function fill(template, values) { return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; }); }

  function replay(root) {
    var svg = document.getElementById(root.getAttribute("data-for")).querySelector("svg[data-figure]");
    var meta = JSON.parse(svg.getAttribute("data-figure")).explorable;
    var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
    var slider = root.querySelector("input[type=range]"), shown = root.querySelector("output");
    var says = root.querySelector(".explorable__says"), picture = root.querySelector("svg");
    var along = function (v, axis) { return dot(v, meta.plane.map(function (row) { return row[axis]; })); };
    var run = null;

    var arrows = ARROWS.concat([["q", QUERY, ""]]).map(function (a) {
      var g = picture.appendChild(el("g", {stroke: a[1], fill: a[1], "stroke-width": a[0] === "q" ? 3 : 2}));
      return {line: g.appendChild(el("path", {"stroke-dasharray": a[2], fill: "none"})), head: g.appendChild(el("path", {stroke: "none"})),
        label: picture.appendChild(el("text", {fill: a[1], "font-size": "14", "text-anchor": "middle"}))};
    });
    var bars = meta.words.map(function (word, j) {
      var y = 32 + 28 * j, colour = {drank: "#f76707", cat: "#1c7ed6"}[word] || "currentColor";
      picture.appendChild(el("text", {x: "252", y: y + 5, "text-anchor": "end", "font-size": "15", fill: "currentColor"}, word));
      return {bar: picture.appendChild(el("rect", {x: "258", y: y - 8, height: "16", fill: colour})),
        value: picture.appendChild(el("text", {y: y + 5, "font-size": "15", fill: "currentColor"}))};
    });

    // The vectors drawn at one frame, in the order of `arrows`.
    function drawn(frame) {
      return ARROWS.map(function (a) { return run.keys[frame][meta.words.indexOf(a[0])]; }).concat([run.queries[frame]]);
    }

    function draw() {
      var step = slider.value, frame = run.steps.indexOf(Number(step)), w = weights(run, frame);
      drawn(frame).forEach(function (v, i) {
        var x = along(v, 0) / run.reach * R, y = -along(v, 1) / run.reach * R;
        var n = Math.sqrt(x * x + y * y) || 1, ux = x / n, uy = y / n, h = Math.min(9, n), a = arrows[i];
        a.line.setAttribute("d", "M" + CX + " " + CY + "l" + (x - ux * h) + " " + (y - uy * h));
        a.head.setAttribute("d", "M" + (CX + x) + " " + (CY + y) + "l" + (-ux * h - uy * h / 2) + " " + (-uy * h + ux * h / 2) +
          "l" + (uy * h) + " " + (-ux * h) + "z");
        a.label.setAttribute("x", CX + x + ux * 14);
        a.label.setAttribute("y", CY + y + uy * 14 + 4);
        a.label.textContent = i < ARROWS.length ? ARROWS[i][0] : "q";
      });
      bars.forEach(function (b, j) {
        b.bar.setAttribute("width", Math.max(0.5, 100 * w[j]));
        b.value.setAttribute("x", 262 + 100 * w[j]);
        b.value.textContent = w[j].toFixed(2);
      });
      says.textContent = fill(t.says, {s: step, w: meta.words.map(function (word, j) { return word + " " + w[j].toFixed(2); }).join(t.sep)});
    }

    function follow() {  // what the slider shows at once, with or without the run
      shown.textContent = slider.value;
      slider.setAttribute("aria-valuetext", fill(t.of, {s: slider.value, n: meta.last}));
      if (run) draw();
    }
    slider.addEventListener("input", follow);
    follow();
    says.textContent = t.loading;
    fetch(svg.getAttribute("data-figure-src")).then(function (response) { return response.json(); }).then(function (data) {
      run = data.explorable;
      run.reach = 1.1 * Math.max.apply(null, run.steps.map(function (_, frame) {
        return Math.max.apply(null, drawn(frame).map(function (v) { return Math.max(Math.abs(along(v, 0)), Math.abs(along(v, 1))); }));
      }));
      draw();
    }).catch(function () { says.textContent = t.failed; });
  }

  document.querySelectorAll(".explorable[data-script='training-replay.js']").forEach(replay);
  window.trainingReplay = {weights: weights};
})();
