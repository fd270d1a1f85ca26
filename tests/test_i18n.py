"""Every page in five languages: catalogues complete, compiled in step, nothing left in English."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client

from rooms.services import room_join, room_sit
from tests.codenames.test_concurrency import _act

LOCALES = {"it": "it", "pt_BR": "pt-br", "ca": "ca", "sv": "sv"}
DOMAINS = ("django", "djangojs")
LOCALE_DIR = Path(settings.BASE_DIR) / "locale"


def _po(locale: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_is_at_least_95_percent_translated(locale: str, domain: str) -> None:
    po = _po(locale, domain)
    assert len(po) > 20
    assert po.percent_translated() >= 95, [e.msgid for e in po.untranslated_entries()][:10]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_compiled_catalogue_is_in_step_with_its_source(locale: str, domain: str) -> None:
    """A .po edited without compiling its .mo (run `make messages`) fails here."""
    po = _po(locale, domain)
    mo = polib.mofile(str(LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.mo"))

    def table(entries: list[polib.POEntry] | polib.MOFile) -> dict[tuple[str | None, str], object]:
        return {
            (e.msgctxt, e.msgid): (e.msgstr or tuple(sorted(e.msgstr_plural.items())))
            for e in entries
            if e.msgid and not e.obsolete and "fuzzy" not in e.flags and (e.msgstr or e.msgstr_plural)
        }

    assert table(mo) == table(po.translated_entries())


def _visible_text(page: str) -> str:
    """The page as people read it: no scripts (the state JSON), no tags, entities decoded."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def _pages(language: str) -> dict[str, str]:
    room_join(slug="babel", uid="babel-a", name="Ada", language=language)
    room_sit(slug="babel", uid="babel-a", team="red", role="spymaster")
    room_join(slug="babel", uid="babel-b", name="Bo")
    room_sit(slug="babel", uid="babel-b", team="red", role="operative")
    _act("babel", "Ada", {"action": "start_game"})
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    player = Client(HTTP_ACCEPT_LANGUAGE=language)
    player.post("/r/babel-player/join/", {"name": "Cy"})
    return {
        "home": visitor.get("/").content.decode(),
        "room (visitor)": visitor.get("/r/babel/").content.decode(),
        "room (player)": player.get("/r/babel-player/").content.decode(),
        "join error": player.post("/r/babel-player/join/", {"name": ""}).content.decode(),
        "not found": visitor.get("/r/x/").content.decode(),
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", LOCALES)
def test_pages_show_no_untranslated_english(locale: str) -> None:
    language = LOCALES[locale]
    translated = [
        e.msgid
        for e in _po(locale, "django").translated_entries()
        if e.msgstr != e.msgid and len(e.msgid.split()) >= 2 and "%(" not in e.msgid
    ]
    pages = _pages(language)
    for name, page in pages.items():
        assert f'lang="{language}"' in page, name
        text = _visible_text(page)
        left = [msgid for msgid in translated if msgid in text]
        assert left == [], (name, left)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "title"), [("it", "Nomi in codice"), ("pt-br", "Codinomes"),
                                                ("ca", "Codi secret"), ("sv", "Codenames")])  # fmt: skip
def test_games_keep_their_local_titles(language: str, title: str) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    assert title in page and "Decrypto" in page


@pytest.mark.django_db
def test_language_switcher_remembers_the_choice() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post("/i18n/setlang/", {"language": "sv", "next": "/"})
    assert 'lang="sv"' in client.get("/").content.decode()


def _catalogue_part(language: str, url: str) -> dict[str, str]:
    body = Client(HTTP_ACCEPT_LANGUAGE=language).get(url).content.decode()
    prefix = "window.wordroomsCatalog=Object.assign(window.wordroomsCatalog||{},"
    assert body.startswith(prefix)
    strings, _end = json.JSONDecoder().raw_decode(body[len(prefix) :])
    return dict(strings)


def test_javascript_catalogue_is_served_in_each_language_in_parts() -> None:
    """The site's strings on every page; each game's with its script, and no other's."""
    from rooms.catalogue import part_sources

    for locale, language in LOCALES.items():
        site = _catalogue_part(language, "/jsi18n/")
        codenames = _catalogue_part(language, "/jsi18n/codenames/")
        decrypto = _catalogue_part(language, "/jsi18n/decrypto/")
        assert "live" in site and "Give clue" in codenames and "Give clue" not in site
        assert len(site) > 20 and len(codenames) > 50 and len(decrypto) > 50
        # Every translated string a script uses is in one part the page loads.
        po = _po(locale, "djangojs")
        for entry in po.translated_entries():
            used_by = [
                part for part in ("site", "codenames", "decrypto") if entry.msgid in part_sources(part)
            ]
            if used_by:
                assert entry.msgid in site or all(entry.msgid in {"codenames": codenames,
                    "decrypto": decrypto}[part] for part in used_by), entry.msgid  # fmt: skip


# Issue 23: counts in each language's plural form ("Rossi: 1 rimasti" was Italian for one agent).
# (domain, singular, plural): every string that shows a number of things.
COUNTS = [
    ("djangojs", "%(n)s left", "%(n)s left"),
    ("djangojs", "%(n)s more guess", "%(n)s more guesses"),
    ("djangojs", "%(n)s keyword guessed", "%(n)s keywords guessed"),
    ("djangojs", "%(n)s line from muted people hidden", "%(n)s lines from muted people hidden"),
    ("djangojs", "Chat, %(n)s unread", "Chat, %(n)s unread"),
    ("djangojs", "Words: %(language)s, %(n)s of your own", "Words: %(language)s, %(n)s of your own"),
    (
        "djangojs",
        "Used from the next game, which needs at least %(n)s of your own word.",
        "Used from the next game, which needs at least %(n)s of your own words.",
    ),
    (
        "djangojs",
        "Timer: when one Encryptor has sent, the other has %(n)s second.",
        "Timer: when one Encryptor has sent, the other has %(n)s seconds.",
    ),
    ("djangojs", "At most %(n)s character.", "At most %(n)s characters."),
    ("django", "A room can have at most %(limit)s bot.", "A room can have at most %(limit)s bots."),
    ("django", "Names are at most %(limit)s character.", "Names are at most %(limit)s characters."),
    (
        "django",
        "This room is full (%(limit)s person): open another room.",
        "This room is full (%(limit)s people): open another room.",
    ),
    (
        "django",
        "“%(word)s” is too long: at most %(limit)s character.",
        "“%(word)s” is too long: at most %(limit)s characters.",
    ),
    ("django", "At most %(limit)s word.", "At most %(limit)s words."),
    ("django", "Messages are at most %(limit)s character.", "Messages are at most %(limit)s characters."),
    (
        "django",
        "House notes are at most %(limit)s character.",
        "House notes are at most %(limit)s characters.",
    ),
    (
        "django",
        "The word list needs at least %(needed)s different word.",
        "The word list needs at least %(needed)s different words.",
    ),
]
# Numbers in scripts' gettext strings that count nothing: ordinals, labels, a unit ("s").
NOT_COUNTS = {
    "%(team)s's keyword %(n)s",
    "Codenames · game %(n)s",
    "Decrypto · game %(n)s",
    "Digit for clue %(n)s",
    "Interceptions %(n)s/2",
    "Miscommunications %(n)s/2",
    "R%(n)s",
    "Reconnecting in %(s)s s…",
    "Round %(r)s of %(n)s",
    "Round %(r)s",
    "Your team's private note on position %(n)s",
    "code, round %(r)s",
    "shared victories: %(n)s",
}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _scripts() -> str:
    from rooms.catalogue import part_sources

    return "\n".join(part_sources(part) for part in ("site", "codenames", "decrypto"))


@pytest.mark.parametrize("locale", LOCALES)
def test_issue23_every_count_has_both_plural_forms_in_every_catalogue(locale: str) -> None:
    catalogues = {domain: _po(locale, domain) for domain in DOMAINS}
    for domain, singular, plural in COUNTS:
        entry = catalogues[domain].find(singular)
        assert entry is not None and entry.msgid_plural == plural, (locale, singular)
        forms = entry.msgstr_plural
        assert sorted(forms) == [0, 1] and all(forms.values()), (locale, singular, forms)
        for form in forms.values():  # the same placeholders, the count among them
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(plural)), (locale, form)


def test_issue23_scripts_build_counts_with_ngettext_only() -> None:
    """Browser-free: each count reaches the page through ngettext (both forms in the source,
    for makemessages), and no script picks a form itself or sends a count through gettext."""
    source = _scripts()
    for domain, singular, plural in COUNTS:
        if domain == "djangojs":
            assert f'ngettext("{singular}", "{plural}", ' in source, singular
    assert not re.search(r"[=!]==? ?1 \? (?:_|interpolate)\(", source)  # English's rule only
    counted = set(re.findall(r'\b_\("([^"]*%\((?:n|count|s)\)s[^"]*)"\)', source))
    assert counted <= NOT_COUNTS, counted - NOT_COUNTS


@pytest.mark.parametrize(
    ("language", "rule", "forms"),
    [
        ("it", "(n != 1)", ["%(n)s rimasto", "%(n)s rimasti"]),
        ("pt-br", "(n > 1)", None),
        ("en", "(n != 1)", None),
    ],
)
def test_issue23_the_browser_gets_each_languages_plural_rule_and_forms(
    language: str, rule: str, forms: list[str] | None
) -> None:
    site = Client(HTTP_ACCEPT_LANGUAGE=language).get("/jsi18n/").content.decode()
    assert "window.ngettext=function(s,p,n)" in site and f"i=({rule});" in site
    codenames = _catalogue_part(language, "/jsi18n/codenames/")
    if forms is not None:
        assert codenames["%(n)s left"] == forms
    if language == "en":
        assert "%(n)s left" not in codenames  # English falls back to the source's two forms


@pytest.mark.parametrize(
    ("limit", "text"), [(1, "al massimo 1 carattere."), (30, "al massimo 30 caratteri.")]
)
def test_issue23_server_messages_count_in_the_readers_language(limit: int, text: str) -> None:
    from rooms.games import WordRules
    from rooms.i18n import render_message
    from rooms.services import _words_error

    error = _words_error("too_long:abc", WordRules(minimum=8, max_length=limit, spaces=False))
    assert render_message(error.message, error.params, "it") == f"“abc” è troppo lunga: {text}"
    assert render_message(error.message, error.params, "en").endswith(
        "at most 1 character." if limit == 1 else f"at most {limit} characters."
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_a_team_tab_names_the_team_once(locale: str) -> None:
    """Issue 29: pt-br read "Equipe Equipe Branca" (its team names already say "Equipe")."""
    po = _po(locale, "djangojs")
    frame = po.find("%(symbol)s %(team)s team").msgstr
    words = [w.casefold() for w in re.sub(r"%\(\w+\)s", " ", frame).split()]
    for english in ("White", "Black", "Red", "Blue"):
        team = po.find(english).msgstr.casefold()
        assert not [w for w in words if w in team], (frame, team)


def test_italian_headings_in_sentence_case_and_rounds_counted_naturally() -> None:
    po = _po("it", "djangojs")
    assert po.find("%(team)s's sheet").msgstr == "Foglio degli appunti della %(team)s"
    assert po.find("Round %(r)s of %(n)s").msgstr == "Round %(r)s su %(n)s"
