"""docs/protocol.md ("Rebuilding a game") tells an outside program how Decrypto's codes
follow from an export's ``seed``: this is that recipe written from the doc alone (an
MT19937 seeded from SHA-512, no Python ``random``), checked against the engine."""

from __future__ import annotations

import hashlib

import pytest

from decrypto.engine.deck import draw_code
from decrypto.engine.model import Team

N = 624


def _mt_from_key(key: list[int]) -> list[int]:
    mt = [19650218] + [0] * (N - 1)
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    i, j = 1, 0
    for _ in range(max(N, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i, j = i + 1, (j + 1) % len(key)
        if i >= N:
            mt[0], i = mt[N - 1], 1
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= N:
            mt[0], i = mt[N - 1], 1
    mt[0] = 0x80000000
    return mt


def _outputs(mt: list[int]):  # type: ignore[no-untyped-def]
    while True:
        for k in range(N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7FFFFFFF)
            mt[k] = mt[(k + 397) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for y in mt:
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C5680
            y ^= (y << 15) & 0xEFC60000
            yield y ^ (y >> 18)


def outside_code(seed: int, round_number: int, team: str) -> tuple[int, int, int]:
    text = f"decrypto-code:{seed}:{round_number}:{team}".encode()
    number = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
    key = [(number >> (32 * k)) & 0xFFFFFFFF for k in range(max(1, (number.bit_length() + 31) // 32))]
    codes = [
        (a, b, c) for a in (1, 2, 3, 4) for b in (1, 2, 3, 4) for c in (1, 2, 3, 4) if len({a, b, c}) == 3
    ]
    for word in _outputs(_mt_from_key(key)):
        index = word >> 27  # the top 5 bits: 0..31, drawn again until below 24
        if index < 24:
            return codes[index]
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", [0, 7, 2**64 + 5, 2**128 - 1, 170141183460469231731687303715884105731])
def test_the_documented_recipe_draws_the_engines_codes(seed: int) -> None:
    for round_number in range(1, 10):
        for team in Team:
            assert outside_code(seed, round_number, team.value) == draw_code(seed, round_number, team)
