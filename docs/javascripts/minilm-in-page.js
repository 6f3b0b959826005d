// The trained-model chapter's panel: all-MiniLM-L6-v2 on the reader's own sentence, in their
// browser. minilm-in-page-loader.js (written into the page by the build) loads this file the
// first time the reader runs the model. The model runs in a Web Worker (minilm-worker.js), so
// the page never waits for it; this file shows what it found: all 72 heads at a glance, a
// layer and head chooser, the chosen head as a heatmap whose cells explain themselves like
// every other heatmap of the site (cell-grids.js and cell-explanations.js, with its numbers
// as a table), and the heads the chapter names, each with a sentence on whether its pattern
// shows here.
//
// window.minilmInPage.attention(text) is a Promise of {tokens, weights}, weights[layer][head]
// [query][key]; it rejects with an Error (in the page's language) for an empty text, a text
// longer than the page runs, and a failed download. The panel shows that message and a retry.
(function () {
  "use strict";

  var TEXT = {
    en: {
      loading: "Downloading the model ({total} MB, once)…", computing: "Running the model…",
      done: "{n} tokens, run in {s} s.", empty: "Type a sentence first: the text is empty.",
      long: "This text is {n} tokens long with [CLS] and [SEP]; this page runs at most {max}.",
      download: "The model's files could not be downloaded ({detail}).", failed: "The model could not run ({detail}).",
      retry: "Try again", tokens: "Tokens: ", progress: "Download",
      mosaic: "All 72 heads, a row per layer: choose one to draw it below. Orange: the heads the chapter names.",
      layer: "Layer", head: "Head", name: "Layer {l}, head {h}", named: "{name}, named in the chapter: {p}",
      title: "{name}: attention weights", numbers: "Numbers in this figure", corner: "query / key",
      caption: "{title}. Rows are queries, columns keys. Point at, tap or tab to a cell to see how its weight came from q · k, ÷ √32 and softmax.",
      list: "The heads the chapter names, on your sentence:",
      patterns: {"previous word": "the token before", "next word": "the token after",
        "determiner → noun": "a determiner's noun", "verb → object": "a verb's object"},
      shows: "the pattern shows.", absent: "the pattern does not show here.",
      neighbour: "{head} ({pattern}): each token gives the token {side} it {w} of its row on average; {verdict}",
      before: "before", after: "after", few: "{head} ({pattern}): too few words to tell.",
      determiners: "{head} ({pattern}): {pairs}. {verdict}", pair: "“{a}” → “{b}” ({w})", and: ", ", list: ", ",
      ahead: "Each determiner gives the most to a word after it: its noun?", notAhead: "Not every determiner looks ahead.",
      none: "{head} ({pattern}): no determiner ({list}) here.",
      link: "{head} ({pattern}): its strongest link here is {pair}; the chapter found it pairs particular words, " +
        "not verbs and objects."
    },
    zh: {
      loading: "正在下载模型（{total} MB，只需一次）……", computing: "正在运行模型……",
      done: "共 {n} 个词元，运行了 {s} 秒。", empty: "请先输入一个句子：输入框是空的。",
      long: "这段文字连同 [CLS] 和 [SEP] 共有 {n} 个词元；本页最多只运行 {max} 个。",
      download: "模型文件下载失败（{detail}）。", failed: "模型没能运行（{detail}）。",
      retry: "重试", tokens: "词元：", progress: "下载进度",
      mosaic: "全部 72 个头，每行一层：选一个头，下方就会画出它。橙色：本章点名的头。",
      layer: "层", head: "头", name: "第 {l} 层的头 {h}", named: "{name}，本章点名：{p}",
      title: "{name}：注意力权重", numbers: "图中的数字", corner: "查询 / 键",
      caption: "{title}。行是查询词元，列是键词元。指向、点按或用 Tab 键选中一格，就会显示它的权重怎样由 q · k、除以 √32 和 softmax 算出。",
      list: "本章点名的几个头，在你的句子上：",
      patterns: {"previous word": "前一个词元", "next word": "后一个词元",
        "determiner → noun": "限定词所限定的名词", "verb → object": "动词的宾语"},
      shows: "这个模式出现了。", absent: "这个模式在这里没有出现。",
      neighbour: "{head}（{pattern}）：每个词元平均把自己那一行的 {w} 给了紧挨在{side}的那个词元；{verdict}",
      before: "前面", after: "后面", few: "{head}（{pattern}）：词太少，看不出来。",
      determiners: "{head}（{pattern}）：{pairs}。{verdict}", pair: "“{a}” → “{b}”（{w}）", and: "；", list: "、",
      ahead: "每个限定词都把最多的权重给了后面的某个词：是它的名词吗？", notAhead: "并非每个限定词都看向后面。",
      none: "{head}（{pattern}）：这里没有限定词（{list}）。",
      link: "{head}（{pattern}）：这里它最强的连接是 {pair}；本章发现，它配对的是常一起出现的具体词语，不按动宾关系来配。"
    }
  };
  var DETERMINERS = ["the", "a", "an", "this", "that", "these", "those"];
  var GREENS = ["f7fcf5", "e5f5e0", "c7e9c0", "a1d99b", "74c476", "41ab5d", "238b45", "006d2c", "00441b"].map(function (hex) {
    return [0, 2, 4].map(function (c) { return parseInt(hex.substr(c, 2), 16); });
  }), SCALE = [];  // matplotlib's Greens, the site's scale for weights, in 256 colours as matplotlib samples it
  for (var v = 0; v < 256; v++) {
    var at = v / 255 * 8, k = Math.min(7, Math.floor(at)), rgb = GREENS[k].map(function (a, c) {
      return Math.round(a + (GREENS[k + 1][c] - a) * (at - k));
    });
    rgb.ink = 0.2126 * Math.pow(rgb[0] / 255, 2.2) + 0.7152 * Math.pow(rgb[1] / 255, 2.2) + 0.0722 * Math.pow(rgb[2] / 255, 2.2) > 0.2 ?
      "black" : "white";  // the number's colour on it, as plotting.py chooses it
    rgb.push(255);  // opaque, as a canvas pixel
    SCALE.push(rgb);
  }
  var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
  var here = document.currentScript.src, panel = document.querySelector(".minilm-panel");
  var form = panel.querySelector("form"), input = form.querySelector("input"), button = form.querySelector("button");
  var status = form.querySelector("[role=status]"), bar = el("progress"), out = el("div", "", "", panel);
  var worker = null, jobs = {}, next = 0, shown = null;
  bar.hidden = true;
  bar.setAttribute("aria-label", t.progress);
  form.insertBefore(bar, status);
  el("link", "", "", document.head).rel = "stylesheet";
  document.head.lastChild.href = here.replace(/javascripts\/[^\/]*$/, "stylesheets/minilm-in-page.css");

  function el(tag, cls, text, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== "" && text !== undefined) e.textContent = text;
    return parent ? parent.appendChild(e) : e;
  }

  function fill(template, values) { return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; }); }

  function two(x) { return x.toFixed(2); }

  function escape(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;"); }

  // ---- The model, in the worker ----

  function compute(text, progress, tokensOnly) {
    if (typeof text !== "string" || !/\S/.test(text)) return Promise.reject(new Error(t.empty));
    if (!worker) {
      worker = new Worker(here.replace(/[^\/]*$/, "minilm-worker.js"));
      worker.onmessage = function (event) {
        var m = event.data, job = jobs[m.id];
        if (m.progress || m.computing) return job.progress && job.progress(m);
        delete jobs[m.id];
        if (m.error) job.reject(new Error(fill(t[m.error.code] || t.failed, m.error)));
        else job.resolve(m);
      };
      worker.onerror = function (event) {  // its script did not load, or threw
        for (var id in jobs) jobs[id].reject(new Error(fill(t.failed, {detail: event.message || "worker"})));
        jobs = {};
        worker = null;
      };
    }
    return new Promise(function (resolve, reject) {
      jobs[next] = {resolve: resolve, reject: reject, progress: progress};
      worker.postMessage({id: next++, manifest: new URL(panel.getAttribute("data-model"), location.href).href,
        text: text, tokensOnly: !!tokensOnly});
    });
  }

  function attention(text) {
    return compute(text).then(function (r) {
      var n = r.tokens.length, H = r.weights.length / (r.q.length * n * n), weights = [], at = 0;
      for (var l = 0; l < r.q.length; l++) {
        for (var h = 0, heads = weights[l] = []; h < H; h++) {
          for (var i = 0, rows = heads[h] = []; i < n; i++, at += n) rows.push(Array.from(r.weights.subarray(at, at + n)));
        }
      }
      return {tokens: r.tokens, weights: weights};
    });
  }

  // tokens(text): a Promise of {tokens, ids} as the model's tokenizer gives them (fetches the vocabulary only)
  function tokens(text) {
    return compute(text, null, true).then(function (r) { return {tokens: r.tokens, ids: r.ids}; });
  }

  // ---- The panel ----

  function run() {
    button.disabled = true;
    out.textContent = status.textContent = "";
    compute(input.value, function (m) {
      var got = m.progress || [0, 0];
      if (m.computing) performance.mark("minilm-weights-arrived");
      if (m.computing || !got[0] && got[1]) status.textContent = m.computing ? t.computing : fill(t.loading, {total: (got[1] / 1e6).toFixed(1)});
      bar.hidden = !got[1];  // no bar when nothing is left to fetch
      bar.max = got[1];
      bar.value = got[0];
    }).then(function (r) {
      button.disabled = false;
      bar.hidden = true;
      status.textContent = fill(t.done, {n: r.tokens.length, s: r.seconds.toFixed(2)});
      show(r);
      performance.mark("minilm-first-heatmap");
    }, function (error) {
      button.disabled = false;
      bar.hidden = true;
      status.textContent = error.message + " ";
      var again = el("button", "minilm-panel__run", t.retry, status);
      again.type = "button";
      again.addEventListener("click", run);
    });
  }

  function show(r) {
    var n = r.tokens.length, L = r.q.length, H = r.weights.length / (L * n * n), patterns = Object.keys(r.named), h;
    shown = {r: r, n: n, H: H, named: {}};
    patterns.forEach(function (pattern) { shown.named[r.named[pattern]] = pattern; });
    var line = el("p", "minilm-panel__tokens", t.tokens, out);
    r.tokens.forEach(function (token) { el("code", "", token, line).after(" "); });
    el("p", "", t.mosaic, out);
    var mosaic = el("div", "minilm-mosaic", "", out);
    for (h = -1; h < H; h++) el("span", "", h < 0 ? "" : h, mosaic).setAttribute("aria-hidden", "true");
    setTimeout(function layer(l) {  // one layer per task, after the first heatmap: the page never waits long
      if (l === L || shown.r !== r) return;
      el("span", "", l, mosaic).setAttribute("aria-hidden", "true");
      for (var h = 0; h < H; h++) mosaic.appendChild(thumbnail(l, h));
      setTimeout(layer, 0, l + 1);
    }, 0, 0);
    var chooser = el("div", "minilm-chooser", "", out);
    shown.selects = [[t.layer, L], [t.head, H]].map(function (spec) {
      var label = el("label", "", spec[0] + " ", chooser), select = el("select", "", "", label);
      for (var k = 0; k < spec[1]; k++) el("option", "", k, select);
      select.addEventListener("change", function () { choose(+shown.selects[0].value, +shown.selects[1].value); });
      return select;
    });
    shown.figure = el("div", "minilm-head", "", out);
    el("p", "", t.list, out);
    var list = el("ul", "minilm-named", "", out);
    patterns.forEach(function (pattern) { el("li", "", verdict(pattern, r.named[pattern]), list); });
    choose.apply(null, r.named[patterns[0]] || [0, 0]);
  }

  function weight(l, h, i, j) { return shown.r.weights[((l * shown.H + h) * shown.n + i) * shown.n + j]; }

  function colour(x) { return SCALE[Math.max(0, Math.min(255, Math.floor(x * 256)))]; }  // [r, g, b, 255] of a weight

  function picture(l, h) {  // a head's weights, one pixel a cell
    var n = shown.n, canvas = el("canvas"), context = canvas.getContext("2d"), image = context.createImageData(n, n);
    canvas.width = canvas.height = n;
    for (var p = 0; p < n * n; p++) {
      image.data.set(colour(weight(l, h, Math.floor(p / n), p % n)), 4 * p);
    }
    context.putImageData(image, 0, 0);
    return canvas;
  }

  function thumbnail(l, h) {
    var b = el("button", "minilm-mosaic__cell"), pattern = shown.named[[l, h]], name = fill(t.name, {l: l, h: h});
    b.appendChild(picture(l, h));
    b.type = "button";
    b.dataset.head = l + "," + h;
    b.setAttribute("aria-label", pattern ? fill(t.named, {name: name, p: t.patterns[pattern] || pattern}) : name);
    b.setAttribute("aria-pressed", String(shown.chosen === b.dataset.head));
    b.classList.toggle("is-named", !!pattern);
    b.addEventListener("click", function () { choose(l, h); });
    return b;
  }

  // The chosen head as a heatmap, explorable cell by cell, with its numbers as a table.
  function choose(l, h) {
    shown.selects[0].value = l;
    shown.selects[1].value = h;
    shown.chosen = l + "," + h;
    out.querySelectorAll(".minilm-mosaic__cell").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.head === shown.chosen));
    });
    var r = shown.r, n = shown.n, tokens = r.tokens, d = r.q[l].length / n, dh = d / shown.H, values = [], scores = [];
    var part = function (rows, i) { return Array.from(rows.subarray(i * d + h * dh, i * d + (h + 1) * dh)); };
    var q = tokens.map(function (_, i) { return part(r.q[l], i); }), k = tokens.map(function (_, i) { return part(r.k[l], i); });
    var title = fill(t.title, {name: fill(t.name, {l: l, h: h})}), cell = 22, font = 11, svg = [];
    var pad = 8 + Math.ceil(font * 0.62 * Math.max.apply(null, tokens.map(function (s) { return Array.from(s).length; })));
    var size = pad + n * cell + 2;
    svg.push('<image href="' + picture(l, h).toDataURL() + '" x="' + pad + '" y="' + pad + '" width="' + n * cell + '" height="' +
      n * cell + '" preserveAspectRatio="none" style="image-rendering:pixelated"/>');  // the cells
    tokens.forEach(function (token, i) {
      var y = pad + i * cell, mid = y + cell / 2;
      values.push([]);
      scores.push([]);
      svg.push('<text x="' + (pad - 4) + '" y="' + mid + '" text-anchor="end">' + escape(token) + "</text>",
        '<text transform="translate(' + mid + " " + (pad - 4) + ') rotate(-90)">' + escape(token) + "</text>");
      for (var j = 0; j < n; j++) {
        var w = weight(l, h, i, j);
        values[i].push(w);
        scores[i].push(q[i].reduce(function (sum, a, m) { return sum + a * k[j][m]; }, 0));  // as the worker summed
        if (n <= 12) {  // the number in the cell, where it fits; the table has them all
          svg.push('<text class="minilm-head__number" x="' + (pad + j * cell + cell / 2) + '" y="' + mid +
            '" text-anchor="middle" fill="' + colour(w).ink + '">' + two(w) + "</text>");
        }
      }
    });
    var figure = el("figure", "minilm-head__figure"), box = [pad / size, pad / size, (size - 2) / size, (size - 2) / size];
    figure.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + size + " " + size + '" role="img" font-size="' +
      font + '" fill="currentColor" dominant-baseline="central" style="max-width:' + Math.round(size * 1.4) + "px;min-width:" +
      Math.round(size * 9 / font) + 'px">' + svg.join("") + "</svg>";  // min-width: its text at least 9 px tall
    svg = figure.firstChild;
    svg.setAttribute("aria-label", title);
    svg.setAttribute("data-figure", JSON.stringify({heatmaps: [{box: box, title: title, rows: tokens, cols: tokens,
      values: values, highlight: {rows: [], cells: []},
      text: values.map(function (row) { return row.map(two); }),
      computed_as: {op: "softmax", scores: scores, d_k: dh, factor: null, names: ["s", "q", "k"], left: q, right: k}}]}));
    el("figcaption", "", fill(t.caption, {title: title}), figure);
    var numbers = el("details", "figure-numbers", "", figure);
    el("summary", "", t.numbers, numbers);
    numbers.addEventListener("toggle", function () {  // the table, made when first opened
      if (numbers.querySelector("table")) return;
      var cells = function (list, tag) { return list.map(function (x) { return "<" + tag + ">" + escape(x) + "</" + tag + ">"; }).join(""); };
      el("table", "", "", numbers).innerHTML = "<caption>" + title + '</caption><thead><tr><td class="figure-numbers__corner">' +
        t.corner + "</td>" + tokens.map(function (x) { return '<th scope="col">' + escape(x) + "</th>"; }).join("") + "</tr></thead><tbody>" +
        values.map(function (row, i) {
          return '<tr><th scope="row">' + escape(tokens[i]) + "</th>" + cells(row.map(two), "td") + "</tr>";
        }).join("") + "</tbody>";
      numbers.lastChild.tabIndex = 0;
    });
    shown.figure.textContent = "";
    shown.figure.appendChild(figure);
    if (window.cellGrids) window.cellGrids.lay(svg);  // the chapter has them for its figures (its notebook page does not)
  }

  // ---- Whether each named head's pattern shows on this sentence ----

  function verdict(pattern, at) {
    var l = at[0], h = at[1], tokens = shown.r.tokens, words = tokens.slice(2).map(function (_, k) { return k + 1; });
    var values = {head: fill(t.name, {l: l, h: h}), pattern: t.patterns[pattern] || pattern};
    var pair = function (i, j) { return fill(t.pair, {a: tokens[i], b: tokens[j], w: two(weight(l, h, i, j))}); };
    var step = {"previous word": -1, "next word": 1}[pattern];
    if (step) {  // the mean weight on the neighbour, over the words that have one
      var pairs = words.filter(function (i) { return words.indexOf(i + step) >= 0; });
      if (!pairs.length) return fill(t.few, values);
      var mean = pairs.reduce(function (sum, i) { return sum + weight(l, h, i, i + step); }, 0) / pairs.length;
      values.side = step < 0 ? t.before : t.after;
      values.w = two(mean);
      values.verdict = mean >= 0.5 ? t.shows : t.absent;  // most of the row, or not
      return fill(t.neighbour, values);
    }
    if (pattern === "determiner → noun") {  // each determiner's strongest word
      var found = words.filter(function (i) { return DETERMINERS.indexOf(tokens[i]) >= 0 && words.length > 1; }).map(function (i) {
        return [i, strongest(l, h, [i], words)[1]];
      });
      values.list = DETERMINERS.join(t.list);
      if (!found.length) return fill(t.none, values);
      values.pairs = found.map(function (f) { return pair(f[0], f[1]); }).join(t.and);
      values.verdict = found.every(function (f) { return f[1] > f[0]; }) ? t.ahead : t.notAhead;
      return fill(t.determiners, values);
    }
    if (words.length < 2) return fill(t.few, values);
    values.pair = pair.apply(null, strongest(l, h, words, words));
    return fill(t.link, values);
  }

  function strongest(l, h, rows, cols) {  // the (query, key) with the most weight, query ≠ key
    var best = null;
    rows.forEach(function (i) {
      cols.forEach(function (j) {
        if (i !== j && (!best || weight(l, h, i, j) > weight(l, h, best[0], best[1]))) best = [i, j];
      });
    });
    return best;
  }

  window.minilmInPage = {attention: attention, tokens: tokens, run: run};
})();
