"""all-MiniLM-L6-v2 in the reader's browser, on the trained-model page (issue 44).

The build exports the model's weights (sitebuild/generate/minilm_export.py) and puts the
panel into the page (sitebuild/after_pages/minilm_panel.py); docs/javascripts/minilm-worker.js
tokenizes and runs the model in a Web Worker and minilm-in-page.js shows what it found. Here:
the exported files against the weights that snippets/minilm.py reads; in Chromium, the
tokens against the `tokenizers` library (the model's own tokenizer.json), every attention
weight against `minilm.attention_weights`, the refusals, the panel in both languages, and
what the page loads before a reader asks.
"""

import gzip
import hashlib
import json
import re

import numpy as np
import pytest
from playwright.sync_api import expect

import minilm
from minilm_heads import SENTENCE, named_heads
from sitebuild.after_pages import minilm_panel
from sitebuild.generate import minilm_export
from test_browser import PAGE_KIB, accessibility_problems, page_url
from test_chinese_pages import GLOSSARY_ENTRIES, bare_words, typography_problems, variants_used, wording_problems

from conftest import DOCS

TOLERANCE = 1e-3  # the bar for the page's weights against NumPy's (the chapter says it)
FEATURE = re.compile(r"/minilm/|minilm-in-page\.(?:js|css)$|minilm-worker\.js$")  # what the panel fetches
# Texts for the tokenizer: punctuation, accents, digits, unknown and long words, Chinese, and more.
TOKENIZER_TEXTS = [
    "Hello, world! (Isn't it?) 'Yes'—no; maybe: ok... #1 @home $5 & 100% <b>|~^`",
    "Crème brûlée at the café in São Paulo; naïve Zoë, Ångström, İstanbul, ΣΊΣΥΦΟΣ",
    "In 1905 he wrote 3 papers, 12,345 words and 3.14159 equations; call 555-0199.",
    "Tokenization unbelievably antidisestablishmentarianism floccinaucinihilipilification",
    "qwxzrtplk blorfington grzegorzewski xyzzy",
    "我喜欢喝牛奶。注意力机制很有用，BERT读中文：一个字一个词元！",
    "日本語とひらがな、한국어 텍스트, Ελληνικά and Русский текст",
    "emoji 🥰 and ☃ snowman, ﬁ ligature, ① ² Ⅻ",
    "a [MASK] b [SEP] c[UNK]d [cls]",
    "tabs\tand\nnewlines\r\nno\u00a0break\u200bzero\ufeffwidth\x07bell",
    "a" * 101 + " " + "b" * 100,
]
# Sentences for the weights: the chapter's, punctuation, Chinese, subword pieces, and the longest the page runs.
LONGEST = " ".join(("one two three four five six seven eight nine ten " * 7).split()[:62])  # 64 tokens
WEIGHT_SENTENCES = [SENTENCE, "She opened the door, and the cold wind came in.", "我喜欢喝牛奶。",
                    "Tokenization of unbelievably long words: antidisestablishmentarianism!", LONGEST]


def exported_files(site):
    """The export as the site serves it: (folder, manifest)."""
    folder = site / minilm_export.FOLDER
    (manifest,) = folder.glob("model.*.json")
    return folder, json.loads(manifest.read_text(encoding="utf-8"))


def read_tensor(folder, manifest, name):
    """A tensor of the export as float64: a matrix's int16 rows times their scales, a vector as is."""
    file, offset, dtype, shape = manifest["tensors"][name]
    data = (folder / manifest["files"][file]["name"]).read_bytes()
    array = np.frombuffer(data, dtype="<" + dtype, count=int(np.prod(shape)), offset=offset).reshape(shape)
    if dtype == "i2":
        return array * read_tensor(folder, manifest, name + ".scale")[:, None].astype(float)
    return array.astype(float)


# ---- The export ----

def test_the_export_holds_the_weights_that_minilm_checks(built_site):
    folder, manifest = exported_files(built_site)
    weights = minilm.weights()
    assert manifest["sha256"] == minilm.WEIGHTS_SHA256
    names = {"position": "embeddings.position_embeddings.weight", "segment": "embeddings.token_type_embeddings.weight",
             "norm.weight": "embeddings.LayerNorm.weight", "norm.bias": "embeddings.LayerNorm.bias"}
    names.update({name[len("encoder.layer."):]: name for name in weights if name.startswith("encoder.layer.")})
    assert {name for name in manifest["tensors"] if not name.endswith(".scale")} == set(names)
    for short, name in names.items():
        exported, original = read_tensor(folder, manifest, short), weights[name]
        original = original[:manifest["max_tokens"]] if short == "position" else original[0] if short == "segment" else original
        assert exported.shape == original.shape, short
        # int16 rows: each number within half a step of its row's scale; vectors: float32
        step = np.abs(original).max(axis=-1, keepdims=True) / 32767 if exported.ndim == 2 else np.abs(original) * 2 ** -23
        assert np.all(np.abs(exported - original) <= step * 0.5 + 1e-12), short
    table, rows = weights["embeddings.word_embeddings.weight"], manifest["words"]["rows"]
    for token_id in [0, 101, 1996, 2000, 30521, rows * 7 + 3]:
        chunk = (folder / manifest["words"]["folder"] / f"{token_id // rows}.bin").read_bytes()
        count = min(rows, manifest["words"]["count"] - token_id // rows * rows)
        scale = np.frombuffer(chunk, "<f4", count)[token_id % rows]
        row = np.frombuffer(chunk, "<i2", manifest["d_model"], count * 4 + token_id % rows * 2 * manifest["d_model"]) * float(scale)
        assert np.abs(row - table[token_id]).max() <= np.abs(table[token_id]).max() / 32767 * 0.5 + 1e-12


def attention_with(weights, sentence):
    """minilm's forward pass on `sentence` with other `weights` (its run cache not involved): (layers, heads, n, n)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(minilm, "weights", lambda: weights)  # what embed and encoder_layer read
        x, layers = minilm.embed(minilm.tokenize(sentence)[1]), []
        for layer in range(minilm.N_LAYERS):
            x, attention = minilm.encoder_layer(x, layer)
            layers.append(attention)
    return np.stack(layers)


def test_int16_rows_keep_the_weights_closer_to_numpy_than_fp16(built_site):
    """Why the export is int16 rows with a scale each, not fp16: two bytes a number either way, closer weights."""
    folder, manifest = exported_files(built_site)
    original = minilm.weights()
    exported = {name: read_tensor(folder, manifest, name[len("encoder.layer."):]) if name.startswith("encoder.layer.")
                else array for name, array in original.items()}
    half = {name: array.astype(np.float16).astype(float) for name, array in original.items()}
    errors = {label: max(np.abs(attention_with(weights, s) - minilm.attention_weights(s)[1]).max() for s in (SENTENCE, LONGEST))
              for label, weights in [("int16 rows", exported), ("fp16", half)]}
    assert errors["int16 rows"] <= TOLERANCE / 2 < TOLERANCE < errors["fp16"], errors
    assert np.allclose(attention_with(original, SENTENCE), minilm.attention_weights(SENTENCE)[1], rtol=0, atol=1e-12)


def test_every_file_name_carries_a_hash_of_its_content(built_site):
    folder, manifest = exported_files(built_site)
    served = [path for path in folder.iterdir() if path.is_file()]
    assert len(served) == len(manifest["files"]) + 2  # the manifest and the vocabulary too
    for path in served:
        assert path.name.split(".")[1] == hashlib.sha256(path.read_bytes()).hexdigest()[:10], path.name
    words = folder / manifest["words"]["folder"]
    chunks = [words / f"{k}.bin" for k in range(len(list(words.iterdir())))]
    assert len(chunks) == -(-manifest["words"]["count"] // manifest["words"]["rows"])
    assert words.name.split(".")[1] == hashlib.sha256(b"".join(c.read_bytes() for c in chunks)).hexdigest()[:10]
    vocab = (folder / manifest["vocab"]).read_text(encoding="utf-8").split("\n")
    assert vocab == [piece for piece, _ in sorted(minilm.tokenizer().get_vocab().items(), key=lambda item: item[1])]
    assert manifest["named"] == {pattern: [layer, head] for pattern, (layer, head, _) in named_heads().items()}


def test_the_export_is_made_once_then_read_from_the_cache(tmp_path, monkeypatch):
    folder = tmp_path / "minilm-in-page" / minilm_export.cache_key()
    folder.mkdir(parents=True)
    (folder / minilm_export.DONE).write_text('{"manifest": "model.x.json", "bytes": 1, "sentence": "s"}')
    monkeypatch.setenv("FIGURE_CACHE", "on")
    monkeypatch.setattr(minilm_export.build_cache, "FOLDER", tmp_path)
    monkeypatch.setattr(minilm_export.build_pool, "submit", lambda *a, **k: pytest.fail("exported again"))
    monkeypatch.setitem(minilm_export._state, "future", None)
    assert minilm_export.exported() == {"manifest": "model.x.json", "bytes": 1, "sentence": "s"}
    minilm_export.forget()


def test_a_failed_export_leaves_nothing_behind(tmp_path, monkeypatch):
    def fails(folder):
        folder.mkdir()
        (folder / "half.bin").write_bytes(b"x")
        raise ValueError("no space left")

    monkeypatch.setattr(minilm_export, "write_export", fails)
    with pytest.raises(minilm_export.GenerationError, match="could not be exported: ValueError: no space left"):
        minilm_export.export(tmp_path / "made")
    assert list(tmp_path.iterdir()) == []


def test_the_export_refuses_a_tokenizer_the_page_does_not_implement():
    tokenizer = json.loads((minilm.model_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    assert len(minilm_export._vocabulary(tokenizer)) == 30522
    tokenizer["normalizer"]["lowercase"] = False
    with pytest.raises(ValueError, match="implements"):
        minilm_export._vocabulary(tokenizer)
    template = tokenizer["post_processor"]["single"]
    with pytest.raises(ValueError, match="template"):
        minilm_export._ends({"post_processor": {"single": template[1:]}})


# ---- The panel's markup ----

PAGE = ('<html><body><p>Before</p>' + minilm_panel.MARKER + '<p>After</p>'
        '<script src="../../assets/javascripts/bundle.0123abcd.min.js"></script></body></html>')


def test_the_panel_points_at_the_export_from_the_pages_folder():
    asked = []
    html = minilm_panel.in_page(PAGE, "zh", lambda: asked.append(1) or
                                {"manifest": "model.0a1b2c3d4e.json", "bytes": 21_730_209, "sentence": "The <b>cat</b>"})
    assert asked == [1] and minilm_panel.MARKER not in html
    assert 'data-model="../../minilm/model.0a1b2c3d4e.json" data-script="../../javascripts/minilm-in-page.js"' in html
    assert "约 22 MB" in html and 'value="The &lt;b&gt;cat&lt;/b&gt;"' in html and "<form " in html and " hidden>" in html
    assert html.index("<script>(function") > html.index("</noscript></div>")  # the loader right after the panel
    assert "// " not in html[html.index("<script>(function"):]  # without its comments


def test_a_page_without_the_marker_is_left_alone_and_waits_for_nothing():
    page = PAGE.replace(minilm_panel.MARKER, "")
    assert minilm_panel.in_page(page, "en", lambda: pytest.fail("waited for the export")) == page


def test_under_the_live_server_the_panel_is_a_note_until_the_export_is_made():
    html = minilm_panel.in_page(PAGE, "en", lambda: None)
    assert f'<p class="minilm-panel" role="status">{minilm_panel.TEXT["en"]["pending"]}</p>' in html
    assert "<script>(function" not in html


# ---- What the page says ----

def test_the_chapter_states_the_limits_the_code_has():
    """64 tokens is the export's MAX_TOKENS; 0.001 is this file's TOLERANCE."""
    for name, limit in [("trained-model.md", "at most 64 tokens"), ("trained-model.zh.md", "最多运行 64 个词元")]:
        text = (DOCS / name).read_text(encoding="utf-8")
        assert limit.replace("64", str(minilm_export.MAX_TOKENS)) in text and f"{TOLERANCE:g}" in text, name
        assert text.count(minilm_panel.MARKER) == 1


def zh_strings():
    """The Chinese strings of the panel: its markup's (Python) and its script's."""
    script = (DOCS / "javascripts" / "minilm-in-page.js").read_text(encoding="utf-8")
    zh = script[script.index("\n    zh: {"):script.index("\n  };")]
    return "\n".join(re.findall(r'"([^"]*)"', zh) + list(minilm_panel.TEXT["zh"].values()))


def test_the_panels_chinese_uses_the_glossarys_terms():
    text = zh_strings()
    assert "词元" in text and "注意力权重" in text
    assert variants_used(text, GLOSSARY_ENTRIES) == []
    assert bare_words(text) == [] and wording_problems(text) == []
    assert typography_problems(text) == []
    assert variants_used("被遮盖的键；嵌入的宽度", GLOSSARY_ENTRIES)  # the check can fail


# ---- In Chromium ----

def recorded(context):
    """Every request of a browser context (the page's and its worker's), as URLs."""
    requests = []
    context.on("request", lambda request: requests.append(request.url))
    return requests


@pytest.mark.parametrize("language", ["en", "zh"])
def test_nothing_of_the_model_loads_with_the_page(page, served_site, built_site, language):
    requests = recorded(page.context)
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    transferred = []
    network.on("Network.loadingFinished", lambda event: transferred.append(event["encodedDataLength"]))
    page.goto(page_url(served_site, "trained-model", language), wait_until="networkidle")
    assert [url for url in requests if FEATURE.search(url)] == []
    assert page.evaluate("typeof window.minilmInPage.attention") == "function"
    assert sum(transferred) / 1024 <= PAGE_KIB
    html = (built_site / ("zh/" if language == "zh" else "") / "trained-model" / "index.html").read_text(encoding="utf-8")
    start = html.index('<div class="minilm-panel"')
    without = html[:start] + minilm_panel.MARKER + html[html.index("</script>", start) + len("</script>"):]
    added = len(gzip.compress(html.encode("utf-8"), 6)) - len(gzip.compress(without.encode("utf-8"), 6))
    assert added <= 1024, f"the panel and its loader add {added} bytes gzipped to the page"
    folder, manifest = exported_files(built_site)
    every_sentence = sum(f["bytes"] for f in manifest["files"]) + sum(
        (folder / name).stat().st_size for name in [manifest["vocab"], *[p.name for p in folder.glob("model.*.json")]])
    megabytes = round(every_sentence / 1e6)
    expect(page.locator(".minilm-panel button[type=submit]")).to_have_text(
        {"en": f"Run MiniLM in this page (about {megabytes} MB, once)",
         "zh": f"在本页运行 MiniLM（约 {megabytes} MB，只需下载一次）"}[language])
    expect(page.locator(".minilm-panel input")).to_have_value(SENTENCE)


def test_the_tokens_are_the_tokenizers_librarys(page, served_site):
    requests = recorded(page.context)
    page.goto(page_url(served_site, "trained-model", "en"), wait_until="networkidle")
    found = page.evaluate("texts => Promise.all(texts.map(t => window.minilmInPage.tokens(t)))", TOKENIZER_TEXTS)
    for text, js in zip(TOKENIZER_TEXTS, found):
        tokens, ids = minilm.tokenize(text)
        assert js == {"tokens": tokens, "ids": ids.tolist()}, text
    assert {"[UNK]", "##ization", "我", "[MASK]"} <= {token for js in found for token in js["tokens"]}
    fetched = [url.rsplit("/", 1)[-1] for url in requests if "/minilm/" in url]
    assert sorted(name.split(".")[0] for name in fetched) == ["model", "vocab"], fetched  # no weights for tokens


def test_every_attention_weight_is_within_1e_3_of_numpy(page, served_site):
    requests = recorded(page.context)
    page.goto(page_url(served_site, "trained-model", "en"), wait_until="networkidle")
    assert len(minilm.tokenize(LONGEST)[0]) == minilm_export.MAX_TOKENS
    worst = 0.0
    for sentence in WEIGHT_SENTENCES:
        found = page.evaluate("s => window.minilmInPage.attention(s)", sentence)
        tokens, weights = minilm.attention_weights(sentence)
        assert found["tokens"] == tokens
        js = np.array(found["weights"])
        assert js.shape == weights.shape == (6, 12, len(tokens), len(tokens))
        assert np.allclose(js.sum(axis=-1), 1, atol=1e-9)
        worst = max(worst, float(np.abs(js - weights).max()))
    assert worst <= TOLERANCE, f"a weight differs from NumPy's by {worst:.2e}"
    assert all(url.startswith(served_site) for url in requests), "a request left 127.0.0.1"
    words = {url.rsplit("/", 1)[-1] for url in requests if "/words." in url}  # the word table: only the rows asked for
    rows = minilm_export.WORD_ROWS
    assert words == {f"{i // rows}.bin" for s in WEIGHT_SENTENCES for i in minilm.tokenize(s)[1]}


def test_the_page_refuses_what_it_cannot_run(page, served_site):
    page.goto(page_url(served_site, "trained-model", "en"), wait_until="networkidle")
    refused = "t => window.minilmInPage.attention(t).then(() => 'ran', e => [e instanceof Error, e.message])"
    assert page.evaluate(refused, "") == [True, "Type a sentence first: the text is empty."]
    assert page.evaluate(refused, "  \n ")[0] is True
    too_long = LONGEST + " eleven"
    assert len(minilm.tokenize(too_long)[0]) == minilm_export.MAX_TOKENS + 1
    assert page.evaluate(refused, too_long) == [
        True, f"This text is {minilm_export.MAX_TOKENS + 1} tokens long with [CLS] and [SEP]; this page runs at most "
              f"{minilm_export.MAX_TOKENS}."]
    page.context.route("**/minilm/layer-3.*", lambda route: route.abort())
    failed = page.evaluate(refused, "The cat sat.")
    assert failed[0] is True and failed[1].startswith("The model's files could not be downloaded (layer-3."), failed
    page.context.unroute("**/minilm/layer-3.*")
    assert page.evaluate(refused, "The cat sat.") == "ran"  # what failed is fetched again


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_panel_shows_every_head_and_explains_every_cell(page, served_site, language):
    requests = recorded(page.context)
    page.goto(page_url(served_site, "trained-model", language), wait_until="networkidle")
    panel = page.locator(".minilm-panel")
    page.context.route("**/minilm/layer-0.*", lambda route: route.abort())
    panel.locator("button[type=submit]").click()
    retry = panel.locator(".minilm-panel__status button")
    expect(retry).to_have_text({"en": "Try again", "zh": "重试"}[language])
    expect(panel.locator(".minilm-panel__status")).to_contain_text({"en": "could not be downloaded", "zh": "下载失败"}[language])
    page.context.unroute("**/minilm/layer-0.*")
    retry.click()
    expect(panel.locator(".minilm-head svg")).to_have_count(1, timeout=120_000)
    assert all(url.startswith(served_site) for url in requests), "a request left 127.0.0.1"
    tokens, weights = minilm.attention_weights(SENTENCE)

    # The mosaic: 72 heads, the named ones outlined and named to a screen reader.
    cells = panel.locator(".minilm-mosaic__cell")
    expect(cells).to_have_count(72)
    named = {(layer, head) for layer, head, _ in named_heads().values()}
    marked = panel.locator(".minilm-mosaic__cell.is-named").evaluate_all("bs => bs.map(b => b.dataset.head)")
    assert {tuple(map(int, m.split(","))) for m in marked} == named
    assert panel.locator(".minilm-mosaic__cell.is-named").first.get_attribute("aria-label").count(
        {"en": "named in the chapter", "zh": "本章点名"}[language]) == 1

    # The chooser: layer 2, head 0, where "milk" gives "drank" the most; every cell as NumPy's.
    panel.locator(".minilm-chooser select").nth(0).select_option("2")
    panel.locator(".minilm-chooser select").nth(1).select_option("0")
    expect(panel.locator(".minilm-mosaic__cell[aria-pressed=true]")).to_have_attribute("data-head", "2,0")
    grid = panel.locator(".minilm-head .cell-hit")
    heatmap = grid.evaluate("hit => JSON.parse(hit.ownerSVGElement.getAttribute('data-figure')).heatmaps[0]")
    assert heatmap["rows"] == heatmap["cols"] == tokens
    assert np.abs(np.array(heatmap["values"]) - weights[2, 0]).max() <= TOLERANCE
    milk, drank = 6, 4
    assert np.argmax(heatmap["values"][milk][1:-1]) + 1 == drank  # the chapter's reading, on the page's numbers

    # Every cell explains itself: the arithmetic gives the cell's number, from q · k, ÷√32 and softmax.
    js = grid.evaluate("""async hit => { await window.cellGrids.explanations();
        const h = JSON.parse(hit.ownerSVGElement.getAttribute('data-figure')).heatmaps[0];
        return h.values.map((row, i) => row.map((_, j) => window.cellExplanations.cellValue(h, i, j))); }""")
    assert np.allclose(js, heatmap["values"], rtol=0, atol=1e-9)
    grid.focus()
    live = panel.locator(".minilm-head .cell-explanation-live")
    expect(live).to_contain_text("[CLS]")
    for _ in range(drank):
        page.keyboard.press("ArrowRight")
    for _ in range(milk):
        page.keyboard.press("ArrowDown")
    said = live.inner_text()
    assert "q milk · k drank" in said and "/ √32" in said and "softmax" in said, said
    assert said.endswith("= " + heatmap["text"][milk][drank]), said

    # The table: every weight as the heatmap shows it.
    panel.locator(".minilm-head summary").click()
    rows = panel.locator(".minilm-head table tbody tr")
    expect(rows).to_have_count(len(tokens))
    assert rows.nth(milk).locator("td").all_inner_texts() == heatmap["text"][milk]

    # The named heads, each with a sentence on this sentence.
    items = panel.locator(".minilm-named li").all_inner_texts()
    assert len(items) == len(named_heads())
    assert items[0].startswith({"en": "Layer 0, head 2 (the token before)", "zh": "第 0 层的头 2（前一个词元）"}[language])
    assert {"en": "the pattern shows.", "zh": "这个模式出现了。"}[language] in items[0]

    # Readable in both schemes, reachable by the keyboard.
    assert accessibility_problems(page, "light") == []
    page.locator("label[title='Switch to dark mode']:visible").first.click()
    page.wait_for_selector("body[data-md-color-scheme='slate']")
    assert accessibility_problems(page, "dark", check_structure=False) == []
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: the panel scrolls inside itself, never the page
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    assert accessibility_problems(page, "dark", contrast=False) == []


def test_a_chinese_sentence_is_one_token_per_character(page, served_site):
    """The note on both pages ("MiniLM was trained on English"), on a Chinese sentence in the panel."""
    page.goto(page_url(served_site, "trained-model", "zh"), wait_until="networkidle")
    assert "MiniLM 是用英文训练的" in page.locator(".admonition.note").last.inner_text()
    page.locator("#minilm-text").fill("我喜欢喝牛奶。")
    page.locator(".minilm-panel button[type=submit]").click()
    expect(page.locator(".minilm-panel__tokens code")).to_have_count(len("我喜欢喝牛奶。") + 2, timeout=120_000)
    assert page.locator(".minilm-panel__tokens code").all_inner_texts() == minilm.tokenize("我喜欢喝牛奶。")[0]
