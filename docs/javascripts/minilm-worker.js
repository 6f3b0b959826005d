// all-MiniLM-L6-v2 in a Web Worker, so the page never waits for it: BERT's tokenizer and the
// encoder's forward pass in plain JavaScript, the same computation as snippets/minilm.py.
// minilm-in-page.js starts it and sends {id, manifest, text}; it answers with progress
// messages while weights arrive, then {id, tokens, weights, q, k} or {id, error} (with
// tokensOnly, {id, tokens, ids} once the vocabulary is in).
// The files come from the build (sitebuild/generate/minilm_export.py), next to the manifest:
// the vocabulary, the embeddings and one file per layer, all fetched once and kept, and the
// rows of the word table that the sentence's tokens need. Matrices are int16 with a float32
// scale per row: W[o][i] = scale[o] × int16[o][i].
"use strict";

var files = {};  // address -> Promise of its bytes (or text): each fetched once, again only after a failure

// ---- Downloads, with their progress ----

function fetched(url, kind, progress) {
  var name = url.split("/").pop();
  if (!files[url]) {
    files[url] = fetch(url).then(function (response) {
      if (!response.ok) throw {code: "download", detail: name + ": HTTP " + response.status};
      if (kind) return response[kind]();  // "json", "text"
      var reader = response.body.getReader(), parts = [], size = 0;
      return (function next() {
        return reader.read().then(function (chunk) {
          if (chunk.done) {
            var bytes = new Uint8Array(size), at = 0;
            parts.forEach(function (part) { bytes.set(part, at); at += part.length; });
            return bytes.buffer;
          }
          parts.push(chunk.value);
          size += chunk.value.length;
          progress(chunk.value.length);
          return next();
        });
      })();
    }).catch(function (error) {
      delete files[url];  // a retry fetches it again
      throw error.code ? error : {code: "download", detail: name + ": " + error.message};
    });
  }
  return files[url];
}

// ---- The tokenizer: BERT's basic rules, then WordPiece (tokenizer.json: BertNormalizer,
// BertPreTokenizer, WordPiece; the build checks that it asks for exactly these) ----

var CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u, SPACE = /\p{White_Space}/u, MARK = /\p{Mn}/gu;
var PUNCTUATION = /^[!-\/:-@\[-`{-~]$|^\p{P}$/u;  // ASCII punctuation and symbols, and Unicode's P*
// BERT's "Chinese characters", as the tokenizers library lists them
var CJK = /[\u4e00-\u9fff\u3400-\u4dbf\u{20000}-\u{2a6df}\u{2a700}-\u{2b73f}\u{2b740}-\u{2b81f}\u{2b920}-\u{2ceaf}\uf900-\ufaff\u{2f800}-\u{2fa1f}]/u;

// Clean (drop control characters, any space becomes " "), space out CJK characters, strip
// accents (NFD, then no nonspacing marks), lower-case one character at a time.
function normalize(text) {
  var out = "";
  for (var c of text) {
    var tab = c === "\t" || c === "\n" || c === "\r";
    if (c === "\0" || c === "\ufffd" || (CONTROL.test(c) && !tab)) continue;
    out += tab || SPACE.test(c) ? " " : CJK.test(c) ? " " + c + " " : c;
  }
  return Array.from(out.normalize("NFD").replace(MARK, ""), function (c) { return c.toLowerCase(); }).join("");
}

// Words: split at spaces, every punctuation character a word of its own.
function words(text) {
  var found = [], word = "";
  for (var c of text) {
    if (c === " " || PUNCTUATION.test(c)) {
      if (word) found.push(word);
      if (c !== " ") found.push(c);
      word = "";
    } else word += c;
  }
  if (word) found.push(word);
  return found;
}

// WordPiece: the longest piece of the vocabulary from the start, then "##" pieces; a word
// that cannot be cut into pieces, or is longer than max_chars, is [UNK].
function pieces(word, vocab, m) {
  var chars = Array.from(word), out = [];
  if (chars.length > m.max_chars) return [m.unk];
  for (var start = 0; start < chars.length;) {
    for (var end = chars.length; end > start; end--) {
      var piece = (start ? m.prefix : "") + chars.slice(start, end).join("");
      if (vocab.has(piece)) break;
    }
    if (end === start) return [m.unk];
    out.push(piece);
    start = end;
  }
  return out;
}

// The tokens of `text`: [CLS], its pieces, [SEP]. Special tokens typed in the text ("[MASK]")
// are kept whole, as the tokenizers library keeps its added tokens.
function tokenize(text, vocab, m) {
  var special = new RegExp("(" + m.special.map(function (s) { return s.replace(/[\[\]]/g, "\\$&"); }).join("|") + ")");
  var tokens = [m.cls];
  text.split(special).forEach(function (part, k) {
    if (k % 2) tokens.push(part);
    else words(normalize(part)).forEach(function (word) { tokens.push.apply(tokens, pieces(word, vocab, m)); });
  });
  tokens.push(m.sep);
  return tokens;
}

// ---- The forward pass ----

function tensor(m, buffers, name) {
  var t = m.tensors[name], size = t[3].reduce(function (a, b) { return a * b; }, 1);
  var data = new (t[2] === "i2" ? Int16Array : Float32Array)(buffers[t[0]], t[1], size);
  return t[2] === "i2" ? {data: data, scale: tensor(m, buffers, name + ".scale"), cols: t[3][1]} : data;
}

// x Wᵀ + b for rows x (n, in); W's rows are int16 times their scale. One row of W at a time
// for every token (it stays in the cache), four sums at once (in is 384 or 1536).
function linear(x, n, w, bias) {
  var din = w.cols, dout = w.scale.length, y = new Float64Array(n * dout), a = w.data;
  for (var o = 0; o < dout; o++) {
    for (var t = 0, wi = o * din; t < n; t++) {
      for (var i = 0, xi = t * din, s0 = 0, s1 = 0, s2 = 0, s3 = 0; i < din; i += 4) {
        s0 += x[xi + i] * a[wi + i];
        s1 += x[xi + i + 1] * a[wi + i + 1];
        s2 += x[xi + i + 2] * a[wi + i + 2];
        s3 += x[xi + i + 3] * a[wi + i + 3];
      }
      y[t * dout + o] = (s0 + s1 + s2 + s3) * w.scale[o] + bias[o];
    }
  }
  return y;
}

function layerNorm(x, n, gain, shift, eps) {  // each row: mean 0, variance 1, then × gain + shift
  var d = gain.length;
  for (var t = 0; t < n; t++) {
    var mean = 0, variance = 0, i;
    for (i = 0; i < d; i++) mean += x[t * d + i] / d;
    for (i = 0; i < d; i++) variance += (x[t * d + i] - mean) * (x[t * d + i] - mean) / d;
    for (i = 0; i < d; i++) x[t * d + i] = (x[t * d + i] - mean) / Math.sqrt(variance + eps) * gain[i] + shift[i];
  }
  return x;
}

// erf by Abramowitz and Stegun 7.1.26, within 1.5e-7: GELU moves by less than 1e-6.
function erf(x) {
  var t = 1 / (1 + 0.3275911 * Math.abs(x));
  var y = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return x < 0 ? -y : y;
}

function gelu(x) { return 0.5 * x * (1 + erf(x / Math.SQRT2)); }

function added(a, b) {  // a + b, in a
  for (var i = 0; i < a.length; i++) a[i] += b[i];
  return a;
}

// Every head's attention weights (layers × heads × n × n, flat) and each layer's queries and keys.
function forward(ids, m, buffers, rows) {
  var n = ids.length, d = m.d_model, heads = m.heads, dh = d / heads, L = m.layers;
  var T = function (name) { return tensor(m, buffers, name); };
  var x = new Float64Array(n * d), position = T("position"), segment = T("segment");
  ids.forEach(function (id, t) {
    var row = rows(id);
    for (var i = 0; i < d; i++) {
      x[t * d + i] = row.scale * row.data[i] + position.scale[t] * position.data[t * d + i] + segment[i];
    }
  });
  layerNorm(x, n, T("norm.weight"), T("norm.bias"), m.eps);
  var weights = new Float64Array(L * heads * n * n), qs = [], ks = [];
  for (var l = 0; l < L; l++) {
    var dense = function (x, name) { return linear(x, n, T(l + "." + name + ".weight"), T(l + "." + name + ".bias")); };
    var norm = function (x, name) { return layerNorm(x, n, T(l + "." + name + ".weight"), T(l + "." + name + ".bias"), m.eps); };
    var q = dense(x, "attention.self.query"), k = dense(x, "attention.self.key"), v = dense(x, "attention.self.value");
    var z = new Float64Array(n * d);
    for (var h = 0; h < heads; h++) {
      for (var i = 0; i < n; i++) {
        var w = weights.subarray(((l * heads + h) * n + i) * n, ((l * heads + h) * n + i + 1) * n), top = -Infinity, total = 0, j, c;
        for (j = 0; j < n; j++) {  // the scores of row i, q_i · k_j / √d_head
          var s = 0;
          for (c = 0; c < dh; c++) s += q[i * d + h * dh + c] * k[j * d + h * dh + c];
          w[j] = s / Math.sqrt(dh);
          top = Math.max(top, w[j]);
        }
        for (j = 0; j < n; j++) total += (w[j] = Math.exp(w[j] - top));
        for (j = 0; j < n; j++) {  // softmax, then the weighted sum of the head's values
          w[j] /= total;
          for (c = 0; c < dh; c++) z[i * d + h * dh + c] += w[j] * v[j * d + h * dh + c];
        }
      }
    }
    x = norm(added(dense(z, "attention.output.dense"), x), "attention.output.LayerNorm");  // post-norm residuals
    x = norm(added(dense(dense(x, "intermediate.dense").map(gelu), "output.dense"), x), "output.LayerNorm");
    qs.push(q);
    ks.push(k);
  }
  return {weights: weights, q: qs, k: ks};
}

// ---- One request ----

function run(job, say) {
  var base = job.manifest.replace(/[^\/]*$/, "");
  return fetched(job.manifest, "json").then(function (m) {
    return fetched(base + m.vocab, "text").then(function (text) {
      var vocab = new Map(text.split("\n").map(function (piece, id) { return [piece, id]; }));
      var tokens = tokenize(job.text, vocab, m), ids = tokens.map(function (t) { return vocab.get(t); });
      if (tokens.length <= 2) throw {code: "empty"};
      if (job.tokensOnly) return {tokens: tokens, ids: ids};
      if (tokens.length > m.max_tokens) throw {code: "long", n: tokens.length, max: m.max_tokens};
      var W = m.words, chunks = Array.from(new Set(ids.map(function (id) { return Math.floor(id / W.rows); })));
      var wanted = m.files.map(function (f) { return [base + f.name, f.bytes]; }).concat(chunks.map(function (c) {
        return [base + W.folder + "/" + c + ".bin", Math.min(W.rows, W.count - c * W.rows) * (4 + 2 * m.d_model)];
      }));
      var total = 0, loaded = 0;
      wanted.forEach(function (f) { if (!files[f[0]]) total += f[1]; });
      say({progress: [0, total]});
      return Promise.all(wanted.map(function (f) {
        return fetched(f[0], "", function (bytes) { loaded += bytes; say({progress: [loaded, total]}); });
      })).then(function (buffers) {
        say({computing: true});
        var started = Date.now();
        var rows = function (id) {  // the row of the word table for token id
          var c = Math.floor(id / W.rows), r = id - c * W.rows, buffer = buffers[m.files.length + chunks.indexOf(c)];
          var count = Math.min(W.rows, W.count - c * W.rows);
          return {scale: new Float32Array(buffer, 0, count)[r], data: new Int16Array(buffer, count * 4 + r * 2 * m.d_model, m.d_model)};
        };
        var result = forward(ids, m, buffers, rows);
        result.tokens = tokens;
        result.named = m.named;
        result.seconds = (Date.now() - started) / 1000;
        return result;
      });
    });
  });
}

onmessage = function (event) {
  var job = event.data;
  run(job, function (message) { message.id = job.id; postMessage(message); }).then(function (result) {
    result.id = job.id;
    postMessage(result, result.weights ? [result.weights].concat(result.q, result.k).map(function (a) { return a.buffer; }) : []);
  }, function (error) {
    postMessage({id: job.id, error: error.code ? error : {code: "failed", detail: String(error && error.message || error)}});
  });
};
