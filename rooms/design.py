"""The design system's tokens, read from the one place they live: static/css/app.css's :root
blocks (light, and dark under prefers-color-scheme). The design sheet (/design/) shows them
and tests/test_design.py holds them to their contracts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings

LIGHT = re.compile(r"^:root \{(.*?)^\}", re.S | re.M)
DARK = re.compile(r"@media \(prefers-color-scheme: dark\) \{\s*(?:/\*.*?\*/\s*)?:root \{(.*?)\}", re.S)
DECLARATION = re.compile(r"(--[a-z0-9-]+)\s*:\s*([^;]+);")
COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass(frozen=True)
class Token:
    name: str
    light: str
    dark: str  # the same as light where the dark scheme keeps it

    @property
    def colour(self) -> bool:
        return self.light.startswith("#")


def declarations(block: str) -> dict[str, str]:
    """``--name: value`` pairs of a CSS block, its comments left out."""
    return {name: value.strip() for name, value in DECLARATION.findall(COMMENT.sub("", block))}


@cache
def tokens(path: Path | None = None) -> list[Token]:
    """Every token of app.css, in its order, with its light and dark value."""
    css = (path or Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text("utf-8")
    light_block, dark_block = LIGHT.search(css), DARK.search(css)
    if light_block is None or dark_block is None:
        raise ValueError("app.css has no :root block for light and dark")
    light, dark = declarations(light_block.group(1)), declarations(dark_block.group(1))
    return [Token(name, value, dark.get(name, value)) for name, value in light.items()]
