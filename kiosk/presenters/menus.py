"""The action menu: the listed actions by group, the chosen group's buttons.

Every text is the game's own (companion/rules.py, "words"): a group's heading is its
family's title (``Rules.family_title``), as is the tab of a group of one that plays
its action; a button of a list says the action as ``Rules.describe`` says it in the
position; a move that stays where it stands (``Rules.stays``, stopping early, RULINGS
1.5) comes last in its list. Made once per state for each focus and group (its words
are said of the position).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules import AnyRules, GameState
from kiosk.presenters.payloads import KeptActions, Payload
from kiosk.presenters.play_view import ActionChoice, ActionGroup

MAX_SHOWN_ACTIONS = 48  # buttons per group
#: The action-menu group of the manual corrections (RULINGS 0.2.1); a tap on one of
#: its buttons opens that correction's form, prefilled with the current values.
CORRECTIONS_GROUP = "correct_the_table"
CORRECTIONS_LABEL = "Correct the table"


@dataclass(frozen=True)
class Menu:
    """The action menu for one focus and group: what the play view shows."""

    groups: tuple[ActionGroup, ...]
    group: str | None
    actions: tuple[ActionChoice, ...]
    more_actions: int
    formable: bool


#: The menu left out of a view (:meth:`PlayPresenter.view` without ``menu``).
NO_MENU = Menu(groups=(), group=None, actions=(), more_actions=0, formable=False)


def action_menu(
    rules: AnyRules,
    state: GameState,
    payloads: Sequence[Payload],
    wanted: str | None,
    fixes: int,
    corrections: Sequence[Payload] | None,
    kept: KeptActions,
    formable: Callable[[str | None, tuple[ActionChoice, ...]], bool],
) -> Menu:
    """The menu of ``payloads`` with group ``wanted`` open where it lists several
    actions; ``fixes`` corrections make the "Correct the table" group, whose list is
    ``corrections`` while it is the one open (None otherwise)."""
    counts: dict[str, int] = {}
    for p in payloads:
        key = str(p.get("type"))
        counts[key] = counts.get(key, 0) + 1
    # A group of one action is that action: its button plays it ("Ready", "End
    # turn"), so no list repeats it and no tab opens a list of one.
    single = {p.get("type"): p for p in payloads if counts.get(str(p.get("type"))) == 1}
    # Its button says the family's title: a tab has room for a verb ("Draw"), not for
    # the sentence the game says of the action.
    groups = tuple(
        ActionGroup(key=k, label=rules.family_title(k), count=n)
        if k not in single
        else ActionGroup(key=k, label=rules.family_title(k), count=1, plays=True, payload=single[k])
        for k, n in counts.items()
    )
    lists = [g.key for g in groups if not g.plays]
    group = wanted if wanted in lists else (lists[0] if lists else None)
    chosen = [p for p in payloads if p.get("type") == group]
    staying = [p for p in chosen if kept.stays(state, p)]
    if staying:  # a move that stays where it stands comes last (RULINGS 1.5)
        chosen = [p for p in chosen if not any(p is s for s in staying)] + staying
    if fixes:
        groups = (*groups, ActionGroup(CORRECTIONS_GROUP, CORRECTIONS_LABEL, fixes))
        if corrections is not None:
            group = CORRECTIONS_GROUP
            chosen = list(corrections)
    choices = tuple(
        ActionChoice(label=kept.label(state, p), payload=p) for p in chosen[:MAX_SHOWN_ACTIONS]
    )
    more = max(0, len(chosen) - MAX_SHOWN_ACTIONS)
    return Menu(groups, group, choices, more, formable(group, choices))
