"""The Decrypto engine's error codes in people's words, translated at the edge."""

from django.utils.translation import gettext_lazy as _

ENGINE_MESSAGES = {
    "already_judged": _("Your team has already judged the guesses."),
    "already_locked": _("Your team has already locked its guess."),
    "already_submitted": _("That is already sent."),
    "bad_action": _("That move is not understood."),
    "bad_code": _("A guess is three digits from 1 to 4."),
    "bad_order": _("The order must list each member of your team exactly once."),
    "bad_position": _("Positions run from 1 to 4."),
    "bad_rules": _("The timer must be off or between 15 and 120 seconds."),
    "bad_state": _("The saved game could not be read."),
    "bad_team_size": _("Each team needs 2 to 4 players (or 2 against 1 Interceptor)."),
    "bad_words": _("Guess the four keywords, one per position (blanks allowed)."),
    "clue_count": _("An Encryptor writes three clues, one per digit."),
    "clue_empty": _("Every clue needs some text."),
    "clue_is_keyword": _("A clue may not be one of your own keywords."),
    "clue_repeated": _("Your team has already used this clue in this game."),
    "clue_too_long": _("A clue has at most 60 characters."),
    "duplicate_player": _("Every player sits in one team only."),
    "encryptor_cannot_guess": _("The Encryptor takes no part in guessing their own code."),
    "game_over": _("The game is over."),
    "no_interception_in_round_one": _("Nobody intercepts in round 1."),
    "not_encryptor": _("Only this round's Encryptor writes the clues."),
    "not_enough_words": _("The keyword list needs more different words."),
    "not_in_game": _("Only the players of this game can act."),
    "note_too_long": _("A note has at most 200 characters."),
    "stale": _("The game has moved on: look again."),
    "unbalanced_teams": _("Teams must differ in size by one player at most."),
    "wrong_phase": _("That cannot be done at this point of the round."),
}
