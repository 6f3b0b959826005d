// Two explorables, each under the figure whose numbers it starts from (a figure snippet
// attaches them with plotting.explorable(fig, name, ...); the build writes them into the
// SVG's data-figure attribute):
//   "turn-key": turn a key against a query and watch the products, their sum and the angle;
//   "softmax-sharpening": choose d_k, switch ÷√d_k on and off, watch a softmax row.
// Without JavaScript there is nothing to try, and the figure reads as drawn.
(function () {
  "use strict";

  var TEXT = {
    en: {
      turnTry: "Try it: drag the slider to turn the key k around the query q. At 0° they are aligned and q · k is largest, " +
        "at 90° unrelated and it is 0, at 180° opposed and it is most negative; the products change sign with it.",
      angle: "angle between q and k", dim: "component", product: "product", sum: "sum: q · k",
      turnSays: "angle {a}°: q · k = {s} = |q| |k| cos θ = {q} × {k} × {c}",
      softTry: "Try it: switch off “divide the scores by √d_k”, raise d_k and watch the row of weights pile onto one key; " +
        "switch it on and the row keeps its spread at every width.",
      width: "width d_k", scale: "divide the scores by √d_k",
      softSays: "d_k = {d}, {how}: the largest of the {n} weights is {w} (key {j}); softmax's inputs reach ±{r}",
      scaled: "divided by √d_k", unscaled: "not divided by √d_k"
    },
    zh: {
      turnTry: "试一试：拖动滑块，让键 k 绕着查询 q 转动。0° 时两者对齐，q · k 最大；" +
        "90° 时两者无关，q · k 为 0；180° 时方向相反，q · k 最小。各分量的乘积随之变号。",
      angle: "q 与 k 的夹角", dim: "分量", product: "乘积", sum: "和：q · k",
      turnSays: "夹角 {a}°：q · k = {s} = |q| |k| cos θ = {q} × {k} × {c}",
      softTry: "试一试：关掉“分数除以 √d_k”，把 d_k 调大，看这一行的权重怎样堆到一个键上；" +
        "再打开它，无论维度多高，这一行都保持分散。",
      width: "维度 d_k", scale: "分数除以 √d_k",
      softSays: "d_k = {d}，{how}：{n} 个权重中最大的是 {w}（第 {j} 个键）；送入 softmax 的数最大到 ±{r}",
      scaled: "除以 √d_k", unscaled: "不除以 √d_k"
    }
  };
  var SVG = "http://www.w3.org/2000/svg";

  function num(x, places) {
    var p = places === undefined ? 2 : places;
    var r = Math.round(x * Math.pow(10, p)) / Math.pow(10, p);
    return (r === 0 ? "0" : r.toFixed(p)).replace("-", "−");
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }

  function el(tag, attrs, text) {
    var node = /^(svg|line|rect|text|g|path)$/.test(tag) ? document.createElementNS(SVG, tag) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var uid = 0;
  function labelled(input, text) {  // <label for=...> and its input
    var id = "explorable-" + (++uid);
    input.id = id;
    var wrap = el("p", {"class": "explorable__control"});
    wrap.appendChild(el("label", {"for": id}, text));
    wrap.appendChild(input);
    return wrap;
  }

  // ---- The maths, checked against snippets/attention.py by tests/test_explorable_figures.py ----
  // The dot product and the softmax are cell-explanations.js's (mkdocs.yml loads it first).

  var maths = window.cellExplanations, dot = maths.dot;

  function norm(a) { return Math.sqrt(dot(a, a)); }

  // The key turned to angle theta (radians) from the query, in the plane of q and k,
  // keeping its length: |k| (cos θ q̂ + sin θ û), û ⟂ q.
  function turnedKey(q, k, theta) {
    var qh = q.map(function (x) { return x / norm(q); });
    var along = dot(k, qh), u = k.map(function (x, m) { return x - along * qh[m]; });
    if (norm(u) < 1e-12) {  // k along q: any direction at right angles to q
      var e = q.map(function (_, m) { return m === (Math.abs(qh[0]) < 0.9 ? 0 : 1) ? 1 : 0; });
      var a = dot(e, qh);
      u = e.map(function (x, m) { return x - a * qh[m]; });
    }
    var un = norm(u), length = norm(k);
    return qh.map(function (x, m) { return length * (Math.cos(theta) * x + Math.sin(theta) * u[m] / un); });
  }

  function angleBetween(q, k) {
    return Math.acos(Math.max(-1, Math.min(1, dot(q, k) / (norm(q) * norm(k)))));
  }

  function softmaxRow(dotProducts, d_k, scaled) {  // no key left out
    return maths.softmaxRow(dotProducts.map(function (s) { return scaled ? s / Math.sqrt(d_k) : s; }),
      dotProducts.map(function () { return true; }));
  }

  // ---- "turn-key" ----

  function turnKey(root, data, t) {
    var q = data.query, k = data.key, start = angleBetween(q, k);  // the figure's own key, exactly
    root.appendChild(el("p", {"class": "explorable__try"}, t.turnTry));
    var slider = el("input", {type: "range", min: "0", max: "180", step: "1", value: String(Math.round(start * 180 / Math.PI))});
    root.appendChild(labelled(slider, t.angle));
    var picture = el("svg", {viewBox: "-1.15 -1.15 2.3 1.35", "class": "explorable__vectors", "aria-hidden": "true"});
    picture.appendChild(el("line", {x1: "-1.1", y1: "0", x2: "1.1", y2: "0", "class": "explorable__axis"}));
    var qLine = el("line", {x1: "0", y1: "0", x2: "1", y2: "0", "class": "explorable__q"});
    var kLine = el("line", {x1: "0", y1: "0", "class": "explorable__k"});
    var qText = el("text", {x: "1.02", y: "-0.05", "class": "explorable__label"}, "q");
    var kText = el("text", {"class": "explorable__label"}, "k");
    [qLine, kLine, qText, kText].forEach(function (node) { picture.appendChild(node); });
    root.appendChild(picture);
    var table = el("table", {"class": "explorable__table"});
    var head = el("tr");
    ["", "q", "k", t.product].forEach(function (h) { head.appendChild(el("th", {scope: "col"}, h)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody")), cells = [];
    q.forEach(function (_, m) {
      var tr = body.appendChild(el("tr"));
      tr.appendChild(el("th", {scope: "row"}, t.dim + " " + (m + 1)));
      cells.push([0, 1, 2].map(function () { return tr.appendChild(el("td")); }));
    });
    var foot = table.appendChild(el("tfoot")).appendChild(el("tr"));
    foot.appendChild(el("th", {scope: "row", colspan: "3"}, t.sum));
    var sumCell = foot.appendChild(el("td"));
    root.appendChild(el("div", {"class": "explorable__scroll", tabindex: "0", role: "region", "aria-label": t.sum})).appendChild(table);
    var says = root.appendChild(el("p", {"class": "explorable__says", "aria-live": "polite"}));

    function update(exact) {
      var theta = exact === undefined ? Number(slider.value) * Math.PI / 180 : exact, key = turnedKey(q, k, theta);
      var length = norm(k) / norm(q);  // the picture: q has length 1
      kLine.setAttribute("x2", length * Math.cos(theta));
      kLine.setAttribute("y2", -length * Math.sin(theta));
      kText.setAttribute("x", length * Math.cos(theta) * 1.08 - 0.03);
      kText.setAttribute("y", -length * Math.sin(theta) * 1.08 - 0.02);
      q.forEach(function (qm, m) {
        cells[m][0].textContent = num(qm);
        cells[m][1].textContent = num(key[m]);
        cells[m][2].textContent = num(qm * key[m]);
        cells[m][2].className = qm * key[m] < -0.005 ? "negative" : "";
      });
      var s = dot(q, key);
      sumCell.textContent = num(s);
      slider.setAttribute("aria-valuetext", slider.value + "°");
      says.textContent = fill(t.turnSays, {a: slider.value, s: num(s), q: num(norm(q)), k: num(norm(k)), c: num(Math.cos(theta))});
    }
    slider.addEventListener("input", function () { update(); });
    update(start);
  }

  // ---- "softmax-sharpening" ----

  function softmaxSharpening(root, data, t) {
    var widths = data.widths, rows = data.dot_products, n = rows[0].length;
    root.appendChild(el("p", {"class": "explorable__try"}, t.softTry));
    var start = Math.max(0, widths.indexOf(64));
    var slider = el("input", {type: "range", min: "0", max: String(widths.length - 1), step: "1", value: String(start)});
    var width = el("output", {"class": "explorable__value"});
    var control = root.appendChild(labelled(slider, t.width));
    control.appendChild(width);
    var box = el("input", {type: "checkbox", checked: ""});
    root.appendChild(labelled(box, t.scale));
    var picture = root.appendChild(el("svg", {viewBox: "0 0 " + (n * 10) + " 62", "class": "explorable__bars", "aria-hidden": "true"}));
    var bars = [], labels = [];
    for (var j = 0; j < n; j++) {
      picture.appendChild(el("text", {x: j * 10 + 5, y: "61", "class": "explorable__label"}, String(j + 1)));
      bars.push(picture.appendChild(el("rect", {x: j * 10 + 1.5, width: "7", "class": "explorable__bar"})));
      labels.push(picture.appendChild(el("text", {x: j * 10 + 5, "class": "explorable__label"})));
    }
    var says = root.appendChild(el("p", {"class": "explorable__says", "aria-live": "polite"}));

    function update() {
      var d_k = widths[Number(slider.value)], row = rows[Number(slider.value)];
      var weights = softmaxRow(row, d_k, box.checked);
      var top = weights.indexOf(Math.max.apply(null, weights));
      width.textContent = String(d_k);
      slider.setAttribute("aria-valuetext", "d_k = " + d_k);
      weights.forEach(function (w, k) {
        bars[k].setAttribute("y", 52 - 48 * w);
        bars[k].setAttribute("height", Math.max(0.3, 48 * w));
        bars[k].setAttribute("class", "explorable__bar" + (k === top ? " explorable__bar--top" : ""));
        labels[k].setAttribute("y", 50 - 48 * w);
        labels[k].textContent = num(w);
      });
      var reach = Math.max.apply(null, row.map(function (s) { return Math.abs(box.checked ? s / Math.sqrt(d_k) : s); }));
      says.textContent = fill(t.softSays, {d: d_k, how: box.checked ? t.scaled : t.unscaled, n: n,
        w: num(weights[top]), j: top + 1, r: num(reach, 1)});
    }
    slider.addEventListener("input", update);
    box.addEventListener("change", update);
    update();
  }

  var BUILD = {"turn-key": turnKey, "softmax-sharpening": softmaxSharpening};

  function buildAll() {
    var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
    document.querySelectorAll("svg[data-figure]").forEach(function (svg) {
      var data;
      try { data = JSON.parse(svg.getAttribute("data-figure")).explorable; } catch (e) { return; }
      var figure = svg.closest("figure");
      if (!data || !BUILD[data.name] || !figure || figure.nextElementSibling &&
          figure.nextElementSibling.classList.contains("explorable")) return;
      var root = el("div", {"class": "explorable", "data-explorable": data.name});
      figure.parentNode.insertBefore(root, figure.nextSibling);
      BUILD[data.name](root, data, t);
    });
  }

  window.explorables = {turnedKey: turnedKey, angleBetween: angleBetween, softmaxRow: softmaxRow, dot: dot};
  buildAll();
})();
