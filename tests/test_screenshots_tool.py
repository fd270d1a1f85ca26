"""`make screenshots` (bench/screenshots.py): its plan covers every screen of issue 30's
matrix, and it really shoots, in light and dark."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from bench import screenshots
from tests.test_screens import SCENE_NAMES, TABLE_SCENES

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("page-home", "page-how-to-play-codenames", "page-how-to-play-decrypto")


def test_the_default_plan_shoots_every_screen_page_and_tv_in_both_languages_and_schemes() -> None:
    files = [shot.file for shot in screenshots.plan_of(screenshots.parse_args([]))]
    assert len(files) == len(set(files)), "two shots write the same file"
    # A screen's schemes follow each other: the run shoots them from one page load.
    for light, dark in zip(files[::2], files[1::2], strict=True):
        assert (light.split("/", 2)[1], dark.split("/", 2)[1]) == ("light", "dark"), (light, dark)
        assert light.replace("/light/", "/dark/") == dark
    missing = []
    for language in ("en", "it"):
        for scheme in ("light", "dark"):
            wanted = [(size, name) for name in (*SCENE_NAMES, *PAGES) for size in ("phone", "laptop")]
            wanted += [(size, name) for name in TABLE_SCENES for size in ("tv", "tv720")]
            missing += [
                f"{language}/{scheme}/{size}/{name}.png"
                for size, name in wanted
                if f"{language}/{scheme}/{size}/{name}.png" not in files
            ]
    assert not missing, missing


def test_list_prints_the_plan_of_its_arguments_and_shoots_nothing(tmp_path: Path) -> None:
    """``--list``: what a run would write, for a person choosing a smaller run."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.screenshots", "--list", "--languages", "it", "--schemes", "dark",
         "--scenes", "decrypto-table", "--pages", "/how-to-play/decrypto/", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "it/dark/phone/decrypto-table.png",
        "it/dark/laptop/decrypto-table.png",
        "it/dark/tv/decrypto-table.png",
        "it/dark/tv720/decrypto-table.png",
        "it/dark/phone/page-how-to-play-decrypto.png",
        "it/dark/laptop/page-how-to-play-decrypto.png",
    ]
    assert not any(tmp_path.iterdir())


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _header_brightness(path: Path, y: int = 20) -> float:
    """The mean channel value (0–255) of row ``y`` of a PNG: across the site's header, paper
    by day and the table under the lamp by night (row 0 may be a team's frame). Reads 8-bit
    RGB or RGBA, as Chromium writes them."""
    data = path.read_bytes()
    width, _, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    idat, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        if kind == b"IDAT":
            idat += data[at + 8 : at + 8 + length]
        at += 12 + length
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompressobj().decompress(idat, (y + 1) * (1 + stride))
    above = bytearray(stride)
    for r in range(y + 1):  # the rows' filters (PNG spec, 9.2), down to row y
        kind, row = raw[r * (1 + stride)], bytearray(raw[r * (1 + stride) + 1 : (r + 1) * (1 + stride)])
        for i in range(stride):
            a, b = (row[i - step] if i >= step else 0), above[i]
            c = above[i - step] if i >= step else 0
            if kind == 1:
                row[i] = (row[i] + a) % 256
            elif kind == 2:
                row[i] = (row[i] + b) % 256
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) % 256
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) % 256
        above = row
    colours = [above[i + c] for i in range(0, stride, step) for c in range(3)]
    return sum(colours) / len(colours)


@pytest.mark.browser
def test_a_scene_and_the_home_page_are_shot_in_light_and_dark(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "bench.screenshots", "--languages", "en",
               "--scenes", "codenames-lobby-seated", "--pages", "/", "--sizes", "phone", "--first-screen",
               "--out", str(tmp_path)]  # fmt: skip
    # A session of its own: a run that hangs is stopped with its server and its browser.
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)  # fmt: skip
    try:
        stdout, stderr = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    done = subprocess.CompletedProcess(command, run.returncode, stdout, stderr)
    assert done.returncode == 0, done.stderr
    assert "4 screenshots" in done.stdout
    for name in ("codenames-lobby-seated", "page-home"):
        light, dark = (tmp_path / "en" / scheme / "phone" / f"{name}.png" for scheme in ("light", "dark"))
        # The phone's first screen, 360×740 at two image pixels per CSS pixel.
        assert _png_size(light) == _png_size(dark) == (720, 1480)
        assert _header_brightness(light) > 180 > 90 > _header_brightness(dark), name
