"""The seed rulebook's worked example, rounds 1 and 2, replayed move by move.

White: Bob, Alice and "you"; keywords NERO RAGNO COCKTAIL SOMBRERO.
Black: Mallory and Eve; keywords ANTICHITÀ OSSO MATTINA INCUBO.
"""

from __future__ import annotations

from decrypto.engine import Phase, State, view_for

from .builders import B, W, encryptor, forced, game, lock, submit, with_keywords

WHITE_KEYWORDS = ("nero", "ragno", "cocktail", "sombrero")
BLACK_KEYWORDS = ("antichità", "osso", "mattina", "incubo")


def round_one() -> State:
    state = game(white=("bob", "alice", "you"), black=("mallory", "eve"))
    state = with_keywords(with_keywords(state, W, WHITE_KEYWORDS), B, BLACK_KEYWORDS)
    state = forced(state, white=(4, 2, 1), black=(4, 3, 2))
    state = submit(state, W, ("Messico", "zampe", "orrore"))
    state = submit(state, B, ("notte", "alba", "cane"))
    state = lock(state, W, (4, 2, 1), player="you")  # "Il codice di Bob probabilmente è 4.2.1"
    return lock(state, B, (4, 3, 2), player="eve")  # Eve read Mallory right; no interception yet


def round_two() -> State:
    state = forced(round_one(), white=(3, 4, 2), black=(2, 3, 4))
    state = submit(state, W, ("serata con gli amici", "parasole", "aracnide"))
    state = submit(state, B, ("scheletro", "ascesa", "Freddy"))
    state = lock(state, B, (1, 4, 3), player="mallory")
    state = lock(state, W, (3, 4, 1), player="bob")
    state = lock(state, B, (2, 3, 4), player="mallory")
    return lock(state, W, (2, 3, 4), player="alice")


def test_seed_example_round_one_gives_no_token() -> None:
    state = round_one()
    assert [(r.team, r.interception, r.decipher, r.code) for r in state.history] == [
        (W, None, (4, 2, 1), (4, 2, 1)),
        (B, None, (4, 3, 2), (4, 3, 2)),
    ]
    assert all(state.teams[t].interceptions == state.teams[t].miscommunications == 0 for t in (W, B))


def test_seed_example_round_two_encryptors_are_alice_and_eve() -> None:
    state = round_one()
    assert (encryptor(state, W), encryptor(state, B)) == ("alice", "eve")


def test_seed_example_round_two_tokens() -> None:
    state = round_two()
    # "La Squadra Nera non ha alcun segnalino mentre la Squadra Bianca ha 1 segnalino
    #  Comunicazione Errata e 1 segnalino Intercettazione."
    assert (state.teams[W].interceptions, state.teams[W].miscommunications) == (1, 1)
    assert (state.teams[B].interceptions, state.teams[B].miscommunications) == (0, 0)
    assert (state.round, state.phase) == (3, Phase.CLUES)  # nobody has won or lost yet


def test_seed_example_reveals_in_order() -> None:
    history = view_for(round_two(), player=None)["history"]
    assert [(h["interception"], h["decipher"], h["code"]) for h in history[2:]] == [
        ([1, 4, 3], [3, 4, 1], [3, 4, 2]),
        ([2, 3, 4], [2, 3, 4], [2, 3, 4]),
    ]
    assert [t["kind"] for h in history for t in h["tokens"]] == ["miscommunication", "interception"]


def test_seed_example_sheets_group_clues_by_keyword() -> None:
    sheets = view_for(round_two(), player="you")["sheets"]

    def grouped(team: str) -> dict[str, list[str]]:
        return {d: [c["clue"] for c in clues] for d, clues in sheets[team]["by_position"].items()}

    assert grouped("white") == {
        "1": ["orrore"],
        "2": ["zampe", "aracnide"],
        "3": ["serata con gli amici"],
        "4": ["Messico", "parasole"],
    }
    assert grouped("black") == {
        "1": [],
        "2": ["cane", "scheletro"],
        "3": ["alba", "ascesa"],
        "4": ["notte", "Freddy"],
    }
