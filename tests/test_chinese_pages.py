"""The Chinese pages: one term per concept, the English term at first use, Chinese typography.

The glossary (docs/glossary.zh.md) is the source of truth. Each entry names its
term in the heading and its English name after 英文：; a comment line
``<!-- 不用：A、B -->`` under an entry lists the variants the site does not use
for that concept; a variant written 宽度（用维度） names the word to write instead,
when that is not the entry's heading. Every Chinese page, every caption and every
Chinese figure label is checked against those lists (an entry may name its own
variants, as aliases readers meet elsewhere). A few words are fine in one compound
and wrong alone (批量 but not 批); BARE_WORDS checks those. Wording decided once for the whole
site that no entry holds (等人 in a citation, 第 N 层的头 M) is in WORDING.
"""

import ast

import re

import pytest

from conftest import DOCS, SNIPPETS

GLOSSARY = DOCS / "glossary.zh.md"
ZH_PAGES = sorted(DOCS.glob("*.zh.md"))
CJK = "\u4e00-\u9fff"


def entries(glossary_text):
    """Each glossary entry: (heading id, Chinese terms, English names, variants, its text).

    The English names are every Latin phrase of the 英文： line, those in brackets too
    (alignment（形容词 aligned）gives alignment and aligned)."""
    found = []
    for block in re.split(r"^(?=### )", glossary_text, flags=re.M)[1:]:
        heading = re.match(r"### (.+?) \{ #([\w-]+) \}", block)
        english = re.search(r"^英文：(.+?)。", block, re.M)
        variants = re.search(r"^<!-- 不用：(.+?) -->$", block, re.M)
        found.append((heading.group(2), re.split(r"[、与]", heading.group(1)),
                      re.findall(r"[A-Za-z][A-Za-z\- ]*[A-Za-z]", english.group(1)) if english else [],
                      variants.group(1).split("、") if variants else [], block))
    return found


def variant_and_term(variant, terms):
    """宽度（用维度） -> (宽度, 维度); a plain variant -> (it, the entry's first term)."""
    instead = re.fullmatch(r"(.+?)（用(.+)）", variant)
    return (instead.group(1), instead.group(2)) if instead else (variant, terms[0])


def prose(markdown):
    """The text a reader reads as sentences: no code, maths, headings, link targets or image alt text."""
    text = re.sub(r"^([ ]*)(```|~~~).*?^\1\2[ ]*$", "", markdown, flags=re.S | re.M)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    text = re.sub(r"\$[^$\n]+\$", "$", text)
    text = re.sub(r"`[^`\n]+`", "`", text)
    text = re.sub(r"^[ ]*!\[.*$", "", text, flags=re.M)
    text = re.sub(r"^#+ .*$", "", text, flags=re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "]", text)


# Phrases in which a variant's characters belong to other words: in 相关的词对齐 ("related words
# align", the title of learning-relevance) 词 is the noun and 对齐 the verb, not the term 词对齐.
OTHER_WORDS = ("相关的词对齐",)


def variants_used(text, glossary_entries, own_entry=None):
    """(variant, the term the glossary uses instead) for each variant in `text`.

    A variant given as another name after 也叫 (……也叫交叉注意力) points a reader who knows
    that name to ours; it is not a use. Nor is a phrase of OTHER_WORDS."""
    for phrase in OTHER_WORDS:
        text = text.replace(phrase, "〔〕")
    return [(variant, term) for entry_id, terms, _, variants, _ in glossary_entries
            if entry_id != own_entry for variant, term in (variant_and_term(v, terms) for v in variants)
            if variant in text.replace(f"也叫{variant}", "")]


GLOSSARY_ENTRIES = entries(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_names_variants_to_avoid():
    listed = {v for *_, variants, _ in GLOSSARY_ENTRIES for v in variants}
    assert {"源句子", "目标句子", "遮挡", "前馈层", "值行", "得分"} <= listed


def test_the_terms_of_the_d2l_pass_are_enforced():
    """Issue 28: 《动手学深度学习》's names, and one name per concept where pages differed."""
    planted = "层归一化；教师强制；一个批次；一小批样本；填充符；填充位置；键词和值词；嵌入的宽度"
    assert sorted(variants_used(planted, GLOSSARY_ENTRIES)) == sorted([
        ("层归一化", "层规范化"), ("教师强制", "强制教学"), ("批次", "批量"), ("一小批", "小批量"),
        ("填充符", "填充词元"), ("填充位置", "填充词元"), ("值词", "键词"), ("宽度", "维度")])
    assert variants_used("层规范化；强制教学；一个小批量；填充词元；键词；嵌入的维度", GLOSSARY_ENTRIES) == []


def test_the_terms_of_the_december_2026_review_are_enforced():
    """The native editor's review of December 2026: the names unified in that round, each planted once."""
    assert {"masked-self-attention", "start-token", "position-embedding", "masked-language-model"} <= {
        entry_id for entry_id, *_ in GLOSSARY_ENTRIES}
    planted = ("西班牙文的词；带掩码的自注意力；乘一个可学习的增益；可学习的系数；可学习的位置编码；"
               "不去关注填充的位置；两个因数")
    assert sorted(variants_used(planted, GLOSSARY_ENTRIES)) == sorted([
        ("西班牙文", "西班牙语"), ("带掩码的自注意力", "掩蔽自注意力"), ("增益", "拉伸参数"),
        ("可学习的系数", "拉伸参数"), ("可学习的位置编码", "可学习的位置嵌入"), ("填充的位置", "填充词元"),
        ("因数", "乘数")])
    assert variants_used("西班牙语的词；掩蔽自注意力；拉伸参数（scale）和偏移参数（shift）；线性层的偏置；"
                         "可学习的位置嵌入；正弦位置编码；填充词元；两个乘数；起始词元；掩蔽语言模型",
                         GLOSSARY_ENTRIES) == []
    for relapse in ["（Vaswani 等，2017）", "Britz 等（2017）", "Raffel 等 2020", "只做一份注意力",
                    "让好几份注意力并排进行", "同向的压过反向的", "每层都有一个带掩码（mask）的自注意力", "反向的乘积", "第 0 层头 4",
                    "第 {layer} 层头 {head}", "下面是第 2 层、头 0 里的一行"]:
        assert wording_problems(relapse), relapse
    assert wording_problems("（Vaswani 等人，2017）；Clark 等人（2019）；《动手学深度学习》等中文资料；BERT、GPT 等模型；"
                            "只算一组注意力；一整份注意力权重；同号的压过异号的；和键大致同向；反向传播；"
                            "第 0 层的头 4；第 {layer} 层，头 {head}；6 层，每层 12 个头") == []


def test_the_variant_check_finds_a_planted_variant():
    assert variants_used("把目标句子里后面的词遮挡起来。", GLOSSARY_ENTRIES) == [
        ("目标句子", "源句"), ("遮挡", "掩码")]
    assert variants_used("解码器写出目标句。", GLOSSARY_ENTRIES) == []
    assert variants_used("编码器-解码器注意力也叫交叉注意力。", GLOSSARY_ENTRIES) == []
    assert variants_used("也叫交叉注意力；交叉注意力的查询来自目标句。", GLOSSARY_ENTRIES) == [
        ("交叉注意力", "编码器-解码器注意力")]
    assert variants_used("把词对齐当作第二个任务。", GLOSSARY_ENTRIES) == [("词对齐", "词语对齐")]
    assert variants_used("训练让相关的词对齐；把词语对齐当作第二个任务。", GLOSSARY_ENTRIES) == []


HEADING = re.compile(r"^#{1,6} (.+?) \{ #[\w-]+ \}[ \t]*$", re.M)
LINK = re.compile(r"\[([^\]]*)\]\(([\w-]*)\.md(?:#[\w-]*)?\)")


def without_quoted_titles(markdown):
    """`markdown` with each link whose text is a heading of the Chinese page it links to left out.

    Headings are not checked (`prose` drops them), so a link that quotes one, a chapter's
    title in a list of chapters, is not a use of its words either; any other link text is."""
    def replace(match):
        page = DOCS / f"{match.group(2)}.zh.md"
        titles = HEADING.findall(page.read_text(encoding="utf-8")) if page.is_file() else []
        return "〔〕" if match.group(1) in titles else match.group(0)
    return LINK.sub(replace, markdown)


def test_a_quoted_title_is_not_a_use_but_other_link_text_is():
    title = HEADING.findall((DOCS / "decoder-self-attention.zh.md").read_text(encoding="utf-8"))[0]
    assert without_quoted_titles(f"见“[{title}](decoder-self-attention.md)”一章") == "见“〔〕”一章"
    assert without_quoted_titles("见[目标句子](decoder-self-attention.md#x)") == "见[目标句子](decoder-self-attention.md#x)"


@pytest.mark.parametrize("path", ZH_PAGES, ids=lambda p: p.name)
def test_one_term_per_concept(path):
    if path == GLOSSARY:
        used = [hit for entry_id, *_, block in GLOSSARY_ENTRIES
                for hit in variants_used(prose(block), GLOSSARY_ENTRIES, own_entry=entry_id)]
    else:
        used = variants_used(prose(without_quoted_titles(path.read_text(encoding="utf-8"))), GLOSSARY_ENTRIES)
    assert used == [], "variants the glossary does not use (variant, the glossary's term)"


def zh_figure_text(markdown=None):
    """The Chinese text of the figures: the strings of every fig snippet's LABELS["zh"] (read, not imported),
    or, given a page, the captions of its figures."""
    if markdown is not None:
        return "\n".join(re.findall(r"^[ ]*!\[(.*)\]\(fig_\w+\.py\)", markdown, flags=re.M))
    texts = []
    for snippet in sorted(SNIPPETS.glob("fig_*.py")):
        for node in ast.walk(ast.parse(snippet.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LABELS" for t in node.targets):
                zh = [v for k, v in zip(node.value.keys, node.value.values) if getattr(k, "value", None) == "zh"]
                texts += [c.value for c in ast.walk(zh[0]) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return "\n".join(texts)


def test_the_figure_text_is_read_from_labels_and_captions():
    assert "键词（也提供值）" in zh_figure_text()  # fig_query_row_roles
    assert zh_figure_text("![左：层归一化](fig_a.py)\n正文里的批次") == "左：层归一化"
    assert variants_used(zh_figure_text("![左：层归一化](fig_a.py)"), GLOSSARY_ENTRIES) == [("层归一化", "层规范化")]
    assert bare_words(zh_figure_text("![每个头宽 64](fig_a.py)")) != []


def test_figures_use_one_term_per_concept():
    text = zh_figure_text() + "\n".join(zh_figure_text(p.read_text(encoding="utf-8")) for p in ZH_PAGES)
    assert variants_used(text, GLOSSARY_ENTRIES) == []
    assert bare_words(text) == []
    assert wording_problems(text) == []


JAVASCRIPTS = sorted((DOCS / "javascripts").glob("*.js"))
JS_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def zh_script_text(source):
    """The Chinese a reader sees from our JavaScript: every string literal that holds a CJK character."""
    return "\n".join(s for s in JS_STRING.findall(source) if re.search(f"[{CJK}]", s))


def test_the_script_text_is_read_from_string_literals():
    assert zh_script_text('var t = {zh: {masked: "被遮盖：不能关注", w: "宽度 d_k"}, en: {a: "width"}};') == (
        "被遮盖：不能关注\n宽度 d_k")
    planted = zh_script_text('zh: {masked: "被遮盖的键", width: "宽度 d_k", cells: "{r} 行 × {c} 列"}')
    assert sorted(variants_used(planted, GLOSSARY_ENTRIES)) == [("宽度", "维度"), ("遮盖", "掩码")]


@pytest.mark.parametrize("path", JAVASCRIPTS, ids=lambda p: p.name)
def test_our_javascript_uses_one_term_per_concept(path):
    """The hover explanations, the explorables' labels, the grids' names: the glossary's terms too."""
    text = zh_script_text(path.read_text(encoding="utf-8"))
    assert variants_used(text, GLOSSARY_ENTRIES) == []
    assert bare_words(text) == []
    assert wording_problems(text) == []


# A word that is right in one compound and wrong alone (the glossary entry says which).
BARE_WORDS = {
    "批 alone: write 批量, 小批量 or 全批量 (glossary: training)": r"批(?!量)",
    "宽 or 窄 for a vector's size: write 维度, d 维, 维度更低 (glossary: dimensions)": r"(?<![线“])[宽窄]",
    "投影 for W_Q, W_K, W_V: write 线性层; 投影 is a verb, or W_O's name (glossary: linear layer)":
        r"(?<!输出)(?<!“)投影(?![成到为（”])",
}


def bare_words(text):
    return [(rule, m.group(0)) for rule, pattern in BARE_WORDS.items() for m in re.finditer(pattern, text)]


def test_each_bare_word_rule_can_fail():
    for bad in ["一批句子", "一个批次", "每个头宽 64", "行更窄", "三个独立的投影", "BERT 的投影所带的偏置"]:
        assert bare_words(bad), bad
    assert bare_words("一个小批量，全批量训练；每个头 64 维；线宽 10 磅；输出投影 W_O；把行投影成 64 维") == []


def test_the_variant_check_reads_the_word_to_write_instead():
    planted = entries("### d_model、d_k、d_v { #dimensions }\n英文：dimensions。\n<!-- 不用：宽度（用维度） -->\n"
                      "### 强制教学 { #teacher-forcing }\n英文：teacher forcing。\n<!-- 不用：教师强制 -->\n")
    assert variants_used("嵌入的宽度；这叫教师强制。", planted) == [("宽度", "维度"), ("教师强制", "强制教学")]
    assert variants_used("嵌入的维度；这叫强制教学。", planted) == []


@pytest.mark.parametrize("path", ZH_PAGES, ids=lambda p: p.name)
def test_no_bare_words(path):
    assert bare_words(prose(path.read_text(encoding="utf-8"))) == []


# Wording decided once for the whole site, which no glossary entry holds (a name of its own, or a form).
WORDING = {
    "a citation's et al. is 等人, never a bare 等 (Vaswani 等人，2017)": r"[A-Za-z] ?等(?!人) ?[，,（(]? ?(?:19|20)\d\d",
    "one attention computation is 一组 (一组注意力, 几组注意力), not 一份": r"份注意力(?!权重)",
    "the sign of products is 同号/异号, not 同向/反向 (those are for directions)": r"[同反]向的(?=乘积|项|压过)",
    "masked self-attention is 掩蔽自注意力, also when a gloss splits 带掩码（mask）的自注意力 (the glossary's variant)":
        r"带掩码（[^）\n]*）的自注意力",
    "layer and head: 第 N 层的头 M in prose, 第 N 层，头 M in a figure; never run together":
        r"第 ?[0-9{][^层\n]{0,12}层头 ?[0-9{]",
    "layer and head: 第 N 层的头 M in prose, 第 N 层，头 M in a figure; not 第 N 层、头 M":
        r"第 ?[0-9{][^层\n]{0,12}层、头 ?[0-9{]",
}


def wording_problems(text):
    return [(rule, m.group(0)) for rule, pattern in WORDING.items() for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("path", ZH_PAGES, ids=lambda p: p.name)
def test_site_wide_wording(path):
    assert wording_problems(prose(path.read_text(encoding="utf-8"))) == []


# --- The English term at first use -------------------------------------------------------------

def first_use_terms(glossary_entries):
    """Chinese term -> its English names, for terms of two or more Chinese characters.

    键 and 值 alone are too short to find (关键, 数值); they are checked as 键向量 and 值向量.
    """
    terms = {}
    for _, chinese, english, _, _ in glossary_entries:
        for term in chinese:
            if re.fullmatch(rf"[{CJK}]{{2,}}(-[{CJK}]+)?", term):
                terms[term] = english
    terms.update({"键向量": ["Key"], "值向量": ["Value"]})
    return terms


def term_uses(markdown):
    """The prose, with the titles of other chapters in links left out: a title is not a use.

    A link to the glossary keeps its text (it is a use of the term it links)."""
    text = re.sub(r"\[([^\]]*)\]\((?!glossary\.md)[^)]*\)", "〔〕", markdown)
    return prose(re.sub(r"\[([^\]]*)\]\(glossary\.md[^)]*\)", r"\1", text))


def missing_english(text, terms):
    """Terms whose first use in `text` is not followed, within its phrase, by （English）.

    The brackets may close a short run of terms (查询向量、键向量和值向量（query、key、value））.
    A term inside a longer one (位置编码 in 旋转位置编码（RoPE）) is that term's use, not its own,
    unless the brackets name it too."""
    missing = []
    for term, english in terms.items():
        longer = [(other, other.index(term)) for other in terms if term in other and other != term]
        for found in re.finditer(re.escape(term), text):
            after = text[found.end():found.end() + 60]
            bracket = re.match(rf"[{CJK}\-、*]{{0,12}}（([^）]*)）", after)
            if bracket and any(name.lower() in bracket.group(1).lower()
                               or bracket.group(1).lower() in name.lower() for name in english):
                break
            if not any(text.startswith(other, found.start() - at) for other, at in longer):
                missing.append(term)
                break
    return missing


def test_the_first_use_check_wants_the_english_name_in_brackets():
    terms = {"前瞻掩码": ["look-ahead mask"], "词元": ["token"]}
    assert missing_english("解码器用前瞻掩码（look-ahead mask）。前瞻掩码……", terms) == []
    assert missing_english("解码器用前瞻掩码。后来才写前瞻掩码（look-ahead mask）。", terms) == ["前瞻掩码"]
    assert missing_english("每个词元向量（token vector）", terms) == []
    assert missing_english("词元（单位）", terms) == ["词元"]
    encodings = {"位置编码": ["position encoding"], "旋转位置编码": ["RoPE"]}  # the longer term is not a use
    assert missing_english("旋转位置编码（RoPE），再说位置编码（position encoding）", encodings) == []
    assert missing_english("旋转位置编码（RoPE），再说位置编码", encodings) == ["位置编码"]
    assert missing_english(term_uses("见[前瞻掩码](decoder-self-attention.md)。"), terms) == []
    assert missing_english(term_uses("[前瞻掩码](glossary.md#look-ahead-mask)"), terms) == ["前瞻掩码"]


@pytest.mark.parametrize("path", [p for p in ZH_PAGES if p != GLOSSARY], ids=lambda p: p.name)
def test_each_term_gives_its_english_name_at_first_use(path):
    text = term_uses(path.read_text(encoding="utf-8"))
    assert missing_english(text, first_use_terms(GLOSSARY_ENTRIES)) == []


# --- Typography --------------------------------------------------------------------------------

TYPOGRAPHY = {
    "italic Chinese (a slanted Chinese glyph is a fake; use bold)":
        rf"(?<![*A-Za-z0-9])[*_](?![*_ ])[^*_\n]*[{CJK}][^*_\n]*(?<![*_ ])[*_](?![*A-Za-z0-9])",
    "three or more quoted words joined by ， (use 、)": r"[”」]，[“「][^”」\n]{1,20}[”」]，[“「]",
    "a thousands comma (write 2000)": r"\d,\d{3}(?!\d)",
    "a hyphen-minus before a number (write −)": r"(?<![\w\-–])-\d",
    "a space between a closing quote or bracket and a number": r"[”」）] +\d",
    "a number touching a Chinese character (leave a space)": rf"[{CJK}]\d|\d[{CJK}]",
}


def typography_problems(text):
    return [(rule, m.group(0)) for rule, pattern in TYPOGRAPHY.items()
            for m in re.finditer(pattern, text)]


def test_each_typography_rule_can_fail():
    for bad in ["这是*重点*。", "“drank”，“cat”，“black”", "共 2,000 步", "在 -1 到 1 之间",
                "“blue” 0.81", "共2000步"]:
        assert typography_problems(bad), bad
    assert typography_problems("*The ball is blue*，“drank”、“cat”、“black”，−1，2000 步，“blue”0.81") == []


@pytest.mark.parametrize("path", ZH_PAGES, ids=lambda p: p.name)
def test_chinese_typography(path):
    assert typography_problems(prose(path.read_text(encoding="utf-8"))) == []
