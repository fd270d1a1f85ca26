"""Every game kept (issue 22): the move log, the room's finished games, replays, exports
rebuilt by the engine alone, and stats; nothing of a running game's log is served."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.utils import translation
from django.utils.html import escape

from bots import play as bot_play
from bots import seats
from codenames import engine as codenames_engine
from codenames.models import CodenamesGame
from decrypto import engine as decrypto_engine
from decrypto.models import DecryptoGame
from rooms import changes, history, play, services
from rooms.models import GameMove, Player, Room

pytestmark = pytest.mark.django_db(transaction=True)

CODENAMES_BOTS = [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")]


def _bots_play(slug: str, limit: int = 800) -> None:
    later = time.time() + 3600  # every bot's think time has passed
    for _ in range(limit):
        if bot_play.step(later) == 0:
            break


def codenames_room(slug: str) -> None:
    """A Codenames room of four bots, dealt by a person who then watches."""
    services.room_join(slug=slug, uid="host", name="Host", game="codenames", language="en", seat="red")
    for team, role in CODENAMES_BOTS[2:]:
        seats.add_bot(slug=slug, uid="host", team=team, role=role)
    seats.add_bot(slug=slug, uid="host", team="red", role="operative")
    services.room_sit(slug=slug, uid="host", team="red", role="spymaster")
    with changes.locked_room(slug) as room:
        host = Player.objects.get(room=room, uid="host")
        play.act(room, changes.room_players(room), host, {"action": "start_game"})
    services.room_sit(slug=slug, uid="host", team="", role="spectator")
    seats.add_bot(slug=slug, uid="host", team="red", role="spymaster")


def decrypto_room(slug: str) -> None:
    services.room_join(slug=slug, uid="host", name="Host", game="decrypto", language="en", seat="watch")
    for team in ("white", "white", "black", "black"):
        seats.add_bot(slug=slug, uid="host", team=team, role="player")
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        dealer = next(p for p in players if p.bot)
        play.act(room, players, dealer, {"action": "start_game"})


def test_a_finished_codenames_export_rebuilds_the_final_state_with_the_engine() -> None:
    codenames_room("kept-cn")
    _bots_play("kept-cn")
    record = CodenamesGame.objects.get(room__slug="kept-cn")
    assert record.finished
    room = Room.objects.get(slug="kept-cn")
    played = history.finished_game(room, 1)
    assert played is not None
    data = json.loads(json.dumps(history.export(room, played)))
    rebuilt = codenames_engine.replay(data["deal"], data["moves"])
    assert codenames_engine.state_to_json(rebuilt) == record.state
    assert [m["step"] for m in data["moves"]] == list(range(1, record.steps + 1))


def test_a_finished_decrypto_export_rebuilds_the_final_state_with_the_engine() -> None:
    decrypto_room("kept-dc")
    _bots_play("kept-dc")
    record = DecryptoGame.objects.get(room__slug="kept-dc")
    assert record.finished
    room = Room.objects.get(slug="kept-dc")
    played = history.finished_game(room, 1)
    assert played is not None
    data = json.loads(json.dumps(history.export(room, played)))
    rebuilt = decrypto_engine.replay(data["deal"], data["moves"])
    assert decrypto_engine.state_to_json(rebuilt) == record.state


def _bots_to_decrypto(slug: str) -> None:
    """The room's next game is Decrypto, the same bots seated (red → white, blue → black)."""
    services.room_set_game(slug=slug, uid="host", game="decrypto")
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        dealer = next(p for p in players if p.bot)
        play.act(room, players, dealer, {"action": "start_game"})


def test_a_room_keeps_a_codenames_and_a_decrypto_game_lists_replays_and_exports_both(client: Any) -> None:
    slug = "kept-both"
    codenames_room(slug)
    _bots_play(slug)
    _bots_to_decrypto(slug)
    _bots_play(slug)
    cn = CodenamesGame.objects.get(room__slug=slug)
    dc = DecryptoGame.objects.get(room__slug=slug)
    assert cn.finished and dc.finished

    page = client.get(f"/r/{slug}/games/").content.decode()
    # Newest first: the Decrypto game (#2) above the Codenames game (#1).
    assert page.index('id="game-2"') < page.index('id="game-1"')
    assert f'href="/r/{slug}/games/1/"' in page and f'href="/r/{slug}/games/2.json"' in page
    assert page.count('class="bot-mark"') >= 8  # four bots in each game, marked

    for ordinal, record, engine in ((1, cn, codenames_engine), (2, dc, decrypto_engine)):
        data = client.get(f"/r/{slug}/games/{ordinal}.json").json()
        assert data["format"] == history.EXPORT_FORMAT and data["number"] == record.number
        assert engine.state_to_json(engine.replay(data["deal"], data["moves"])) == record.state
        replay = client.get(f"/r/{slug}/games/{ordinal}/").content.decode()
        frames = json.loads(
            replay.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
        )
        # Every step worth showing is a frame, told in words, the last one the game's end.
        shown = [frame["step"] for frame in frames["frames"]]
        assert shown[0] == 0 and shown == sorted(shown) and shown[-1] == record.steps
        assert all(frame["label"] for frame in frames["frames"])
        assert frames["frames"][-1]["over"]

    cn_data = client.get(f"/r/{slug}/games/1.json").json()
    clues = [m for m in cn_data["moves"] if m["action"].get("action") == "give_clue"]
    guesses = [m for m in cn_data["moves"] if m["action"].get("action") == "confirm"]
    replay = client.get(f"/r/{slug}/games/1/").content.decode()
    data = json.loads(replay.split('id="replay-data" type="application/json">')[1].split("</script>")[0])
    # A frame per clue and per guess; each bot clue's intended words are on the board.
    assert len(data["frames"]) >= 1 + len(clues) + len(guesses)
    assert set(data["board"]["notes"]) == {str(i) for i in range(len(cn.state["log"]))}
    assert data["board"]["key"] == cn.state["key"]


def test_while_a_game_runs_its_replay_and_export_do_not_exist_and_no_page_shows_its_secrets(
    client: Any,
) -> None:
    slug = "kept-running"
    decrypto_room(slug)
    record = DecryptoGame.objects.get(room__slug=slug)
    keywords = [w for team in ("white", "black") for w in record.state["teams"][team]["keywords"]]

    def secrets_in(content: bytes) -> list[str]:
        # A keyword as a word of its own: "bat" is not found in "combat".
        text = content.decode().casefold()
        return [w for w in keywords if re.search(rf"(?<!\w){re.escape(w.casefold())}(?!\w)", text)]

    # Words that the same pages carry without any game (a keyword may be "table") tell
    # nothing: only the others are looked for.
    services.room_join(slug="kept-empty", uid="e", name="E", game="decrypto", language="en", seat="watch")
    baseline = set(secrets_in(client.get("/r/kept-empty/games/").content))
    baseline |= set(secrets_in(client.get("/r/kept-empty/games/1/").content))
    keywords = [w for w in keywords if w not in baseline]
    assert keywords
    paths = [
        f"/r/{slug}/games/1/",
        f"/r/{slug}/games/1.json",
        "/r/no-such-room/games/",
        "/r/no-such-room/games/1/",
    ]
    for path in paths:
        response = client.get(path)
        assert response.status_code == 404, path
        assert not secrets_in(response.content), path
    page = client.get(f"/r/{slug}/games/")
    assert page.status_code == 200
    assert b"A game is being played" in page.content
    assert not secrets_in(page.content)
    # The log holds the deal's keywords all the same: kept, not served.
    deal = GameMove.objects.get(room__slug=slug, step=0)
    assert deal.action["state"]["teams"]["white"]["keywords"] == record.state["teams"]["white"]["keywords"]


def decrypto_people(slug: str) -> None:
    """A Decrypto room of four people, dealt."""
    for i, team in enumerate(("white", "white", "black", "black")):
        services.room_join(slug=slug, uid=f"p{i}", name=f"P{i}", game="decrypto", language="en", seat=team)
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        play.act(room, players, players[0], {"action": "start_game"})


def test_each_move_and_each_passed_deadline_is_a_step_with_the_version_it_made() -> None:
    slug = "kept-steps"
    decrypto_people(slug)
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        record = DecryptoGame.objects.get(room=room)
        state = decrypto_engine.state_from_json(record.state)
        encryptor = Player.objects.get(public_id=state.turns.white.encryptor)
        play.act(
            room,
            players,
            encryptor,
            {"action": "save_draft", "round": 1, "phase": "clues", "clues": ["a", "", ""], "ref": "r1"},
        )
    room = Room.objects.get(slug=slug)
    step = GameMove.objects.get(room=room, step=1)
    assert step.kind == "move" and step.player == encryptor.public_id and not step.bot
    assert (step.name, step.team, step.role) == (encryptor.name, "white", "player")
    assert step.action == {"action": "save_draft", "round": 1, "phase": "clues", "clues": ["a", "", ""]}
    assert step.version == room.version
    # The sand timer (DC-8) runs out on the server's clock: a step with no seat.
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        record = DecryptoGame.objects.get(room=room)
        state = decrypto_engine.state_from_json(record.state)
        black = Player.objects.get(public_id=state.turns.black.encryptor)
        clues = ["one", "two", "three"]
        play.act(
            room, players, black, {"action": "submit_clues", "round": 1, "phase": "clues", "clues": clues}
        )
    record = DecryptoGame.objects.get(room__slug=slug)
    assert record.deadline is not None
    assert play.expire_due(play.get_game("decrypto"), record.deadline.timestamp() + 1) == 1
    record = DecryptoGame.objects.get(room__slug=slug)
    last = GameMove.objects.get(room__slug=slug, step=record.steps)
    assert (
        last.kind == "deadline" and last.player == "" and last.version == Room.objects.get(slug=slug).version
    )
    moves = list(GameMove.objects.filter(room__slug=slug, step__gt=0).order_by("step").values())
    deal = GameMove.objects.get(room__slug=slug, step=0).action["state"]
    assert decrypto_engine.state_to_json(decrypto_engine.replay(deal, moves)) == record.state


def test_the_log_goes_with_its_room() -> None:
    slug = "kept-gone"
    decrypto_room(slug)
    assert GameMove.objects.filter(room__slug=slug).exists()
    Room.objects.filter(slug=slug).delete()
    assert not GameMove.objects.filter(room__slug=slug).exists()


def test_the_admin_shows_a_running_games_log_without_its_secrets() -> None:
    from tests.rooms.test_admin_guard import _operator

    slug = "kept-admin"
    decrypto_room(slug)
    record = DecryptoGame.objects.get(room__slug=slug)
    keywords = [w for team in ("white", "black") for w in record.state["teams"][team]["keywords"]]
    operator = _operator()
    deal = GameMove.objects.get(room__slug=slug, step=0)
    pages = [operator.get("/admin/rooms/gamemove/"), operator.get(f"/admin/rooms/gamemove/{deal.pk}/change/")]

    def quoted(content: bytes) -> list[str]:
        # The action shows as its JSON, HTML-escaped: a keyword there is a quoted string.
        text = content.decode()
        return [w for w in keywords if f"&quot;{escape(w)}&quot;" in text or f'"{w}"' in text]

    for page in pages:
        assert page.status_code == 200
        assert not quoted(page.content)
    assert b"hidden until the game is over" in pages[1].content
    # Filters on the log's secret column are refused, whatever they would match.
    assert operator.get("/admin/rooms/gamemove/?action__contains=a").status_code == 400
    _bots_play(slug)
    assert DecryptoGame.objects.get(room__slug=slug).finished
    page = operator.get(f"/admin/rooms/gamemove/{deal.pk}/change/")
    assert quoted(page.content) == keywords


def test_the_history_pages_speak_the_rooms_languages() -> None:
    from django.test import Client

    slug = "kept-it"
    codenames_room(slug)
    _bots_play(slug)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    listing = client.get(f"/r/{slug}/games/").content.decode()
    assert "Partite passate" in listing and "Past games" not in listing
    assert "Statistiche" in listing and "Games played" not in listing
    replay = client.get(f"/r/{slug}/games/1/").content.decode()
    assert "Le carte sono distribuite." in replay and "The cards are dealt." not in replay
    assert "Passo successivo" in replay


def test_stats_count_clues_guesses_and_wins_people_and_bots_apart() -> None:
    slug = "kept-stats"
    codenames_room(slug)
    _bots_play(slug)
    room = Room.objects.get(slug=slug)
    record = CodenamesGame.objects.get(room=room)
    with translation.override("en"):
        lines, running, stats = history.room_history(room)
        title = str(stats[0][0])
    assert not running and len(lines) == 1
    ((_title, rows),) = stats
    assert title == "Codenames"
    table = dict(rows)
    clues = [entry for entry in record.state["log"] if not entry["rejected"]]
    # The host dealt as Red's spymaster, then a bot took the seat and gave every clue.
    assert table["Clues given by bots"] == str(len(clues))
    assert "Clues given by people" not in table
    numbers = [entry["number"] for entry in clues if entry["number"] is not None]
    assert table["Mean clue number (bots)"] == f"{sum(numbers) / len(numbers):.1f}"
    touched = sum(len(entry["guesses"]) for entry in record.state["log"])
    assert table["Cards touched per clue (bots)"] == f"{touched / len(clues):.1f}"
    winner = record.state["winner"]
    loser = "red" if winner == "blue" else "blue"
    assert table[f"Wins: {winner.title()}"] == "1" and table[f"Wins: {loser.title()}"] == "0"
    # Every bot of the winning team has a win; the host sat Red's spymaster at the deal.
    winners = {seat["name"] for seat in lines[0].seats if seat["team"] == winner and seat["bot"]}
    assert all(f"{name} 1" in table["Wins by bot"] for name in winners)
    assert ("Host 1" in table.get("Wins by person", "")) == (winner == "red")
    assert table["Games ended by the assassin"] == str(int(record.state["reason"] == "assassin"))


def test_an_export_is_saved_as_a_json_file_named_after_the_room_and_game(client: Any) -> None:
    slug = "saved-file"
    codenames_room(slug)
    _bots_play(slug)
    for asked in ("1", "001"):
        response = client.get(f"/r/{slug}/games/{asked}.json")
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        # Not inline: a phone would open it as a page instead of saving it.
        assert response["Content-Disposition"] == f'attachment; filename="{slug}-1.json"'
    # Both pages offer it as a download.
    for page in (f"/r/{slug}/games/", f"/r/{slug}/games/1/"):
        assert f'href="/r/{slug}/games/1.json" download="{slug}-1.json"' in client.get(page).content.decode()


def test_a_game_number_is_ascii_digits_leading_zeros_ignored_anything_else_404(client: Any) -> None:
    slug = "odd-numbers"
    codenames_room(slug)
    _bots_play(slug)
    assert CodenamesGame.objects.get(room__slug=slug).finished
    first = client.get(f"/r/{slug}/games/1.json")
    assert first.status_code == 200 and first.json()["ordinal"] == 1
    for same in ("01", "001"):
        assert client.get(f"/r/{slug}/games/{same}.json").json() == first.json()
        assert client.get(f"/r/{slug}/games/{same}/").status_code == 200
    # 0 and past the room's count are numbers no game has; 20 and 5000 digits (past
    # Python's int-parsing limit) are that too, never an overflow: no 500.
    for odd in ("0", "2", "99999999999999999999", "9" * 5000, "-1", "+1", "1.0", "1e0", "%201", "%D9%A1"):
        for url in (f"/r/{slug}/games/{odd}/", f"/r/{slug}/games/{odd}.json"):
            assert client.get(url).status_code == 404, url
