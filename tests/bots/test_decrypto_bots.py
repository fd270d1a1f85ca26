"""The Decrypto players' reasoning on small hand-made tables, and the generated layer's build."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from bots import build
from bots.associations import parse
from bots.decrypto import accept, decide, decipher, encrypt, guess_keywords, intercept, position_links
from decrypto import engine
from decrypto.engine.text import loose_key

TABLE = parse(
    "ocean\twave; surf; tide; salt; whale; deep; blue; ship; coral; reef; shore; sailor; atlantic; pacific;"
    " current; abyss\n"
    "fire\tflame; smoke; heat; ash; match; camp; burn; red\n"
    "clock\ttime; tick; hour; alarm; hand; tower; watch; cuckoo\n"
    "bread\tloaf; crust; flour; bake; toast; butter; yeast; crumb\n"
    "piano\tkeys; pedal; chord; grand; concert; tune; ivory; bench\n"
    "snow\tflake; winter; cold; ski; white; frost; sled; ice\n"
    "moon\tnight; crescent; lunar; astronaut; tides; werewolf; orbit; eclipse\n"
    "garden\tflower; hose; rake; shed; gnome; lawn; seed; hedge\n",
    "en",
)
KEYWORDS = ["ocean", "fire", "clock", "bread"]
NO_SHEET: dict[str, Any] = {"rows": [], "by_position": {"1": [], "2": [], "3": [], "4": []}}


def _sheet(*rounds: tuple[tuple[int, ...], tuple[str, ...]]) -> dict[str, Any]:
    by_position: dict[str, list[dict[str, Any]]] = {"1": [], "2": [], "3": [], "4": []}
    for number, (code, clues) in enumerate(rounds, start=1):
        for digit, clue in zip(code, clues, strict=True):
            by_position[str(digit)].append({"round": number, "clue": clue})
    return {"rows": [{"clues": list(clues)} for _c, clues in rounds], "by_position": by_position}


def test_dc7_dc17_the_encryptor_gives_three_legal_clues_that_its_team_reads() -> None:
    used = ["wave", "flame"]
    hints = encrypt(TABLE, KEYWORDS, (2, 4, 1), used, NO_SHEET, random.Random(1))
    assert [h.keyword for h in hints] == ["fire", "bread", "ocean"]
    clues = [h.clue for h in hints]
    assert len(set(clues)) == 3 and not set(clues) & set(used)  # DC-17: never a team's old clue
    assert all(loose_key(c) not in {loose_key(k) for k in KEYWORDS} for c in clues)
    assert decipher(TABLE, clues, KEYWORDS, NO_SHEET) == (2, 4, 1)


def test_dc17_never_a_keyword_nor_a_word_built_on_it() -> None:
    # "flame" is no word built on FIRE, but a near-synonym anyone reads (issue 32): never given either.
    table = parse("fire\tfireman; FIRE; campfire; flame; match\nwater\train\n", "en")
    hints = encrypt(table, ["fire", "water", "x", "y"], (1, 2, 3), [], NO_SHEET, random.Random(0))
    assert hints[0].clue == "match" and hints[1].clue == "rain"
    # A keyword the table does not know (a room's own word) still gets a legal clue.
    assert hints[2].clue and loose_key(hints[2].clue) not in {"x", "y", "fire", "water"}


def test_the_encryptor_keeps_away_from_its_earlier_clues_when_it_can() -> None:
    # Position 1 already had "surf": any obvious link to ocean (its first associations)
    # would tie the new clue to it for the opponents; a deeper one still reads as ocean
    # for the team, which knows its keywords.
    sheet = _sheet(((1, 2, 3), ("surf", "smoke", "tick")))
    used = ["surf", "smoke", "tick"]
    choices = {encrypt(TABLE, KEYWORDS, (1, 2, 3), used, sheet, random.Random(s))[0].clue for s in range(10)}
    assert choices <= {"current", "abyss"}
    # With no earlier clue at its position, not the links everyone makes either (issue 23:
    # each later clue would be read through them): the middle and end of the list.
    fresh = {encrypt(TABLE, KEYWORDS, (1, 2, 3), [], NO_SHEET, random.Random(s))[0].clue for s in range(10)}
    ocean = [a for a, _w in TABLE.words["ocean"]]
    assert fresh and not fresh & set(ocean[:8])
    assert all(decipher(TABLE, [clue, "ash", "tick"], KEYWORDS, NO_SHEET) == (1, 2, 3) for clue in fresh)


def test_dc10_a_team_deciphers_its_own_code_from_its_keywords() -> None:
    assert decipher(TABLE, ["toast", "tide", "alarm"], KEYWORDS, NO_SHEET) == (4, 1, 3)


def test_interception_reads_the_public_sheet_and_never_its_own_keywords() -> None:
    sheet = _sheet(((1, 2, 3), ("wave", "flame", "time")), ((4, 1, 2), ("loaf", "surf", "smoke")))
    assert intercept(TABLE, ["tide", "tick", "ash"], sheet) == (1, 3, 2)
    # "snow" is our own keyword: a link through it is no evidence about their positions.
    snowy = _sheet(((1, 2, 3), ("flake", "time", "loaf")))
    assert intercept(TABLE, ["winter", "tick", "crust"], snowy, own_keywords=["snow"])[1:] == (2, 3)


def test_dc25_keyword_guesses_and_fair_judging() -> None:
    sheet = _sheet(((1, 2, 3), ("wave", "flame", "time")), ((1, 2, 3), ("surf", "smoke", "tick")))
    assert guess_keywords(TABLE, sheet, ["snow"])[:3] == ["ocean", "fire", "clock"]
    assert accept(TABLE, ["oceans", "fire", "", "toast"], KEYWORDS, [False, True, False, False]) == [1]


def _game(white: list[str], black: list[str], mode: engine.Mode = engine.Mode.STANDARD) -> engine.State:
    words = [w for w in TABLE.words]
    return engine.new_game(words=words, seed=5, white=white, black=black, rules=engine.Rules(mode=mode))


def test_a_bot_alone_on_a_task_locks_it_and_suggests_it_when_people_share_it() -> None:
    state = _game(["ann", "bot1", "bot2"], ["bot3", "bot4"])
    for player in ("ann", "bot3"):
        view = engine.view_for(state, player=player)
        if player == "ann":
            clues = ("alpha", "bravo", "delta")
        else:
            message = decide(view, TABLE, bots={"bot1", "bot2", "bot3", "bot4"})
            assert message is not None and message["action"] == "submit_clues"
            clues = tuple(message["clues"])
        state = engine.apply(state, player, engine.SubmitClues(1, "clues", clues), now=0.0)
    # White's code: bot1 and bot2 decipher it together: all bots, so the first one locks.
    view = engine.view_for(state, player="bot1")
    message = decide(view, TABLE, bots={"bot1", "bot2", "bot3", "bot4"})
    assert message is not None and message["action"] == "lock_guess" and message["guessing_for"] == "white"
    # Were bot2 a person, bot1 would only suggest a guess, beside a draft it leaves to them
    # (issue 29): the suggestion reaches its team alone, and the bot says it once.
    hint = decide(view, TABLE, bots={"bot1", "bot3", "bot4"})
    assert hint is not None and hint["action"] == "suggest_guess" and len(set(hint["code"])) == 3
    move = engine.SuggestGuess(1, "guess", engine.Team.WHITE, tuple(hint["code"]))
    with pytest.raises(engine.RuleError) as refused:  # the game knows no bots here
        engine.apply(state, "bot1", move, now=0.0)
    assert refused.value.code == "not_a_bot"  # a person writes the draft itself
    mixed = engine.apply(replace(state, bots=frozenset({"bot1", "bot3", "bot4"})), "bot1", move, now=0.0)
    seen = engine.view_for(mixed, player="bot2")["current"]["guess"]
    assert seen["suggestions"] == [{"player": "bot1", "code": hint["code"]}]
    assert seen["draft"] == [None, None, None]
    assert "suggestions" not in json.dumps(engine.view_for(mixed, player="bot3"))
    assert decide(engine.view_for(mixed, player="bot1"), TABLE, bots={"bot1", "bot3", "bot4"}) is None
    # Ann encrypts: nothing is asked of her teammates' bots in the clue phase any more,
    # and the opponents' bot never sees White's code before the reveal.
    assert decide(engine.view_for(state, player="bot3"), TABLE, bots={"bot3"}) is None


def test_the_lone_interceptor_bot_intercepts_from_round_two() -> None:
    state = _game(["bot1", "bot2"], ["bot3"], engine.Mode.INTERCEPTOR)
    everyone = {"bot1", "bot2", "bot3"}
    moves = 0
    while state.round < 3 and state.phase is not engine.Phase.OVER:
        for player in ("bot1", "bot2", "bot3"):
            message = decide(engine.view_for(state, player=player), TABLE, bots=everyone)
            if message is not None:
                action = engine.action_from_json(message)
                state = engine.apply(state, player, action, now=0.0)
                moves += 1
                break
        else:
            raise AssertionError("no bot could move")
    rounds = [r for r in state.history if r.round == 2]
    assert rounds and rounds[0].interception is not None  # DC-41: round 2 is intercepted
    assert state.history[0].interception is None  # DC-11: round 1 is not


def test_build_reads_a_mythes_thesaurus_and_keeps_common_one_word_candidates() -> None:
    text = (
        "UTF-8\n"
        "ace|2\n"
        "(noun)|expert|hotshot|I|ace of spades|wizard (similar term)|aceman\n"
        "(noun)|one|single (generic term)|unity (antonym)\n"
        "ghost|1\n"
        "(noun)|spirit|spook\n"
    )
    thesaurus = build.parse_mythes(text)
    rare = {"hotshot": 2.0}
    found = build.candidates("Ace", thesaurus, lemma=lambda w: w, zipf=lambda w: rare.get(w, 4.0))
    words = {c.word: c for c in found}
    # Too rare, too short, several words, or built on the pack word: dropped.
    assert set(words) == {"expert", "wizard", "one", "single", "unity"}
    assert words["expert"].relation == "synonym" and words["wizard"].relation == "similar"
    assert words["single"].relation == "broader" and words["unity"].relation == "opposite"
    assert words["expert"].weight > words["one"].weight  # a later sense weighs less
    assert all(c.weight < 0.4 for c in found)  # below every authored link
    rendered = build.render("en", "a notice. Licence: test", [("ace", found), ("ghost", [])])
    assert "# Source: a notice. Licence: test" in rendered and "\nghost\t" not in rendered
    table = parse(rendered + "ace\t!expert\n", "en")  # the layer parses as a table
    assert table.score("wizard", ["ace"])["ace"] > 0


def test_an_authored_removal_drops_a_generated_link() -> None:
    table = parse("ace\tcard; !crack\nace\tcrack|0.38|synonym; expert|0.38|synonym\n", "en")
    assert table.score("crack", ["ace"])["ace"] == 0
    assert table.score("expert", ["ace"])["ace"] == 0.38
    assert table.score("card", ["ace"])["ace"] == 1.0


def test_against_a_persons_clues_the_interceptor_uses_everything_it_knows() -> None:
    # "abyss" and "current" are deep in ocean's list: a bot's own discretion hides them
    # from another bot, but a person's clues are read with the whole table.
    sheet = _sheet(((1, 2, 3), ("abyss", "flame", "time")))
    assert intercept(TABLE, ["current", "loaf", "tick"], sheet, obvious=False)[0] == 1
    assert position_links(TABLE, "current", sheet["by_position"], obvious=True)[0] == 0
    assert position_links(TABLE, "current", sheet["by_position"])[0] > 0
