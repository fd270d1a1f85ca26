"""The rulebook in the repository (docs/rules/): every rule the project cites is defined there.

Rules are numbered CN-… (Codenames) and DC-… (Decrypto); secrecy rules are CN-S… and DC-S….
The project cites them in comments, docstrings, templates, scripts and docs ("(CN-10)",
"DC-S1..DC-S3": a range cites its two ends) and in test names, where ``cn13`` is CN-13,
``cns1`` or ``cn_s1`` is CN-S1 and ``test_dcs1_dcs3_…`` names both DC-S1 and DC-S3.

``python -m tests.test_rulebook`` prints a report: the rules no test names, and any id
cited but not defined. It needs neither Django nor pytest, and exits 1 when an id is
undefined or the rulebook is malformed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"
# The games' rulebooks and the prefix of their ids.
BOOKS = {"codenames.md": "CN", "decrypto.md": "DC"}

# An id as prose writes it: CN-10, DC-S2 (upper case only: "dc-clue-1" is a CSS class).
CITED_ID = re.compile(r"\b(CN|DC)-(S?\d+)\b")
# A rule's definition: a list item that opens with the bold id, "- **CN-10 Title.** …".
RULE_LINE = re.compile(r"^- \*\*((CN|DC)-(S?\d+))\b")
SECTION_LINE = re.compile(r"^## ")
TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(test_\w+)\s*\(", re.MULTILINE)
# One id inside a test name, split on "_": "cn13", "cns1", "dcs1"; or "cn" then "s1"/"13".
NAME_TOKEN = re.compile(r"^(cn|dc)(s?\d+)$")
NAME_PREFIX = re.compile(r"^(cn|dc)$")
NAME_NUMBER = re.compile(r"^s?\d+$")

# Never scanned for citations: the rulebook itself, caches and build output.
SKIP_DIRS = {
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "staticfiles",
    "test-artifacts",
    "screenshots",
}
SKIP_SUFFIXES = {".mo", ".pyc", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".woff", ".woff2", ".pdf"}


@dataclass(frozen=True)
class Rule:
    id: str
    book: str
    section: str
    line: int


def rule_key(rule_id: str) -> tuple[str, int, int]:
    """Sort key: prefix, then numbered rules before secrecy rules, then the number."""
    prefix, number = rule_id.split("-", 1)
    secret = number.startswith("S")
    return prefix, int(secret), int(number.lstrip("S"))


def rulebook() -> list[Rule]:
    """Every rule defined in docs/rules/, in the order written."""
    rules = []
    for book in BOOKS:
        section = ""
        for number, line in enumerate((RULES_DIR / book).read_text(encoding="utf-8").splitlines(), 1):
            if SECTION_LINE.match(line):
                section = line[3:].strip()
            elif match := RULE_LINE.match(line):
                rules.append(Rule(match.group(1), book, section, number))
    return rules


def defined_ids() -> set[str]:
    return {rule.id for rule in rulebook()}


def ids_in_text(text: str) -> set[str]:
    return {f"{m.group(1)}-{m.group(2)}" for m in CITED_ID.finditer(text)}


def ids_in_test_name(name: str) -> set[str]:
    """The rules a test name cites: test_cn20_cn21_… → CN-20, CN-21; test_cn_s3_… → CN-S3."""
    tokens = name.split("_")
    found = set()
    for index, token in enumerate(tokens):
        if match := NAME_TOKEN.match(token):
            found.add(f"{match.group(1).upper()}-{match.group(2).upper()}")
        elif NAME_PREFIX.match(token) and index + 1 < len(tokens) and NAME_NUMBER.match(tokens[index + 1]):
            found.add(f"{token.upper()}-{tokens[index + 1].upper()}")
    return found


def _git_files() -> list[Path] | None:
    """Tracked files and new ones not ignored (another engineer's work in progress counts)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [ROOT / name for name in sorted(set(listed.decode().split("\0"))) if name]


def _walked_files() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in parts[:-1]):
            continue
        if path.is_file():
            found.append(path)
    return found


def project_files() -> Iterator[tuple[str, str]]:
    """(relative path, text) of every text file of the project outside docs/rules/."""
    files = _git_files()
    for path in files if files is not None else _walked_files():
        relative = path.relative_to(ROOT)
        if relative.parts[:2] == ("docs", "rules") or path.suffix in SKIP_SUFFIXES:
            continue
        if any(part in SKIP_DIRS for part in relative.parts[:-1]) or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary, or gone while we looked
        yield relative.as_posix(), text


def citations() -> dict[str, set[str]]:
    """Rule id → the places citing it: "path" for prose, "path::test_name" for a test name."""
    cited: dict[str, set[str]] = {}
    for path, text in project_files():
        for rule_id in ids_in_text(text):
            cited.setdefault(rule_id, set()).add(path)
        if path.endswith(".py"):
            for name in TEST_DEF.findall(text):
                for rule_id in ids_in_test_name(name):
                    cited.setdefault(rule_id, set()).add(f"{path}::{name}")
    return cited


def rule_tests() -> dict[str, set[str]]:
    """Rule id → the tests named after it."""
    named: dict[str, set[str]] = {}
    for rule_id, places in citations().items():
        tests = {place for place in places if "::" in place}
        if tests:
            named[rule_id] = tests
    return named


def undefined() -> dict[str, set[str]]:
    defined = defined_ids()
    return {rule_id: places for rule_id, places in citations().items() if rule_id not in defined}


def untested() -> list[str]:
    """Rules that no test is named after, in rulebook order."""
    named = rule_tests()
    return [rule.id for rule in rulebook() if rule.id not in named]


def problems() -> list[str]:
    """What makes the rulebook malformed: duplicates, ids out of order or in the wrong book,
    and references inside the rulebook to rules it does not define."""
    found = []
    seen: dict[str, Rule] = {}
    previous: Rule | None = None
    for rule in rulebook():
        if rule.id in seen:
            first = seen[rule.id]
            found.append(f"{rule.id} defined twice: {first.book}:{first.line} and {rule.book}:{rule.line}")
        seen.setdefault(rule.id, rule)
        if not rule.id.startswith(BOOKS[rule.book] + "-"):
            found.append(f"{rule.id} is in {rule.book}, the book of {BOOKS[rule.book]}-… rules")
        same_section = previous is not None and (previous.book, previous.section) == (rule.book, rule.section)
        if same_section and previous is not None and rule_key(rule.id) <= rule_key(previous.id):
            found.append(f"{rule.id} comes after {previous.id} in {rule.book}, section {rule.section!r}")
        previous = rule
    for book in BOOKS:
        for rule_id in sorted(ids_in_text((RULES_DIR / book).read_text(encoding="utf-8")) - set(seen)):
            found.append(f"{book} refers to {rule_id}, which no rule defines")
    return found


def report() -> str:
    lines = []
    missing = undefined()
    if missing:
        lines.append(f"{len(missing)} rule id(s) cited but not defined in docs/rules/:")
        for rule_id in sorted(missing, key=rule_key):
            lines.append(f"  {rule_id}: {', '.join(sorted(missing[rule_id]))}")
    broken = problems()
    if broken:
        lines.append(f"{len(broken)} problem(s) in the rulebook:")
        lines += [f"  {problem}" for problem in broken]
    rules = rulebook()
    open_rules = untested()
    lines.append(f"{len(rules) - len(open_rules)} of {len(rules)} rules have a test named after them.")
    lines.append(f"{len(open_rules)} rule(s) no test names: {', '.join(open_rules) or 'none'}")
    return "\n".join(lines)


class UntestedRules(UserWarning):
    """Not a failure: the rules no test is named after, reported at every run."""


def test_every_cited_rule_is_in_the_rulebook() -> None:
    missing = undefined()
    assert not missing, "cited but not defined in docs/rules/: " + "; ".join(
        f"{rule_id} ({', '.join(sorted(missing[rule_id]))})" for rule_id in sorted(missing, key=rule_key)
    )


def test_the_rulebook_is_well_formed() -> None:
    assert rulebook(), "docs/rules/ defines no rule"
    assert not problems(), "\n".join(problems())


def test_report_rules_that_no_test_names() -> None:
    """Lists, without failing, the rules no test is named after (a warning in pytest's summary)."""
    open_rules = untested()
    assert set(open_rules) <= defined_ids()
    if open_rules:
        warnings.warn(
            UntestedRules(f"{len(open_rules)} rule(s) no test names: {', '.join(open_rules)}"), stacklevel=1
        )


def test_test_names_map_to_rule_ids() -> None:
    assert ids_in_test_name("test_cn13_plus_one_limit") == {"CN-13"}
    assert ids_in_test_name("test_cns1_operatives_see_nothing") == {"CN-S1"}
    assert ids_in_test_name("test_cn_s3_key_on_a_second_device") == {"CN-S3"}
    assert ids_in_test_name("test_dcs1_dcs3_nothing_secret") == {"DC-S1", "DC-S3"}
    assert ids_in_test_name("test_dc23_dc25_tie_goes_to_keyword_guessing") == {"DC-23", "DC-25"}
    assert ids_in_test_name("test_cn_tv_shows_the_board") == set()
    assert ids_in_text("(CN-10) and DC-S1..DC-S3; not dc-clue-1") == {"CN-10", "DC-S1", "DC-S3"}


if __name__ == "__main__":
    print(report())
    sys.exit(1 if undefined() or problems() else 0)
