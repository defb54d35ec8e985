"""Action payloads: comparing them where a form cannot change them (which listed actions
an entry form could stand for: the play presenter's "Enter amounts" check, without
copying each payload; a tree of the form's field paths marks what to skip), and keeping
each listed action's payload and label — and what is made of a list of them, such as a
menu — across states (:class:`KeptActions`), with each played action's log lines."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar, cast

from pydantic import JsonValue

from companion.errors import RefereeError
from companion.model import Frozen
from companion.rules import AnyRules, GameState

T = TypeVar("T")

#: An action as the kiosk hands it around: the rules' dump of it (``Rules.dump_action``,
#: JSON mode), or what a form makes of one — the value a menu button, a board tap or a
#: form submits.
Payload = dict[str, JsonValue]

#: A node of a :func:`path_trie`: the next step of each path, or :data:`BLANK`.
Trie = dict[str | int, "Trie"]
BLANK: Trie = {}


def path_trie(paths: set[tuple[str | int, ...]]) -> Trie:
    """``paths`` (where a form can change a payload) as a tree of their steps, with
    :data:`BLANK` where a path ends: whatever lies under it is blanked too."""
    if () in paths:
        return BLANK
    root: Trie = {}
    for path in sorted(paths, key=len):
        node = root
        for step in path[:-1]:
            node = node.setdefault(step, {})
            if node is BLANK:
                break
        else:
            node[path[-1]] = BLANK
    return root


def same_outside(a: JsonValue, b: JsonValue, trie: Trie | None) -> bool:
    """Whether ``a`` and ``b`` are equal once the values at the paths of ``trie`` (None:
    no path below here) are blanked — ``blanked(a, trie) == blanked(b, trie)`` —
    without making either copy: what :meth:`FormDesk.formable` asks of every listed
    action."""
    if trie is BLANK:
        return True
    if trie is None and a == b:  # nothing blanked below and equal: equal copies
        return True
    pairs: Iterable[tuple[str | int, JsonValue, JsonValue]]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return False
        pairs = ((k, v, b[k]) for k, v in a.items())
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False
        pairs = ((i, v, w) for i, (v, w) in enumerate(zip(a, b, strict=True)))
    elif isinstance(a, dict | list) or isinstance(b, dict | list):  # against a leaf: as copied
        return blanked(a, trie) == blanked(b, trie)
    else:
        return a == b
    for step, v, w in pairs:
        below = None if trie is None else trie.get(step)
        if below is BLANK or (below is None and v == w):
            continue  # what the call would answer at once
        if not same_outside(v, w, below):
            return False
    return True


def payload_shape(node: JsonValue) -> Hashable | None:
    """What a form's fields depend on in a payload: its keys, the lengths of its lists
    and the types of its values, not the values (None: not a JSON payload — dicts,
    lists, strings, numbers, booleans and None — whose fields are then not kept)."""
    kind: type = type(node)
    if isinstance(node, dict):
        parts = []
        for key, value in node.items():
            inner = payload_shape(value)
            if inner is None:
                return None
            parts.append((key, inner))
        return (dict, tuple(parts))
    if isinstance(node, list):
        items = []
        for value in node:
            inner = payload_shape(value)
            if inner is None:
                return None
            items.append(inner)
        return (list, tuple(items))
    return kind if kind in JSON_LEAVES else None


JSON_LEAVES: tuple[type, ...] = (str, int, float, bool, type(None))


def blanked(node: JsonValue, trie: Trie | None) -> JsonValue:
    """A copy of ``node`` with None at the paths of ``trie``."""
    if trie is BLANK:
        return None
    if isinstance(node, dict):
        return {k: blanked(v, None if trie is None else trie.get(k)) for k, v in node.items()}
    if isinstance(node, list):
        return [blanked(v, None if trie is None else trie.get(i)) for i, v in enumerate(node)]
    return node


#: How many action values :class:`KeptActions` keeps before it starts again (a card
#: game lists a few hundred distinct ones in a whole game; Kolossus's moves are many).
MAX_KEPT_ACTIONS = 4096


class KeptActions:
    """Each listed action's payload (its dump) and, per position, its label — the
    game's own words for it (``Rules.describe``) — made once per action.

    Actions are immutable values, and the rules list the same objects turn after turn
    (made once per value: Kolossus's moves, the card games' listed actions), so a new
    state's menu needs only the actions it has not shown before dumped. Kept by
    identity, each entry holding its key's object (an id is never reused while it is
    kept): an action made anew is one more entry, never a wrong one. The payloads are
    shared — read them, or copy before changing one, as forms do. A label is said of
    the action in its position (what stands on a square, who holds a card), so labels
    are kept for one state at a time.
    """

    def __init__(self, rules: AnyRules) -> None:
        self._rules = rules
        self._payloads: dict[int, tuple[Frozen, Payload]] = {}
        self._actions: dict[int, tuple[Payload, Frozen]] = {}
        self._labels: dict[int, tuple[Payload, str]] = {}
        self._state: GameState | None = None
        self._made: dict[tuple[Hashable, tuple[int, ...]], tuple[tuple[object, ...], object]] = {}

    def payload(self, action: Frozen) -> Payload:
        """``action`` dumped (the same dict for the same action object)."""
        kept = self._payloads.get(id(action))
        if kept is not None and kept[0] is action:
            return kept[1]
        if len(self._payloads) >= MAX_KEPT_ACTIONS:
            self._payloads.clear()
            self._actions.clear()
        payload: Payload = self._rules.dump_action(action)
        self._payloads[id(action)] = (action, payload)
        self._actions[id(payload)] = (payload, action)
        return payload

    def action(self, payload: Payload) -> Frozen | None:
        """The action ``payload`` stands for: the one it was dumped from, else parsed
        (None for a payload no action is made of, such as a form still being filled)."""
        kept = self._actions.get(id(payload))
        if kept is not None and kept[0] is payload:
            return kept[1]
        try:
            parsed: Frozen = self._rules.parse_action(payload)
        except RefereeError:
            return None
        return parsed

    def _for(self, state: GameState) -> None:
        if state is not self._state:
            self._labels.clear()
            self._state = state

    def label(self, state: GameState, payload: Payload) -> str:
        """The action of ``payload`` in the players' words in ``state``
        (``Rules.describe``; a payload no action is made of yet says its family's
        title), said once per payload object and state."""
        self._for(state)
        kept = self._labels.get(id(payload))
        if kept is not None and kept[0] is payload:
            return kept[1]
        if len(self._labels) >= MAX_KEPT_ACTIONS:
            self._labels.clear()
        action = self.action(payload)
        rules = self._rules
        if action is None:
            label = rules.family_title(str(payload.get("type", "")))
        else:
            label = rules.describe(state, action)
        self._labels[id(payload)] = (payload, label)
        return label

    def stays(self, state: GameState, payload: Payload) -> bool:
        """True for a move that leaves everything where it stands (``Rules.stays``)."""
        action = self.action(payload)
        return action is not None and self._rules.stays(state, action)

    def verdict(self, group: str, payloads: tuple[Payload, ...], judge: Callable[[], bool]) -> bool:
        """``judge()`` about exactly these payload objects of ``group`` (asked once per
        list: the same menu comes back turn after turn)."""
        return self.made(("verdict", group), payloads, judge)

    def made(self, key: Hashable, payloads: tuple[object, ...], make: Callable[[], T]) -> T:
        """``make()`` of exactly these objects (payloads, or other values kept here) for
        ``key``: made once per list, as the same list comes back turn after turn (a
        menu, a form's first view). Kept by the objects' identity, each entry holding
        them, so a list with any object made anew is made anew."""
        full = (key, tuple(map(id, payloads)))
        kept = self._made.get(full)
        if kept is not None and all(a is b for a, b in zip(kept[0], payloads, strict=True)):
            return cast(T, kept[1])  # made by ``make`` for this same key
        if len(self._made) >= MAX_KEPT_ACTIONS:
            self._made.clear()
        result = make()
        self._made[full] = (payloads, result)
        return result
