"""The games that have teaching texts, and a teaching folder whose files all load."""

from __future__ import annotations

from companion.games import GAME_MODULES

GAMES = sorted(name for name, module in GAME_MODULES.items() if module.startswith("companion."))


GOOD = {
    "common": 'prefixes = ["0.2."]\n[texts."0.2.1"]\ntitle = "The table"\n'
    'text = "The pieces on the table win whenever the companion disagrees with them."\n',
    "kolossus": 'prefixes = ["K-R"]\n[roles]\nfix = ["0.2.1"]\n[counts]\nMana = ["0.2.1"]\n'
    '[texts."K-R01"]\ntitle = "The board"\n'
    'text = "Eleven squares by eleven, with a stepped pyramid in the middle of it."\n',
}
