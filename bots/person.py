"""A person-like opponent for measuring the bots: an association table that is not the bot's.

Self-play between twins flatters the bots: an interceptor holding the Encryptor's own table
reads every link the Encryptor relies on, and a teammate holding it never misreads. A
person shares a word's obvious associations with most players and its deeper ones only
sometimes, and weighs them in an order of their own. ``person_table`` models that from
the committed tables, per seed (one seed, one person):

- ``person``: each authored association is known with a chance that falls with its rank
  (0.9 for a word's first, 0.25 from about its seventeenth: half of a list on average);
  the known ones are reordered by that rank plus noise; each generated link (a
  thesaurus synonym) is known half the time;
- ``half``: the issue's plainer choice, half of each authored list dropped uniformly
  at random and the rest shuffled; the generated layer as above.

Only for measurement (``manage.py bots selfplay --game decrypto --against person``);
never used by a bot in a room.
"""

from __future__ import annotations

import random
import unicodedata

from bots.associations import DATA, LAYERS, STEP, Table

PROFILES = ("person", "half")
# How likely a person is to know a word's association at each rank, and how much their
# order differs from the table's (in ranks).
FIRST = 0.95
FADE = 0.025
LEAST = 0.5
NOISE = 4.0
GENERATED = 0.5


def known(rank: int) -> float:
    """The chance that a person thinks of the association at ``rank`` of a word's list."""
    return max(LEAST, FIRST - FADE * rank)


def known_weight(weight: float) -> float:
    """``known`` for a link of the table, from its weight: authored weights fall by
    ``STEP`` per rank from 1.0; a generated link (below 0.4) is a thesaurus synonym."""
    if weight < 0.4:
        return GENERATED * 0.5
    return known(round((1.0 - weight) / STEP))


def person_table(language: str, seed: int, profile: str = "person") -> Table:
    """The Decrypto table (``associations.table("decrypto", language)``) as one person
    would hold it: some links forgotten, the rest in their own order."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}")
    if not (DATA / "decrypto" / f"{language}.tsv").exists():
        language = "en"
    rng = random.Random(f"{profile}:{language}:{seed}")
    table = Table(language)
    for layer in LAYERS["decrypto"]:
        path = DATA / layer / f"{language}.tsv"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            word, _, rest = line.partition("\t")
            entries = [a.strip() for a in rest.split(";") if a.strip()]
            removals = [e for e in entries if e.startswith("!")]
            links = [e for e in entries if not e.startswith("!")]
            if layer == "generated":
                kept = [e for e in links if rng.random() < GENERATED]
            elif profile == "half":
                kept = [e for e in links if rng.random() < 0.5]
                rng.shuffle(kept)
            else:
                ranked = [
                    (rank + rng.gauss(0.0, NOISE), e)
                    for rank, e in enumerate(links)
                    if rng.random() < known(rank)
                ]
                kept = [e for _r, e in sorted(ranked)]
            # The removals last: an entry's place in the line is its rank.
            table.add(unicodedata.normalize("NFC", word.strip()), [*kept, *removals])
    return table
