// Every heatmap cell explains itself. Point at a cell (mouse), tap it (touch) or reach
// it with Tab and the arrow keys: its query row and key column are outlined and a box
// shows how its number was computed, with the numbers. cell-grids.js lays the focusable
// grids at load and loads this file the first time a reader uses one (a page with an
// explorable loads it at once: explorables.js uses its maths). The data come from the
// build: snippets/plotting.py's heatmap() records each grid's numbers and operands, and
// sitebuild/generate/figures.py writes them into the SVG's data-figure attribute. The page
// keeps there only where each grid lies; the numbers are in the file named by
// data-figure-src (sitebuild/after_pages/figure_data.py), fetched the first time a cell
// is shown. Without JavaScript the figure reads as drawn, and the tables under it hold
// its numbers.
(function () {
  "use strict";

  var TEXT = {
    en: {cell: "row {row}, column {col}", masked: "masked: this query may not attend to this key (score −∞, weight 0)",
      softmax: "softmax of row {row}: ", left: "masked keys are left out (weight 0)",
      q: "“", qq: "”", others: "{n} smaller products ({sum})"},
    zh: {cell: "{row}行，{col}列", masked: "被掩蔽：这个查询不能关注这个键（分数 −∞，权重 0）",
      softmax: "对{row}这一行做 softmax：", left: "被掩蔽的键不参与（权重 0）",
      q: "“", qq: "”", others: "其余 {n} 个较小的乘积（{sum}）"}
  };
  var SVG = "http://www.w3.org/2000/svg";

  // ---- The maths, as in snippets/attention.py and plotting.computed_cells ----

  function dot(a, b) {
    var sum = 0;
    for (var m = 0; m < a.length; m++) sum += a[m] * b[m];
    return sum;
  }

  function softmaxRow(logits, allowed) {  // allowed[j] false: left out, weight 0
    var top = -Infinity, total = 0, j;
    for (j = 0; j < logits.length; j++) if (allowed[j]) top = Math.max(top, logits[j]);
    var e = logits.map(function (x, j) { return allowed[j] ? Math.exp(x - top) : 0; });
    for (j = 0; j < e.length; j++) total += e[j];
    return e.map(function (x) { return total > 0 ? x / total : 0; });
  }

  function logitsOf(c, i) {  // what softmax is given on row i: s, s/√d_k or s·factor
    return c.scores[i].map(function (s) {
      if (s === null) return -Infinity;
      return c.d_k ? s / Math.sqrt(c.d_k) : c.factor !== null ? s * c.factor : s;
    });
  }

  function allowedRow(h, i) {
    return h.values[i].map(function (_, j) { return !h.mask || h.mask[i][j]; });
  }

  // The value of cell (i, j) of heatmap h, computed from its operands.
  function cellValue(h, i, j) {
    var c = h.computed_as;
    if (!c) return h.values[i][j];
    if (c.op === "dot") return dot(c.left[i], c.right[j]) / (c.d_k ? Math.sqrt(c.d_k) : 1);
    if (c.op === "softmax") return softmaxRow(logitsOf(c, i), allowedRow(h, i))[j];
    if (c.op === "weighted_sum") return dot(c.weights[i], c.values.map(function (v) { return v[j]; }));
    if (c.op === "product") return c.left[i][j] * c.right[i][j];
    throw new Error("unknown computation " + c.op);
  }

  // ---- The explanation, as lines of text; "_{x}" is written as a subscript ----

  function num(x) {  // at most two decimals, the minus sign, no "-0"
    var r = Math.round(x * 100) / 100;
    return (r === 0 ? "0" : String(r)).replace("-", "−");
  }

  function big(x) {  // e^x: three significant digits
    return (Math.abs(x) >= 1000 ? String(Math.round(x)) : x.toPrecision(3)).replace("-", "−");
  }

  function terms(list) {  // a + b + … for long sums
    return list.length > 8 ? list.slice(0, 3).concat(["…"], list.slice(-2)).join(" + ") : list.join(" + ");
  }

  // (a)(b) + … for every component; past 8, the 4 largest by size, then the rest as one sum
  function productTerms(a, b, t) {
    var products = a.map(function (x, m) { return {a: x, b: b[m], p: x * b[m]}; });
    var shown = function (p) { return "(" + num(p.a) + ")(" + num(p.b) + ")"; };
    if (products.length <= 8) return products.map(shown).join(" + ");
    products.sort(function (x, y) { return Math.abs(y.p) - Math.abs(x.p); });
    var rest = products.slice(4).reduce(function (total, p) { return total + p.p; }, 0);
    return products.slice(0, 4).map(shown).concat([t.others.replace("{n}", products.length - 4).replace("{sum}", num(rest))]).join(" + ");
  }

  function label(labels, k) { return labels[k] || String(k + 1); }

  function explain(h, i, j, t) {
    var c = h.computed_as, row = label(h.rows, i), col = label(h.cols, j), lines = [];
    var head = t.cell.replace("{row}", t.q + row + t.qq).replace("{col}", t.q + col + t.qq);
    lines.push((h.title ? h.title + " · " : "") + head);
    if (h.mask && !h.mask[i][j]) return lines.concat([t.masked]);
    var text = h.text[i][j];
    if (!c) return lines.concat(["= " + text]);
    if (c.op === "dot") {
      var name = c.names[0] + "_{" + row + "} · " + c.names[1] + "_{" + col + "}";
      var sum = dot(c.left[i], c.right[j]);
      lines.push(name + " = " + productTerms(c.left[i], c.right[j], t) + " = " + (c.d_k ? num(sum) : text));
      if (c.d_k) lines.push("(" + name + ") / √" + c.d_k + " = " + num(sum) + " / " + num(Math.sqrt(c.d_k)) + " = " + text);
    } else if (c.op === "softmax") {
      var logits = logitsOf(c, i), allowed = allowedRow(h, i), s = c.names[0];
      var arg = function (k) {  // s_k, s_k/√d_k or 3s_k: what softmax is given for key k
        var sk = s + "_{" + k + "}";
        return c.d_k ? sk + "/√" + c.d_k : c.factor !== null ? num(c.factor) + sk : sk;
      };
      var top = Math.max.apply(null, logits.filter(function (_, k) { return allowed[k]; }));
      var shown = [], total = 0;
      logits.forEach(function (x, k) {
        if (!allowed[k]) return;
        shown.push("e^{" + num(x) + "}");
        total += Math.exp(x - top);
      });
      if (c.left) {  // the scores' own operands (minilm-in-page.js): s = q · k, then ÷√d_k
        var qk = dot(c.left[i], c.right[j]), sc = s + "_{" + col + "}";
        lines.push(sc + " = " + c.names[1] + "_{" + row + "} · " + c.names[2] + "_{" + col + "} = " +
          productTerms(c.left[i], c.right[j], t) + " = " + num(qk));
        if (c.d_k) lines.push(sc + " / √" + c.d_k + " = " + num(qk) + " / " + num(Math.sqrt(c.d_k)) + " = " + num(logits[j]));
      }
      lines.push(t.softmax.replace("{row}", t.q + row + t.qq) + "e^{" + arg(col) + "} / Σ_{j} e^{" + arg("j") + "}");
      if (allowed.indexOf(false) >= 0) lines.push(t.left);
      lines.push("= e^{" + num(logits[j]) + "} / (" + terms(shown) + ") = " + big(Math.exp(logits[j] - top) * Math.exp(top)) +
        " / " + big(total * Math.exp(top)) + " = " + text);
    } else if (c.op === "weighted_sum") {
      var w = c.names[0], v = c.names[1];
      lines.push("Σ_{j} " + w + "_{" + row + ",j} · " + v + "_{j," + col + "}");
      lines.push("= " + terms(c.weights[i].map(function (x, k) { return "(" + num(x) + ")(" + num(c.values[k][j]) + ")"; })) + " = " + text);
    } else if (c.op === "product") {
      lines.push(c.names[0] + " × " + c.names[1] + " = (" + num(c.left[i][j]) + ")(" + num(c.right[i][j]) + ") = " + text);
    }
    return lines;
  }

  function writeLine(parent, line) {  // "_{x}" and "^{x}" become <sub> and <sup>
    var p = document.createElement("p"), parts = line.split(/([_^]\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})/);
    parts.forEach(function (part) {
      var m = /^([_^])\{(.*)\}$/.exec(part);
      if (!m) { p.appendChild(document.createTextNode(part)); return; }
      var el = document.createElement(m[1] === "_" ? "sub" : "sup");
      writeInto(el, m[2]);
      p.appendChild(el);
    });
    parent.appendChild(p);
  }

  function writeInto(el, text) {  // one level of nesting: e^{s_{ball}}
    text.split(/(_\{[^}]*\})/).forEach(function (part) {
      var m = /^_\{(.*)\}$/.exec(part);
      if (!m) { el.appendChild(document.createTextNode(part)); return; }
      var sub = document.createElement("sub");
      sub.textContent = m[1];
      el.appendChild(sub);
    });
  }

  function spoken(line) {  // for the live region: "q_{blue}" -> "q blue", "e^{2.89}" -> "e^(2.89)"
    for (var i = 0; i < 2; i++) line = line.replace(/_\{([^{}]*)\}/g, " $1").replace(/\^\{([^{}]*)\}/g, "^($1)");
    return line;
  }

  // ---- On the page ----

  function rect(x, y, w, h, cls) {
    var r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", x); r.setAttribute("y", y); r.setAttribute("width", w); r.setAttribute("height", h);
    r.setAttribute("class", cls);
    return r;
  }

  // The figure's full data: the attribute itself, or the file it names (once, then kept).
  function load(svg) {
    if (!svg._figureData) {
      var src = svg.getAttribute("data-figure-src");
      svg._figureData = src
        ? fetch(src).then(function (response) { return response.json(); })
        : Promise.resolve(JSON.parse(svg.getAttribute("data-figure")));
    }
    return svg._figureData;
  }

  // One figure whose grids cell-grids.js has laid: {svg, figure, live, grids: [{grid, n, hit, rows, cols, x0, y0, cw, ch}]}.
  function enhance(laid, t) {
    var svg = laid.svg, figure = laid.figure, live = laid.live, active = null;
    svg.setAttribute("data-explained", "");  // extra.css: the outlined cell shows the focus from now on
    var box = document.createElement("div");
    box.className = "cell-explanation";
    box.hidden = true;
    box.setAttribute("aria-hidden", "true");  // the live region says the same
    figure.insertBefore(box, live);

    laid.grids.forEach(function (place) {  // its numbers come with load()
      var grid = place.grid, hit = place.hit, nRows = place.rows, nCols = place.cols;
      var x0 = place.x0, y0 = place.y0, cw = place.cw, ch = place.ch, h = null;
      var group = document.createElementNS(SVG, "g");
      group.setAttribute("class", "cell-focus");
      var rowBand = rect(0, 0, nCols * cw, ch, "cell-focus__row");
      var colBand = rect(0, 0, cw, nRows * ch, "cell-focus__col");
      var cellBox = rect(0, 0, cw, ch, "cell-focus__cell");
      group.appendChild(rowBand); group.appendChild(colBand); group.appendChild(cellBox);
      group.style.display = "none";
      svg.insertBefore(group, hit);
      var state = {i: -1, j: -1, group: group, hit: hit};

      function show(i, j) {
        if (!h) {  // the first time: fetch the numbers, then show the cell still asked for
          state.wanted = [i, j];
          load(svg).then(function (full) {
            h = full.heatmaps[place.n];
            if (state.wanted) show(state.wanted[0], state.wanted[1]);
          });
          return;
        }
        state.wanted = null;
        if (active && active !== state) hide(active);
        active = state; state.i = i; state.j = j;
        rowBand.setAttribute("x", x0); rowBand.setAttribute("y", y0 + i * ch);
        colBand.setAttribute("x", x0 + j * cw); colBand.setAttribute("y", y0);
        cellBox.setAttribute("x", x0 + j * cw); cellBox.setAttribute("y", y0 + i * ch);
        group.style.display = "";
        var lines = explain(h, i, j, t);
        box.textContent = "";
        lines.forEach(function (line) { writeLine(box, line); });
        live.textContent = lines.map(spoken).join(". ");
        box.hidden = false;
        var cell = cellBox.getBoundingClientRect(), frame = figure.getBoundingClientRect();
        var left = Math.max(0, Math.min(cell.left - frame.left, frame.width - box.offsetWidth));
        box.style.left = left + "px";
        box.style.top = (cell.bottom - frame.top + 6) + "px";
      }

      function cellAt(event) {
        var p = svg.createSVGPoint();
        p.x = event.clientX; p.y = event.clientY;
        p = p.matrixTransform(svg.getScreenCTM().inverse());
        return [Math.min(nRows - 1, Math.max(0, Math.floor((p.y - y0) / ch))),
          Math.min(nCols - 1, Math.max(0, Math.floor((p.x - x0) / cw)))];
      }

      hit.addEventListener("pointermove", function (event) {
        if (event.pointerType !== "mouse") return;
        var at = cellAt(event);
        if (at[0] !== state.i || at[1] !== state.j || active !== state) show(at[0], at[1]);
      });
      hit.addEventListener("pointerleave", function (event) {
        if (event.pointerType === "mouse" && document.activeElement !== hit) hide(state);
      });
      hit.addEventListener("click", function (event) {  // a tap, or a click
        var at = cellAt(event);
        show(at[0], at[1]);
      });
      hit.addEventListener("focus", function () {
        var first = grid.highlight.cells[0] || (grid.highlight.rows.length ? [grid.highlight.rows[0], 0] : [0, 0]);
        if (active !== state) show(first[0], first[1]);
      });
      hit.addEventListener("blur", function () { hide(state); });
      hit.addEventListener("keydown", function (event) {
        var i = Math.max(state.i, 0), j = Math.max(state.j, 0);
        var moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
        if (event.key === "Escape") { hide(state); event.preventDefault(); return; }
        if (event.key === "Home") j = 0;
        else if (event.key === "End") j = nCols - 1;
        else if (moves[event.key]) {
          i = Math.min(nRows - 1, Math.max(0, i + moves[event.key][0]));
          j = Math.min(nCols - 1, Math.max(0, j + moves[event.key][1]));
        } else return;
        event.preventDefault();
        show(i, j);
      });
    });

    function hide(state) {
      state.wanted = null;
      state.group.style.display = "none";
      state.i = state.j = -1;
      if (active === state) { active = null; box.hidden = true; live.textContent = ""; }
    }

    document.addEventListener("click", function (event) {  // a tap elsewhere closes it
      if (active && !figure.contains(event.target)) hide(active);
    });
  }

  function enhanceAll() {
    var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
    window.cellGrids.laid.forEach(function (laid) {  // cell-grids.js runs first on every page that loads this
      if (!laid.svg.hasAttribute("data-explained")) enhance(laid, t);
    });
  }

  window.cellExplanations = {dot: dot, softmaxRow: softmaxRow, cellValue: cellValue, explain: explain, spoken: spoken,
    load: load, TEXT: TEXT, enhanceAll: enhanceAll};
  enhanceAll();
})();
