"""The lobby's socket actions (rename, sit, shuffle…): each a service call with the socket's
room and session identity. Other apps add theirs (``register_lobby_action``: the bots)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rooms import services


class Sender(Protocol):
    """Who sent a lobby action: the socket's room and its session's identity."""

    slug: str
    uid: str | None


def _rename(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_rename(slug=consumer.slug, uid=consumer.uid, name=message.get("name"))


def _sit(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_sit(
        slug=consumer.slug, uid=consumer.uid, team=message.get("team"), role=message.get("role")
    )


def _shuffle(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_shuffle(slug=consumer.slug, uid=consumer.uid)


def _device_link(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_device_link(
        slug=consumer.slug, uid=consumer.uid, regenerate=message.get("regenerate") is True
    )


def _set_language(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_set_language(slug=consumer.slug, uid=consumer.uid, language=message.get("language"))


def _set_words(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_set_words(
        slug=consumer.slug,
        uid=consumer.uid,
        game=message.get("game"),
        mode=message.get("mode"),
        text=message.get("text"),
    )


def _set_game(consumer: Sender, message: dict[str, Any]) -> None:
    services.room_set_game(slug=consumer.slug, uid=consumer.uid, game=message.get("game"))


LOBBY_ACTIONS: dict[str, Callable[[Sender, dict[str, Any]], None]] = {
    "rename": _rename,
    "sit": _sit,
    "shuffle": _shuffle,
    "set_game": _set_game,
    "device_link": _device_link,
    "set_language": _set_language,
    "set_words": _set_words,
}


def register_lobby_action(name: str, handler: Callable[[Sender, dict[str, Any]], None]) -> None:
    """A room action another app brings (bots/apps.py: ``add_bot``, ``remove_bot``).

    ``handler`` runs on a database thread with the socket's room and session identity
    (``consumer.slug``, ``consumer.uid``) and the message; what it commits is pushed.
    """
    LOBBY_ACTIONS[name] = handler
