"""The engine's error codes in people's words, translated at the edge.

The engine stays free of Django and speaks English; these are the texts players read,
keyed by the engine's stable codes, with ``%(name)s`` filled from the error's params.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from codenames.engine.actions import BOARD_SIZE

ENGINE_MESSAGES = {
    "bad_action": _("That move is not understood."),
    "bad_actor": _("Unknown team or role."),
    "bad_rules": _("Those house rules are not valid."),
    "bad_state": _("The saved game could not be read."),
    "game_over": _("The game is over."),
    "stale": _("The game has moved on: look again."),
    "wrong_phase": _("That cannot be done at this point of the turn."),
    "not_spymaster": _("Only a spymaster can do this."),
    "not_operative": _("Only operatives can choose cards."),
    "not_your_turn": _("It is not your turn to do that."),
    "card_covered": _("That card is already covered."),
    "no_proposal": _("You have not proposed a card."),
    "must_guess": _("Make at least one guess before ending the turn."),
    "not_in_mode": _("That is not part of this game mode."),
    "own_clue": _("Only the opposing spymaster can reject a clue."),
    "no_penalty": _("You have no penalty cover to use."),
    "not_own_agent": _("Choose one of your own agents."),
    "not_opponent_agent": _("Choose one of the opponent's agents."),
    # The engine's only "needed" is a board's worth of words.
    "not_enough_words": ngettext_lazy(
        "The word list needs at least %(needed)s different word.",
        "The word list needs at least %(needed)s different words.",
        BOARD_SIZE,
    ),
    "clue_empty": _("The clue is empty."),
    "clue_bad_character": _("The clue contains an invisible or control character."),
    "clue_has_space": _("The clue must be a single word."),
    "clue_has_hyphen": _("The clue must be a single word, without hyphens."),
    "clue_on_board": _("The clue is a codename on the board (%(codename)s)."),
    "clue_contains_word": _("The clue and the codename %(codename)s contain one another."),
}
