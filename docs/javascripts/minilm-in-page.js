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
      done: "{n} tokens, run in {s} s in this page.", empty: "Type a sentence first: the text is empty.",
      long: "This text is {n} tokens long with [CLS] and [SEP]; this page runs at most {max}.",
      download: "The model's files could not be downloaded ({detail}).", failed: "The model could not run ({detail}).",
      retry: "Try again", tokens: "Tokens: ", progress: "Download",
      cjk: "MiniLM was trained on English: each Chinese character is a token of its own here ([UNK] if its vocabulary " +
        "lacks it), and its heads never trained on such text.",
      mosaic: "All 72 heads on your sentence: one row per layer, one column per head, darker means more weight. " +
        "Choose one to see it below; the heads the chapter names are outlined in orange.",
      heads: "All 72 heads", layer: "Layer", head: "Head", name: "Layer {l}, head {h}", prose: "Layer {l}, head {h}",
      title: "Layer {l}, head {h}: attention weights", named: "named in the chapter: {p}",
      caption: "{title}. Rows are queries, columns keys. Point at, tap or tab to a cell to see how its weight comes from q · k, " +
        "÷ √32 and softmax.",
      numbers: "Numbers in this figure", corner: "query / key", list: "The heads the chapter names, on your sentence:",
      shows: "the pattern shows.", weak: "the pattern is weak here.", absent: "the pattern does not show here.",
      patterns: {"previous word": "the token before", "next word": "the token after",
        "determiner → noun": "a determiner's noun", "verb → object": "a verb's object"},
      neighbour: "{head} ({pattern}): each token gives the token {side} it {w} of its row on average; {verdict}",
      before: "before", after: "after", few: "{head} ({pattern}): this needs two tokens between [CLS] and [SEP].",
      determiners: "{head} ({pattern}): {pairs}. {verdict}", pair: "“{a}” → “{b}” ({w})", and: ", ",
      ahead: "Each determiner gives the most to a word after it; whether that word is its noun, read the sentence.",
      notAhead: "Not every determiner looks ahead: the pattern does not show on all of them.",
      noDeterminer: "{head} ({pattern}): this sentence has no determiner (the, a, an, this, that, these, those), " +
        "so the pattern has nothing to show.",
      link: "{head} ({pattern}): its strongest link between two words here is {pair}. The chapter found that it " +
        "pairs particular words (“drank” with liquids), not verbs with their objects, so whether this is a verb " +
        "and its object is for you to judge."
    },
    zh: {
      loading: "正在下载模型（{total} MB，只需一次）……", computing: "正在运行模型……",
      done: "共 {n} 个词元，在本页里运行了 {s} 秒。", empty: "请先输入一个句子：现在什么也没有。",
      long: "这段文字连同 [CLS] 和 [SEP] 共有 {n} 个词元；本页最多只运行 {max} 个。",
      download: "模型文件下载失败（{detail}）。", failed: "模型没能运行（{detail}）。",
      retry: "重试", tokens: "词元：", progress: "下载进度",
      cjk: "MiniLM 是用英文训练的：这里每个汉字都单独成为一个词元（词表里没有的字成了 [UNK]），而它的头从没在这样的文本上训练过。",
      mosaic: "你的句子在全部 72 个头里的注意力权重：每行一层，每列一个头，颜色越深权重越大。" +
        "选一个头，下面就画出它；本章点名的几个头用橙色框标出。",
      heads: "全部 72 个头", layer: "层", head: "头", name: "第 {l} 层，头 {h}", prose: "第 {l} 层的头 {h}",
      title: "第 {l} 层，头 {h}：注意力权重", named: "本章点名：{p}",
      caption: "{title}。行是查询词元，列是键词元。指向或点按某一格，或用 Tab 键移到图上，就能看到这个权重怎样由 q · k、" +
        "除以 √32 和 softmax 算出。",
      numbers: "图中的数字", corner: "查询 / 键", list: "本章点名的几个头，在你的句子上：",
      shows: "这个模式出现了。", weak: "这个模式在这里很弱。", absent: "这个模式在这里没有出现。",
      patterns: {"previous word": "前一个词元", "next word": "后一个词元",
        "determiner → noun": "限定词所限定的名词", "verb → object": "动词的宾语"},
      neighbour: "{head}（{pattern}）：每个词元平均把自己那一行的 {w} 给了{side}的那个词元；{verdict}",
      before: "它前面", after: "它后面", few: "{head}（{pattern}）：[CLS] 和 [SEP] 之间至少要有两个词元，才看得出这个模式。",
      determiners: "{head}（{pattern}）：{pairs}。{verdict}", pair: "“{a}” → “{b}”（{w}）", and: "；",
      ahead: "每个限定词都把最多的权重给了它后面的某个词；那是不是它限定的名词，请读句子判断。",
      notAhead: "并非每个限定词都看向后面的词：这个模式没有在每个限定词上出现。",
      noDeterminer: "{head}（{pattern}）：这个句子里没有限定词（the、a、an、this、that、these、those），这个模式无从出现。",
      link: "{head}（{pattern}）：在这里，它在两个词之间最强的一条连接是 {pair}。本章发现，它配对的是特定的词" +
        "（“drank”配液体），而不是动词和它的宾语，所以这算不算动词和宾语，要你自己判断。"
    }
  };
  var DETERMINERS = ["the", "a", "an", "this", "that", "these", "those"];
  var GREENS = ["f7fcf5", "e5f5e0", "c7e9c0", "a1d99b", "74c476", "41ab5d", "238b45", "006d2c", "00441b"];  // matplotlib's Greens
  var t = TEXT[document.documentElement.lang.indexOf("zh") === 0 ? "zh" : "en"];
  var here = document.currentScript.src, panel = document.querySelector(".minilm-panel");
  var form = panel.querySelector("form"), input = form.querySelector("input"), button = form.querySelector("button");
  var status = form.querySelector("[role=status]"), out = el("div", "minilm-panel__out"), bar = el("progress");
  var worker = null, jobs = {}, next = 0, shown = null;
  bar.hidden = true;
  bar.setAttribute("aria-label", t.progress);
  form.insertBefore(bar, status);
  panel.appendChild(out);
  var css = el("link");
  css.rel = "stylesheet";
  css.href = here.replace(/javascripts\/[^\/]*$/, "stylesheets/minilm-in-page.css");
  document.head.appendChild(css);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fill(template, values) { return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; }); }

  function two(x) { return x.toFixed(2); }

  // ---- The model, in the worker ----

  function compute(text, progress, tokensOnly) {
    if (typeof text !== "string" || !/\S/.test(text)) return Promise.reject(new Error(t.empty));
    if (!worker) {
      worker = new Worker(here.replace(/[^\/]*$/, "minilm-worker.js"));
      worker.onmessage = function (event) {
        var m = event.data, job = jobs[m.id];
        if (!job) return;
        if (m.progress || m.computing) return job.progress && job.progress(m);
        delete jobs[m.id];
        if (m.error) job.reject(new Error(fill(t[m.error.code] || t.failed, m.error)));
        else job.resolve(m);
      };
      worker.onerror = function (event) {  // the worker's script did not load or threw
        Object.keys(jobs).forEach(function (id) { jobs[id].reject(new Error(fill(t.failed, {detail: event.message || "worker"}))); });
        jobs = {};
        worker = null;
      };
    }
    return new Promise(function (resolve, reject) {
      var id = next++;
      jobs[id] = {resolve: resolve, reject: reject, progress: progress};
      worker.postMessage({id: id, manifest: new URL(panel.getAttribute("data-model"), location.href).href, text: text,
        tokensOnly: !!tokensOnly});
    });
  }

  // weights[layer][head][query][key], from the worker's flat array
  function nested(r) {
    var n = r.tokens.length, L = r.q.length, H = r.weights.length / (L * n * n), w = r.weights, out = [];
    for (var l = 0; l < L; l++) {
      out.push([]);
      for (var h = 0; h < H; h++) {
        out[l].push([]);
        for (var i = 0; i < n; i++) out[l][h].push(Array.from(w.subarray(((l * H + h) * n + i) * n, ((l * H + h) * n + i + 1) * n)));
      }
    }
    return out;
  }

  function attention(text) {
    return compute(text).then(function (r) { return {tokens: r.tokens.slice(), weights: nested(r)}; });
  }

  // ---- The panel ----

  function run() {
    var text = input.value;
    button.disabled = true;
    out.textContent = "";
    status.textContent = "";
    compute(text, function (m) {
      if (m.computing) {
        performance.mark("minilm-weights-arrived");
        bar.hidden = true;
        status.textContent = t.computing;
        return;
      }
      if (!m.progress[0] && m.progress[1]) status.textContent = fill(t.loading, {total: (m.progress[1] / 1e6).toFixed(1)});
      bar.hidden = !m.progress[1];  // nothing left to fetch: no bar
      bar.max = m.progress[1];
      bar.value = m.progress[0];
    }).then(function (r) {
      button.disabled = false;
      bar.hidden = true;
      var cjk = r.tokens.some(function (token) { return /[\u3400-\u9fff\uf900-\ufaff]/.test(token); });
      status.textContent = fill(t.done, {n: r.tokens.length, s: r.seconds.toFixed(2)}) + (cjk ? " " + t.cjk : "");
      show(r);
      performance.mark("minilm-first-heatmap");
    }, function (error) {
      button.disabled = false;
      bar.hidden = true;
      status.textContent = error.message + " ";
      var again = el("button", "md-button", t.retry);
      again.type = "button";
      again.addEventListener("click", run);
      status.appendChild(again);
    });
  }

  function show(r) {
    var n = r.tokens.length, L = r.q.length, H = r.weights.length / (L * n * n);
    shown = {r: r, n: n, L: L, H: H, named: {}};
    Object.keys(r.named).forEach(function (pattern) { shown.named[r.named[pattern].join(",")] = pattern; });
    var tokens = el("p", "minilm-panel__tokens", t.tokens);
    r.tokens.forEach(function (token) { tokens.appendChild(el("code", "", token)); tokens.appendChild(document.createTextNode(" ")); });
    out.appendChild(tokens);
    out.appendChild(el("p", "", t.mosaic));
    var mosaic = el("div", "minilm-mosaic");
    mosaic.setAttribute("role", "group");
    mosaic.setAttribute("aria-label", t.heads);
    mosaic.appendChild(el("span"));
    for (var h = 0; h < H; h++) mosaic.appendChild(el("span", "minilm-mosaic__head", h)).setAttribute("aria-hidden", "true");
    for (var l = 0; l < L; l++) {
      mosaic.appendChild(el("span", "minilm-mosaic__layer", l)).setAttribute("aria-hidden", "true");
      for (h = 0; h < H; h++) mosaic.appendChild(thumbnail(l, h));
    }
    out.appendChild(mosaic);
    var chooser = el("div", "minilm-chooser");
    shown.selects = [[t.layer, L], [t.head, H]].map(function (spec) {
      var label = el("label", "", spec[0] + " "), select = el("select");
      for (var k = 0; k < spec[1]; k++) select.appendChild(el("option", "", k));
      select.addEventListener("change", function () { choose(+shown.selects[0].value, +shown.selects[1].value); });
      label.appendChild(select);
      chooser.appendChild(label);
      return select;
    });
    out.appendChild(chooser);
    shown.figure = out.appendChild(el("div", "minilm-head"));
    out.appendChild(el("p", "", t.list));
    var list = out.appendChild(el("ul", "minilm-named"));
    Object.keys(r.named).forEach(function (pattern) { list.appendChild(el("li", "", verdict(pattern, r.named[pattern]))); });
    var first = r.named[Object.keys(r.named)[0]] || [0, 0];
    choose(first[0], first[1]);
  }

  function weight(l, h, i, j) { return shown.r.weights[((l * shown.H + h) * shown.n + i) * shown.n + j]; }

  function colour(x) {  // the site's weight scale: Greens from 0 to 1, as [r, g, b]
    var at = Math.max(0, Math.min(1, x)) * (GREENS.length - 1), k = Math.min(GREENS.length - 2, Math.floor(at)), f = at - k;
    return [0, 2, 4].map(function (c) {
      var a = parseInt(GREENS[k].substr(c, 2), 16), b = parseInt(GREENS[k + 1].substr(c, 2), 16);
      return Math.round(a + (b - a) * f);
    });
  }

  function thumbnail(l, h) {
    var n = shown.n, b = el("button", "minilm-mosaic__cell"), canvas = el("canvas"), pattern = shown.named[l + "," + h];
    b.type = "button";
    b.setAttribute("aria-label", fill(t.name, {l: l, h: h}) + (pattern ? ", " + fill(t.named, {p: t.patterns[pattern] || pattern}) : ""));
    b.setAttribute("aria-pressed", "false");
    if (pattern) b.classList.add("is-named");
    canvas.width = canvas.height = n;
    var context = canvas.getContext("2d"), image = context.createImageData(n, n);
    for (var i = 0; i < n; i++) {
      for (var j = 0; j < n; j++) {
        var c = colour(weight(l, h, i, j)), p = (i * n + j) * 4;
        image.data[p] = c[0]; image.data[p + 1] = c[1]; image.data[p + 2] = c[2]; image.data[p + 3] = 255;
      }
    }
    context.putImageData(image, 0, 0);
    b.appendChild(canvas);
    b.addEventListener("click", function () { choose(l, h); });
    b.dataset.head = l + "," + h;
    return b;
  }

  // The chosen head as a heatmap, explorable cell by cell, with its numbers as a table.
  function choose(l, h) {
    shown.selects[0].value = l;
    shown.selects[1].value = h;
    out.querySelectorAll(".minilm-mosaic__cell").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.head === l + "," + h));
    });
    var r = shown.r, n = shown.n, d = r.q[l].length / n, dh = d / shown.H, tokens = r.tokens;
    var rowsOf = function (a) {  // this head's part of each token's row: (n, d_head)
      var rows = [];
      for (var i = 0; i < n; i++) rows.push(Array.from(a.subarray(i * d + h * dh, i * d + (h + 1) * dh)));
      return rows;
    };
    var q = rowsOf(r.q[l]), k = rowsOf(r.k[l]), values = [], scores = [];
    for (var i = 0; i < n; i++) {
      values.push([]);
      scores.push([]);
      for (var j = 0; j < n; j++) {
        values[i].push(weight(l, h, i, j));
        scores[i].push(dotProduct(q[i], k[j]));  // as the worker summed them: the same numbers
      }
    }
    var title = fill(t.title, {l: l, h: h}), cell = 22, font = 11;
    var pad = 8 + Math.ceil(font * 0.62 * Math.max.apply(null, tokens.map(function (s) { return Array.from(s).length; })));
    var size = pad + n * cell + 2, parts = [];
    for (i = 0; i < n; i++) {
      var y = pad + i * cell;
      parts.push('<text x="' + (pad - 4) + '" y="' + (y + cell / 2) + '" text-anchor="end" dominant-baseline="central">' + escape(tokens[i]) + "</text>");
      parts.push('<text transform="translate(' + (y + cell / 2) + " " + (pad - 4) + ') rotate(-90)" dominant-baseline="central">' + escape(tokens[i]) + "</text>");
      for (j = 0; j < n; j++) {
        var c = colour(values[i][j]), x = pad + j * cell;
        parts.push('<rect x="' + x + '" y="' + y + '" width="' + cell + '" height="' + cell + '" fill="rgb(' + c + ')"/>');
        if (n <= 12) {  // the number in the cell, where it fits; the table has every one
          var dark = 0.2126 * Math.pow(c[0] / 255, 2.2) + 0.7152 * Math.pow(c[1] / 255, 2.2) + 0.0722 * Math.pow(c[2] / 255, 2.2) < 0.2;
          parts.push('<text x="' + (x + cell / 2) + '" y="' + (y + cell / 2) + '" text-anchor="middle" dominant-baseline="central" class="minilm-head__number" fill="' +
            (dark ? "white" : "black") + '">' + two(values[i][j]) + "</text>");
        }
      }
    }
    var figure = el("figure", "minilm-head__figure");
    figure.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + size + " " + size + '" width="' + size +
      '" role="img" font-size="' + font + '" fill="currentColor">' + parts.join("") + "</svg>";
    var svg = figure.firstChild;
    svg.setAttribute("aria-label", title);
    svg.style.maxWidth = Math.round(size * 1.4) + "px";
    svg.style.minWidth = Math.round(size * 9 / font) + "px";  // its text at least 9 px tall
    svg.setAttribute("data-figure", JSON.stringify({heatmaps: [{
      box: [pad / size, pad / size, (pad + n * cell) / size, (pad + n * cell) / size], title: title, kind: "weight",
      rows: tokens, cols: tokens, row_title: "", col_title: "", values: values, mask: null,
      text: values.map(function (row) { return row.map(two); }), highlight: {rows: [], cells: []},
      computed_as: {op: "softmax", scores: scores, d_k: dh, factor: null, names: ["s", "q", "k"], left: q, right: k}
    }], explorable: null}));
    figure.appendChild(el("figcaption", "", fill(t.caption, {title: title})));
    var numbers = el("details", "figure-numbers");
    numbers.appendChild(el("summary", "", t.numbers));
    numbers.addEventListener("toggle", function () {  // the table, made when first opened
      if (!numbers.open || numbers.querySelector("table")) return;
      var table = el("table"), head = el("tr");
      table.tabIndex = 0;
      table.appendChild(el("caption", "", title));
      head.appendChild(el("td", "figure-numbers__corner", t.corner));
      tokens.forEach(function (token) { head.appendChild(el("th", "", token)).setAttribute("scope", "col"); });
      table.appendChild(el("thead")).appendChild(head);
      var body = table.appendChild(el("tbody"));
      values.forEach(function (row, i) {
        var tr = body.appendChild(el("tr"));
        tr.appendChild(el("th", "", tokens[i])).setAttribute("scope", "row");
        row.forEach(function (x) { tr.appendChild(el("td", "", two(x))); });
      });
      numbers.appendChild(table);
    });
    figure.appendChild(numbers);
    shown.figure.textContent = "";
    shown.figure.appendChild(figure);
    grids().then(function () { window.cellGrids.lay(svg); });
  }

  // cell-grids.js, which the chapter loads for its own figures (a notebook page does not)
  function grids() {
    return window.cellGrids ? Promise.resolve() : shown.grids || (shown.grids = new Promise(function (resolve) {
      var script = el("script");
      script.src = here.replace(/[^\/]*$/, "cell-grids.js");
      script.onload = resolve;
      document.head.appendChild(script);
    }));
  }

  function dotProduct(a, b) { return a.reduce(function (s, x, m) { return s + x * b[m]; }, 0); }

  function escape(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

  // ---- Whether each named head's pattern shows on this sentence ----

  function verdict(pattern, at) {
    var l = at[0], h = at[1], n = shown.n, tokens = shown.r.tokens, words = [];
    for (var i = 1; i < n - 1; i++) words.push(i);  // the sentence's own tokens, between [CLS] and [SEP]
    var values = {head: fill(t.prose, {l: l, h: h}), pattern: t.patterns[pattern] || pattern};
    var pair = function (i, j) { return fill(t.pair, {a: tokens[i], b: tokens[j], w: two(weight(l, h, i, j))}); };
    if (pattern === "previous word" || pattern === "next word") {
      var step = pattern === "previous word" ? -1 : 1, pairs = words.filter(function (i) { return words.indexOf(i + step) >= 0; });
      if (!pairs.length) return fill(t.few, values);
      var mean = pairs.reduce(function (s, i) { return s + weight(l, h, i, i + step); }, 0) / pairs.length;
      values.side = step < 0 ? t.before : t.after;
      values.w = two(mean);
      values.verdict = mean >= 0.5 ? t.shows : mean >= 0.2 ? t.weak : t.absent;
      return fill(t.neighbour, values);
    }
    if (pattern === "determiner → noun") {
      var found = words.filter(function (i) { return DETERMINERS.indexOf(tokens[i]) >= 0; }).map(function (i) {
        return [i, (strongest(l, h, [i], words) || [])[1]];
      }).filter(function (f) { return f[1] !== undefined; });
      if (!found.length) return fill(t.noDeterminer, values);
      values.pairs = found.map(function (f) { return pair(f[0], f[1]); }).join(t.and);
      values.verdict = found.every(function (f) { return f[1] > f[0]; }) ? t.ahead : t.notAhead;
      return fill(t.determiners, values);
    }
    if (words.length < 2) return fill(t.few, values);
    var best = strongest(l, h, words, words);
    values.pair = pair(best[0], best[1]);
    return fill(t.link, values);
  }

  function strongest(l, h, rows, cols) {  // the (query, key) of the most weight, query ≠ key
    var best = null;
    rows.forEach(function (i) {
      cols.forEach(function (j) {
        if (i !== j && (!best || weight(l, h, i, j) > weight(l, h, best[0], best[1]))) best = [i, j];
      });
    });
    return best;
  }

  // tokens(text): a Promise of {tokens, ids} as the model's tokenizer splits it (fetches the vocabulary only)
  function tokens(text) {
    return compute(text, null, true).then(function (r) { return {tokens: r.tokens, ids: r.ids}; });
  }

  window.minilmInPage = {attention: attention, tokens: tokens, run: run};
})();
