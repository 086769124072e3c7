"""Copy-on-access states: how :meth:`Game.apply` changes a state without copying all of it.

``apply`` must leave its input unchanged, and the rules mutate the state they are given in
place. Copying the whole state before every action (the old way) cost more than the rules
themselves. Instead the rules get a :class:`Lazy` view of the input: a dict that starts empty
and, the first time a key is read, stores a private copy of the input's value for that key
(:meth:`Lazy.__missing__`). Everything the rules can reach from the state therefore passes
through a copy before they can change it; what they never read is shared with the input.
:func:`begin` makes the view and :func:`finish` turns it back into a plain dict (the input's
dict copied shallowly, overlaid with the keys that were read or written).

Levels: the root is lazy, and so are the dicts of the lists the game names in its ``lazy``
spec, ``{key: spec of the dicts in that list}`` (the players, and in a player the buildings,
say ``{"players": {"buildings": {}}}``). A spec may also name the game's own copier for a key
(a function of the value returning a copy that shares nothing the rules change in place, such
as a zoo's buildings sharing their never-changed cells). Every other container is copied whole
(deep) the first time its key is read. A state that leaves ``apply`` shares the containers no
rule read with the state that entered it, so states are values: callers must not change a returned state in place (they
``clone`` it first, as :func:`engine.core.state.clone` does).

Everything that reads a dict's values goes through a copy: ``d[k]``, ``get``, ``setdefault``,
``pop``, ``items``, ``values``, iteration, ``copy``, ``dict(d)``, ``{**d}`` and comparisons
(the last ones copy every key, :meth:`Lazy.fill`). C code that reads a dict's storage directly
(``orjson``, ``marshal``) must not be given a :class:`Lazy` (it is never one outside ``apply``).
"""

from __future__ import annotations

from typing import Any

_ATOMS = frozenset((str, int, float, bool, type(None)))
_all_atoms = _ATOMS.issuperset  # of an iterable of types, in C
_NO = object()
_set = dict.__setitem__
_get = dict.get


def deep(v: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, atoms). A long list of atoms only (a deck) is
    copied in C: ``map(type, ...)`` and the set test run without a Python step per item."""
    t = type(v)
    if t is list:
        if len(v) > 12 and _all_atoms(map(type, v)):
            return v[:]
        return [x if type(x) in _ATOMS else deep(x) for x in v]
    if t is dict:
        return {k: (x if type(x) in _ATOMS else deep(x)) for k, x in v.items()}
    if t in _ATOMS:
        return v
    if isinstance(v, Lazy):
        v.fill()
        return {k: (x if type(x) in _ATOMS else deep(x)) for k, x in dict.items(v)}
    if t is tuple:
        return tuple(deep(x) for x in v)
    raise TypeError(f"not JSON data: {t.__name__}")


class Lazy(dict):
    """A dict of a state being changed by ``apply``: the input's values are copied on first
    access (see the module's doc). ``_src`` is the input's dict (never changed),
    ``_gone`` the keys deleted, ``_lazy`` the spec: keys whose lists hold lazy dicts, each with
    the spec of those dicts."""

    __slots__ = ("_src", "_gone", "_lazy", "_full")

    def __init__(self, src: dict[str, Any],
                 lazy: dict[str, Any] = {}) -> None:  # noqa: B006 (never changed)
        self._src = src
        self._gone: set[Any] | None = None
        self._lazy = lazy
        self._full = False

    # -------------------------------------------------------------- the copy on first read
    def __missing__(self, key):
        v = _get(self._src, key, _NO)
        if v is _NO or self._full or (self._gone is not None and key in self._gone):
            raise KeyError(key)
        if type(v) in _ATOMS:  # most reads: nothing to copy
            _set(self, key, v)
            return v
        spec = self._lazy.get(key) if self._lazy else None
        if spec is None:
            v = deep(v)
        elif type(spec) is not dict:  # the game's own copier for this key
            v = spec(v)
        elif type(v) is list:
            v = [Lazy(x, spec) if type(x) is dict else
                 (x if type(x) in _ATOMS else deep(x)) for x in v]
        else:
            v = deep(v)
        _set(self, key, v)
        return v

    def fill(self) -> None:
        """Copy every key not read yet (before anything that needs them all)."""
        if self._full:
            return
        gone = self._gone
        for key in self._src:
            if not dict.__contains__(self, key) and (gone is None or key not in gone):
                self.__missing__(key)
        self._full = True

    # -------------------------------------------------------------- reads
    def get(self, key, default=None):
        v = _get(self, key, _NO)
        if v is not _NO:
            return v
        try:
            return self.__missing__(key)
        except KeyError:
            return default

    def __contains__(self, key) -> bool:
        if dict.__contains__(self, key):
            return True
        return not self._full and key in self._src and not (
            self._gone is not None and key in self._gone)

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def __iter__(self):
        self.fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.fill()
        return dict.__len__(self)

    def __reversed__(self):
        self.fill()
        return dict.__reversed__(self)

    def keys(self):
        self.fill()
        return dict.keys(self)

    def values(self):
        self.fill()
        return dict.values(self)

    def items(self):
        self.fill()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self.fill()
        return dict(dict.items(self))

    def __eq__(self, other) -> bool:
        self.fill()
        if isinstance(other, Lazy):
            other.fill()
        return dict.__eq__(self, other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other):
        return self.copy() | other

    def __ror__(self, other):
        return other | self.copy()

    def __ior__(self, other):
        dict.update(self, other)
        return self

    def __repr__(self) -> str:
        self.fill()
        return dict.__repr__(self)

    def __reduce_ex__(self, protocol):
        return (dict, (self.copy(),))

    # -------------------------------------------------------------- deletions
    def _forget(self, key) -> None:
        if key in self._src:
            if self._gone is None:
                self._gone = set()
            self._gone.add(key)

    def __delitem__(self, key) -> None:
        if key not in self:
            raise KeyError(key)
        if dict.__contains__(self, key):
            dict.__delitem__(self, key)
        self._forget(key)

    def pop(self, key, default=_NO):
        if key in self:
            v = self[key]
            del self[key]
            return v
        if default is _NO:
            raise KeyError(key)
        return default

    def popitem(self):
        self.fill()
        key, v = dict.popitem(self)
        self._forget(key)
        return key, v

    def clear(self) -> None:
        dict.clear(self)
        self._gone = set(self._src)
        self._full = True

    # -------------------------------------------------------------- back to plain data
    def plain(self) -> dict[str, Any]:
        """The plain dict this view stands for: the input's dict, overlaid with what was read
        or written, without the deleted keys (unread values are shared with the input). A view
        that only read atoms and changed none stands for the input's dict itself, so a part
        of the state a move only looked at (another zoo's appeal, say) keeps its identity."""
        src = self._src
        if self._gone is None:
            for key, v in dict.items(self):
                if _get(src, key, _NO) is not v:
                    break
            else:  # nothing read but atoms, none changed: the input's dict itself
                return src
        out = src.copy()
        out.update(dict.items(self))
        if self._gone:
            for key in self._gone:
                if not dict.__contains__(self, key):
                    out.pop(key, None)
        for key, spec in self._lazy.items():
            if type(spec) is dict and dict.__contains__(self, key):
                items = dict.__getitem__(self, key)
                if type(items) is list:
                    out[key] = [x.plain() if isinstance(x, Lazy) else x for x in items]
        return out


def begin(state: dict[str, Any], lazy: dict[str, Any]) -> Lazy:
    """A view of ``state`` that the rules may change in place (``state`` itself never is);
    ``lazy`` is the spec of the lists of lazy dicts (see the module's doc)."""
    return Lazy(state, lazy)


def finish(view: Lazy) -> dict[str, Any]:
    """The plain state a view stands for once the rules are done with it (a new dict, never
    the input's)."""
    out = view.plain()
    return out.copy() if out is view._src else out
