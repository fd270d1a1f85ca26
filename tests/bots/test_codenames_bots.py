"""The Codenames teammates' reasoning on small hand-made tables (the real tables are data)."""

from __future__ import annotations

import random

import pytest

from bots.associations import forms, key, parse
from bots.codenames import choose_clue, decide, first_guess, guesses, rank
from codenames.engine.clues import board_conflict

TABLE = parse(
    "# a test table\n"
    "cup\tcoffee; tea; saucer; trophy; mug\n"
    "bat\tvampire; cave; baseball; wing; night\n"
    "bank\tmoney; river; loan; vault\n"
    "wave\tocean; sea; surf; hand\n"
    "fish\tsea; ocean; net; gill\n"
    "night\tdark; moon; sleep\n"
    "ghost\tvampire; haunted; night\n"
    "café\tcoffee; croissant; terrace\n",
    "en",
)


def test_matching_ignores_case_a_missing_accent_and_plurals() -> None:
    assert key("CAFÉ") == key("café") != key("cafe")  # accents kept: they may separate words
    assert "hjärta" in forms("HJARTAT", "sv")  # restored: no other word is "hjartat"
    assert "vampire" in forms("vampires", "en")
    assert "flaska" in forms("flaskor", "sv")
    assert "gatto" in forms("gatti", "it") & forms("gatto", "it")
    scores = TABLE.score("VAMPIRES", ["bat", "bank", "cup"])
    assert scores["bat"] > 0 and scores["bank"] == 0 and scores["cup"] == 0


def test_stronger_associations_rank_first() -> None:
    # "coffee" is cup's first association and café's first too; "mug" is cup's fifth.
    ranked = rank(TABLE, "mug", ["bank", "cup", "wave"])
    assert ranked[0][0] == "cup" and ranked[1][1] == 0
    assert TABLE.score("coffee", ["cup"])["cup"] > TABLE.score("mug", ["cup"])["cup"]


def test_a_clue_that_is_a_pack_word_evokes_its_own_list() -> None:
    # "night" is a pack word: it evokes bat (bat → night) and its own "dark" nothing on board.
    assert TABLE.score("night", ["bat", "bank"])["bat"] > 0


def test_operative_guesses_at_least_once_then_only_while_confident() -> None:
    board = ["bank", "wave", "fish", "cup"]
    assert guesses(TABLE, "ocean", 2, board) == ["wave", "fish"]
    assert guesses(TABLE, "ocean", 1, board) == ["wave"]
    nothing = guesses(TABLE, "zebra", 3, board)  # nothing evoked: one guess all the same (CN-12)
    assert len(nothing) == 1 and nothing[0] in board


def test_spymaster_links_two_agents_and_never_evokes_the_assassin() -> None:
    visible = ["wave", "fish", "bat", "bank", "cup"]
    identities = {"wave": "red", "fish": "red", "bat": "assassin", "bank": "blue", "cup": "bystander"}
    clue = choose_clue(TABLE, visible, identities, "red")
    assert clue.number == 2 and set(clue.intended) == {"wave", "fish"}
    assert clue.word in {"ocean", "sea"}
    assert clue.explain().startswith(clue.word.upper() + " 2 → ")
    # The assassin is a ghost now: "vampire" would point at it, so "night" for bat is out.
    identities = {"bat": "red", "ghost": "assassin", "bank": "blue"}
    clue = choose_clue(TABLE, ["bat", "ghost", "bank"], identities, "red")
    assert clue.word not in {"vampire", "night"}
    assert TABLE.score(clue.word, ["ghost"])["ghost"] < 0.3


def test_spymaster_clues_are_legal_on_the_board() -> None:
    rng = random.Random(5)
    words = list(TABLE.words)
    for _ in range(20):
        visible = rng.sample(words, 6)
        identities = dict(zip(visible, ["red", "red", "blue", "bystander", "assassin", "blue"], strict=True))
        try:
            clue = choose_clue(TABLE, visible, identities, "red")
        except ValueError:
            continue
        assert board_conflict(clue.word, visible, multi_word=False) is None
        assert " " not in clue.word


def test_a_team_without_agents_left_has_no_clue() -> None:
    with pytest.raises(ValueError):
        choose_clue(TABLE, ["bank"], {"bank": "blue"}, "red")


def test_a_hyphenated_association_is_never_a_one_word_clue() -> None:
    table = parse("clock\ttic-tac; alarm\nbell\tring; alarm\n", "en")
    clue = choose_clue(table, ["clock", "bell"], {"clock": "red", "bell": "blue"}, "red")
    assert clue.word == "alarm"  # "tic-tac" points at clock alone, but is two words


def test_a_spymaster_always_has_a_clue_even_when_every_link_evokes_the_assassin() -> None:
    # Ghost's only association, "vampire", evokes the assassin "bat": the bot looks wider in
    # the table for a legal clue that keeps clear of "bat" rather than stalling its seat.
    table = parse("ghost\tvampire\nbat\tvampire; cave\nbank\tmoney; river\n", "en")
    visible = ["ghost", "bat", "bank"]
    clue = choose_clue(table, visible, {"ghost": "red", "bat": "assassin", "bank": "blue"}, "red")
    assert clue.number == 1 and clue.intended == ("ghost",)
    assert clue.word != "vampire" and board_conflict(clue.word, visible, multi_word=False) is None
    assert table.score(clue.word, visible)["bat"] < 0.3


def test_with_nothing_clear_of_the_assassin_the_least_dangerous_clue_is_given() -> None:
    table = parse("ghost\tvampire\nbat\tvampire\n", "en")
    clue = choose_clue(table, ["ghost", "bat"], {"ghost": "red", "bat": "assassin"}, "red")
    assert clue.word == "vampire" and clue.number == 1


def test_cn32_in_the_cooperative_game_the_opponents_last_agents_are_as_lethal_as_the_assassin() -> None:
    # "ocean" links both red agents and evokes the blue "fish" only faintly: a fine clue,
    # until fish is one of the opponent's last agents (touching it could lose the game).
    table = parse(
        "wave\tocean; surf\nshore\tocean; sand\n"
        "fish\tnet; gill; fin; scale; pond; tank; bait; hook; cod; tuna; ocean\n",
        "en",
    )
    visible = ["wave", "shore", "fish"]
    identities = {"wave": "red", "shore": "red", "fish": "blue"}
    free = choose_clue(table, visible, identities, "red")
    assert free.word == "ocean" and free.number == 2
    careful = choose_clue(table, visible, identities, "red", lethal=frozenset({"assassin", "blue"}))
    assert careful.word != "ocean" and table.score(careful.word, ["fish"])["fish"] < 0.3


def test_issue23_with_nothing_linked_the_board_order_never_chooses_the_card() -> None:
    # ZEBRA links no card: the draw depends on the clue and the words, so the same board
    # dealt in any order gets the same card (a board-order touch would follow the deal).
    board = ["bank", "wave", "fish", "cup", "bat", "night", "ghost"]
    picks = {first_guess(TABLE, "zebra", order) for order in (board, board[::-1], board[3:] + board[:3])}
    assert len(picks) == 1
    assert {first_guess(TABLE, clue, board) for clue in ("zebra", "xylophone", "quasar", "yodel")} != {"bank"}


def test_issue23_cn15_with_nothing_linked_an_earlier_clue_of_the_team_reads_the_board() -> None:
    # ZEBRA links nothing; the team's earlier MONEY still points at bank (a leftover agent),
    # the opponents' OCEAN at wave and fish (likely theirs). Bank is the card, wherever dealt.
    log = [{"team": "red", "word": "money"}, {"team": "blue", "word": "ocean"}]
    for board in (["wave", "fish", "cup", "bank"], ["bank", "wave", "fish", "cup"]):
        assert first_guess(TABLE, "zebra", board, log, "red") == "bank"
    # For the opponents the same log reads the other way: wave or fish, never bank.
    assert first_guess(TABLE, "zebra", ["bank", "wave", "fish", "cup"], log, "blue") in {"wave", "fish"}


def _guess_view(words: list[str], clue: str, made: int, log: list[dict]) -> dict:
    cards = [{"position": n, "word": w, "covered": False, "identity": None} for n, w in enumerate(words)]
    entry = {"team": "red", "word": clue, "number": 2, "guesses": [], "rejected": False}
    return {
        "phase": "guess",
        "turn": 4,
        "team": "red",
        "mode": "standard",
        "cards": cards,
        "clue": entry,
        "guesses_made": made,
        "log": [*log, entry],
        "proposals": {},
    }


def test_issue23_cn12_a_bot_operative_owes_one_guess_then_ends_a_turn_with_nothing_linked() -> None:
    words = ["wave", "fish", "cup", "bank"]
    log = [{"team": "red", "word": "money", "number": 1, "guesses": [], "rejected": False}]
    # A clue neither the table nor what people know links to any card (a person's
    # knowledge reads ZEBRA as a fish: zebrafish).
    first, _ = decide(_guess_view(words, "blorptastic", 0, log), "bot", "red", "operative", TABLE)
    assert first == {"action": "propose", "turn": 4, "position": 3}  # bank, by MONEY (CN-15)
    later, _ = decide(_guess_view(words, "blorptastic", 1, log), "bot", "red", "operative", TABLE)
    assert later == {"action": "end_turn", "turn": 4}  # the guess owed is made: stop (CN-12)


def test_issue23_a_spymaster_never_gives_a_clue_whose_strongest_card_is_to_avoid() -> None:
    # Cup's only links point harder at the opponents' café ("coffee" is café's first link
    # as well as cup's) or at bat ("night"): no clue of cup's own list puts cup first.
    table = parse(
        "cup\tcoffee; night\ncafé\tcoffee; croissant\nbat\tnight; cave\n"
        "trophy\tcup; winner; medal\nmoon\tnight; crater\n",
        "en",
    )
    visible = ["cup", "café", "bat"]
    identities = {"cup": "red", "café": "blue", "bat": "bystander"}
    clue = choose_clue(table, visible, identities, "red")
    scores = table.score(clue.word, visible)
    assert clue.word not in {"coffee", "night"}
    assert scores["cup"] > max(scores["café"], scores["bat"]) and clue.intended == ("cup",)


def test_issue23_a_word_of_a_several_word_entry_evokes_its_card() -> None:
    # GUARDA → chuva: "guarda-chuva" is listed under rain, so its first word points there,
    # more faintly than the whole entry does; a word every card's entries share does not.
    table = parse("chuva\tnuvem; guarda-chuva\nsol\tpraia; guarda-sol\nmar\tonda\n", "pt-br")
    scores = table.score("guarda", ["chuva", "mar"])
    assert 0 < scores["chuva"] < table.score("guarda-chuva", ["chuva"])["chuva"] and scores["mar"] == 0


def test_issue23_a_half_of_a_compound_evokes_its_card_both_ways() -> None:
    # "isbjörn" under björn: IS (a pack word too) points at björn. SNÖGUBBE, unknown as a whole, is cut into
    # two known words and evokes what "snö" (a pack word) evokes: morot, through its list.
    table = parse("björn\tide; isbjörn\nis\tkall\nsnö\tvinter; kall\nmorot\tkanin; snö; gubbe\n", "sv")
    assert table.score("is", ["björn"])["björn"] > 0
    assert table.score("snögubbe", ["morot", "björn"])["morot"] > 0
    assert table.score("snögubbe", ["björn"])["björn"] == 0


def test_issue23_a_verb_reaches_the_card_of_its_noun() -> None:
    # COSTURAR → agulha: agulha lists "costura"; the verb shares its root. SEWING → thread
    # through "sew", and FLIPPED → coin through "flip" (English doubles the consonant).
    pt = parse("agulha\tlinha; costura\nmar\tonda\n", "pt-br")
    # At least through the root; the lemma table may verify the form outright (costura is
    # also the verb's present), which weighs more.
    scores = pt.score("costurar", ["agulha", "mar"])
    assert scores["agulha"] >= 0.45 * 0.97 and scores["mar"] == 0.0
    en = parse("thread\tneedle; sew\ncoin\tmoney; flip\nsea\twave\n", "en")
    assert en.score("sewing", ["thread", "sea"])["thread"] > 0
    assert en.score("flipped", ["coin", "sea"])["coin"] > 0
    assert en.score("flipped", ["sea"])["sea"] == 0
