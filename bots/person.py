"""A person-like opponent for measuring the bots: an association table that is not the bot's.

Self-play between twins flatters the bots: an interceptor holding the Encryptor's own table
reads every link the Encryptor relies on, and a teammate holding it never misreads. A
person shares a word's obvious associations with most players and its deeper ones only
sometimes, and weighs them in an order of their own. ``person_table`` models that from
the committed tables, per seed (one seed, one person):

- ``person``: each authored association is known with a chance that falls with its rank
  (0.95 for a word's first, 0.5 from about its eighteenth: three in four of a list);
  the known ones are reordered by their rank plus noise (a standard deviation of four
  ranks); each generated link (a thesaurus synonym) is known half the time;
- ``half``: the issue's plainer choice, half of each authored list dropped uniformly
  at random and the rest shuffled; the generated layer as above.

Only for measurement (``manage.py bots selfplay --game decrypto --against person``);
never used by a bot in a room.
"""

from __future__ import annotations

import random
import unicodedata

from bots.associations import DATA, LAYERS, Table

PROFILES = ("person", "half")
# How likely a person is to know a word's association at each rank, and how much their
# order differs from the table's (in ranks). Chosen, not fitted: against the Encryptor
# before issue 23 this person intercepts 0.30-0.43 of tries, below the 2 of 3 one player
# reached and the 0.8 of a twin holding the whole table, so it flatters the bots if
# anything. (A person knowing half of each list, rank-weighted, intercepted 0.2.)
FIRST = 0.95
FADE = 0.025
LEAST = 0.5
NOISE = 4.0
GENERATED = 0.5


def known(rank: int) -> float:
    """The chance that a person thinks of the association at ``rank`` of a word's list."""
    return max(LEAST, FIRST - FADE * rank)


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
