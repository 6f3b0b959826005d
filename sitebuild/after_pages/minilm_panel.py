"""The trained-model chapter's panel: all-MiniLM-L6-v2 on the reader's own sentence, in their browser.

A page asks for the panel with an empty `<div class="minilm-in-page"></div>` in its
Markdown. This step puts the panel there: a text field holding the chapter's sentence, the
button "Run MiniLM in this page (about N MB, once)", N from the exported files
(sitebuild/generate/minilm_export.py), a line for what happens, and a note for a reader
without JavaScript. After it, docs/javascripts/minilm-in-page-loader.js is written into the
page (without its comments): it shows the form and loads minilm-in-page.js the first time the
reader runs the model. So the page gains about half a KiB gzipped and no request; the
weights, the worker and the panel's own script and stylesheet load only when asked for.
The panel's addresses: `data-model`, the export's manifest below /minilm/; `data-script`.
"""

import re
from html import escape

from .. import ROOT
from .asset_comments import without_comments

MARKER = '<div class="minilm-in-page"></div>'
LOADER = ROOT / "docs" / "javascripts" / "minilm-in-page-loader.js"
BUNDLE = re.compile(r'<script src="(?P<root>[^"]*)assets/javascripts/bundle\.[^"]+"></script>')
# The button's look before the panel's stylesheet loads (only on this page; minilm-in-page.css has the
# same, and its hover): the site's primary colour, white text, 6.5 : 1 in both schemes. Material's own
# md-button turns white on its deep orange accent when pointed at or focused, 2.8 : 1.
BUTTON = ("margin-top:.6rem;padding:.5em 1.2em;border:0;border-radius:.1rem;font:inherit;font-weight:700;"
          "cursor:pointer;color:var(--md-primary-bg-color);background:var(--md-primary-fg-color)")
TEXT = {
    "en": {"label": "Your sentence", "run": "Run MiniLM in this page (about {mb} MB, once)",
           "failed": "The panel's script could not be loaded: check the connection and run it again.",
           "noscript": "This panel runs the model with JavaScript, which is off in this browser. "
                       "In Python, attention_weights(sentence) gives the same numbers.",
           "pending": "The model's weights are being exported for this panel; the page reloads when they are ready."},
    "zh": {"label": "你的句子", "run": "在本页运行 MiniLM（约 {mb} MB，只需下载一次）",
           "failed": "面板的脚本没能加载：请检查网络连接，再运行一次。",
           "noscript": "这个面板要用 JavaScript 运行模型，而这个浏览器关闭了 JavaScript。"
                       "在 Python 里，attention_weights(sentence) 给出的是同样的数。",
           "pending": "正在为这个面板导出模型的权重，导出后页面会自动刷新。"},
}


def in_page(output, language, exported):
    """A page's HTML with the panel in place of its marker, if it has one.

    `exported` is called only then: it gives the export's {"manifest", "bytes", "sentence"}
    (waiting for it), or None while it is still being made under the live server.
    """
    if MARKER not in output:
        return output
    text = TEXT[language]
    model = exported()
    if model is None:
        return output.replace(MARKER, f'<p class="minilm-panel" role="status">{text["pending"]}</p>', 1)
    bundle = BUNDLE.search(output)
    root = bundle["root"] if bundle else ""
    loader = without_comments(LOADER.read_text(encoding="utf-8"), ".js").strip()
    panel = (f'<div class="minilm-panel" data-model="{root}minilm/{model["manifest"]}" '
             f'data-script="{root}javascripts/minilm-in-page.js" data-failed="{escape(text["failed"])}">'
             f'<form class="minilm-panel__form" hidden>'
             f'<label for="minilm-text">{text["label"]}</label>'
             f'<input class="md-input md-input--stretch" id="minilm-text" type="text" '
             f'value="{escape(model["sentence"])}" autocomplete="off" spellcheck="false">'
             f'<button class="minilm-panel__run" type="submit" style="{BUTTON}">'
             f'{text["run"].format(mb=round(model["bytes"] / 1e6))}</button>'
             f'<p class="minilm-panel__status" role="status"></p></form>'
             f'<noscript><p>{escape(text["noscript"])}</p></noscript></div>'
             f"<script>{loader}</script>")
    return output.replace(MARKER, panel, 1)
