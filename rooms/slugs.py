"""Room names: what a valid slug is, and memorable random ones for new rooms."""

import re
import secrets

SLUG_RE = re.compile(r"^[a-z0-9-]{3,40}$")
# Accepts any case so that /r/Game-Night/ can be redirected to its lowercase room.
SLUG_ANY_CASE_RE = re.compile(r"^[A-Za-z0-9-]{3,40}$")

_ADJECTIVES = (
    "amber azure brave bright brisk calm clever cosmic crisp curious dapper dusty eager fancy "
    "fuzzy gentle giddy golden happy hazel humble jolly lively lucky mellow merry misty nimble "
    "noble plucky polar quick quiet rapid rosy rusty shiny silent silver snowy sunny swift tidy "
    "velvet vivid witty zesty"
).split()
_NOUNS = (
    "otter falcon badger heron lynx panda walrus beaver comet ember fjord harbor lantern maple "
    "meadow nebula orchid pebble quill raven saffron tundra willow yak zephyr acorn bison cedar "
    "dolphin eagle ferret gecko ibis jackal koala lemur marmot newt osprey puffin robin seal "
    "tapir urchin viper wombat"
).split()


def is_valid_slug(slug: str) -> bool:
    return bool(SLUG_RE.fullmatch(slug))


def random_slug() -> str:
    """A slug like ``amber-otter-17``: easy to read aloud across a table."""
    return f"{secrets.choice(_ADJECTIVES)}-{secrets.choice(_NOUNS)}-{secrets.randbelow(90) + 10}"
