"""The play presenter's forms: the one on screen, the entry form, what a form stands for.

A form (:class:`~kiosk.presenters.forms.ActionForm`) edits an action's amounts. One
opens from a menu group's "Enter amounts" (:meth:`FormDesk.open`), from a correction
template (:meth:`FormDesk.open_correction`), or by itself when the game only waits
for numbers read off the table: its only legal actions are of one type whose role is
``ActionRole.ENTRY`` (``Rules.action_role``). A group offers "Enter amounts" only when
its listed actions differ in nothing but what the form can change
(:meth:`FormDesk.formable`: an island move differs in its spaces, which no form edits).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from pydantic import BaseModel, JsonValue

from companion.rules import ActionRole
from kiosk.presenters.forms import ActionForm, FormWords
from kiosk.presenters.payloads import Payload, Trie, path_trie, payload_shape, same_outside
from kiosk.presenters.play_view import ActionChoice
from kiosk.presenters.queries import StateQueries

MAX_KEPT_SHAPES = 256  # payload shapes whose form fields are kept (see FormDesk.editable)


class FormDesk:
    """The play presenter's forms: the one on screen, the entry form that opens by
    itself, and which menu groups a form can stand for. Submitting goes through the
    presenter's ``submit``; ``changed`` redraws."""

    def __init__(
        self,
        queries: StateQueries,
        submit: Callable[[object], bool],
        changed: Callable[[], None],
    ) -> None:
        self._queries = queries
        self._submit = submit
        self._changed = changed
        self._models = queries.rules.action_models()
        self._form: ActionForm | None = None
        #: The entry form of the current state is still to be looked for (see ``form``).
        self._entry_form_due = True
        self._editables: dict[tuple[str, Hashable], Trie | None] = {}

    @property
    def form(self) -> ActionForm | None:
        """The form on screen. When the game only waits for numbers read off the table
        (its only legal actions are of one ``ActionRole.ENTRY`` type, with amounts) that
        form opens by itself: looked for when first asked after a change, not in the
        change itself, so the LEDs get their highlights before the legal actions are
        enumerated."""
        if self._entry_form_due:
            self._entry_form_due = False
            self._form = self._entry_form()
        return self._form

    @property
    def shown(self) -> ActionForm | None:
        """The form on screen without looking for the entry form (the screen's first
        frame of a change, which leaves the legal actions for the next)."""
        return self._form

    def reset(self) -> None:
        """A new position: no form, the entry form looked for when first asked."""
        self._form = None
        self._entry_form_due = True

    def words(self) -> FormWords:
        """What a form says in the current position (the rules' phrasebook)."""
        queries = self._queries
        return FormWords(queries.rules, queries.derived().state)

    def _show(self, form: ActionForm | None) -> None:
        self._entry_form_due = False
        self._form = form

    def open(self, key: str | None) -> bool:
        """Edit the amounts of an action of group ``key``, starting from a listed one."""
        model = self._models.get(key or "")
        example = next((p for p in self._queries.legal_payloads() if p.get("type") == key), None)
        if model is None or example is None:
            return False
        self._show(ActionForm(model, example, self.words()))
        self._changed()
        return True

    def open_correction(self, payload: Payload) -> bool:
        """A correction template's form (a correction is entered, never sent unchanged)."""
        model = self._models.get(str(payload.get("type")))
        if model is None:
            return False
        self._show(ActionForm(model, payload, self.words()))
        self._changed()
        return True

    def step(self, key: str, delta: int) -> None:
        if self.form is not None:
            self.form.step(key, delta)
            self._changed()

    def toggle(self, key: str) -> None:
        if self.form is not None:
            self.form.toggle(key)
            self._changed()

    def choose(self, key: str, value: JsonValue) -> None:
        if self.form is not None:
            self.form.choose(key, value)
            self._changed()

    def submit(self) -> bool:
        """Submit the form; on a refusal the form stays open under the banner."""
        if self.form is None:
            return False
        return self._submit(self.form.payload())

    def close(self) -> None:
        """No form on screen (the caller redraws)."""
        self._show(None)

    def cancel(self) -> None:
        self._show(None)
        self._changed()

    def formable(self, group: str | None, actions: tuple[ActionChoice, ...]) -> bool:
        """True when the group's action has amounts a form can edit — and the listed
        actions differ only in those amounts. Island moves differ in their spaces, which
        a form cannot edit: a form would silently keep the first move's origin, so those
        are chosen from the list or on the board instead."""
        model = self._models.get(group or "")
        if model is None or not actions:
            return False
        first = actions[0].payload

        def judge() -> bool:
            trie = self.editable(str(group), model, first)
            return trie is not None and all(
                same_outside(a.payload, first, trie) for a in actions[1:]
            )

        return self._queries.kept.verdict(str(group), tuple(a.payload for a in actions), judge)

    def editable(self, group: str, model: type[BaseModel], example: Payload) -> Trie | None:
        """The paths a form of ``model`` can change in ``example`` (None: no field), kept
        per group and shape of the example: the same menus come back turn after turn."""
        shape = payload_shape(example)
        key = (group, shape)
        if shape is not None and key in self._editables:
            return self._editables[key]
        fields = ActionForm(model, example, self.words()).view().fields
        trie = path_trie({field.path for field in fields}) if fields else None
        if shape is not None:
            if len(self._editables) >= MAX_KEPT_SHAPES:
                self._editables.clear()
            self._editables[key] = trie
        return trie

    def _entry_form(self) -> ActionForm | None:
        """When the game only waits for numbers read off the table, the form to show at once."""
        queries = self._queries
        payloads = queries.legal_payloads()
        types = {p.get("type") for p in payloads}
        if len(types) == 1:
            key = str(next(iter(types)))
            if queries.role(payloads[0]) is ActionRole.ENTRY and key in self._models:
                example = next(p for p in payloads if p.get("type") == key)
                model, words = self._models[key], self.words()
                # The same example comes back turn after turn: its first view is kept
                # for the players at the table (its words name them and the example).
                first = queries.kept.made(
                    ("form", key, words.seats),
                    (example,),
                    lambda: ActionForm(model, example, words).view(),
                )
                if first.fields:
                    return ActionForm(model, example, words, first)
        return None
