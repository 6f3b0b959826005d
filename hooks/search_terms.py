"""MkDocs hook: teach the Chinese word segmenter the glossary's terms.

Material's search segments Chinese text with jieba when it builds the index.
jieba does not know technical terms such as 点积 or 前瞻掩码 and splits them
into single characters, so a reader searching for 点积 found nothing. This
hook reads the terms from the headings of docs/glossary.zh.md (the one place
where our Chinese terms are defined) and adds each to jieba's dictionary
before the index is built.
"""

import re
from pathlib import Path

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.zh.md"
HAN = re.compile(r"[\u4e00-\u9fff]")


def glossary_terms():
    """Chinese terms from the glossary's term headings: '### 编码器与解码器 { #id }' -> 编码器, 解码器."""
    terms = []
    for heading in re.findall(r"^### (.+?) \{ #[\w-]+ \}$", GLOSSARY.read_text(encoding="utf-8"), re.M):
        terms += [t.strip() for t in re.split(r"[、与，,]", heading) if HAN.search(t)]
    return terms


def on_config(config):
    try:
        import jieba
    except ImportError:
        return config
    for term in glossary_terms():
        jieba.add_word(term)
    return config
