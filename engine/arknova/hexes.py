"""Hex geometry of the zoo map: flat-top hexes in "doubled-height" coordinates.

A cell is a tuple ``(x, y)``: ``x`` is the column, ``y`` counts half-hex steps down the column,
and ``x + y`` is always odd. The zoo grid is ``x`` in 0..8 and ``y`` in 0..12 (58 cells). The six
neighbours of ``(x, y)`` are ``(x, y ± 2)`` and ``(x ± 1, y ± 1)``.

Cube coordinates ``(q, r, s)`` with ``q + r + s == 0`` are used for rotations and mirror images:
``q = x``, ``r = (y - x - 1) // 2``, ``s = -q - r``.

Everything here is pure geometry: no map terrain, no rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

Cell = tuple[int, int]
Cube = tuple[int, int, int]
Shape = tuple[Cell, ...]

COLUMNS = 9
ROWS = 13
#: The six neighbour offsets, clockwise from "straight up".
DIRECTIONS: tuple[Cell, ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))

#: Every cell of the standard zoo grid (58 cells), sorted.
GRID: tuple[Cell, ...] = tuple(
    (x, y) for x in range(COLUMNS) for y in range(ROWS) if (x + y) % 2 == 1
)
GRID_SET: frozenset[Cell] = frozenset(GRID)


def has_parity(cell: Sequence[int]) -> bool:
    """True when ``cell`` is a valid doubled-height coordinate (``x + y`` odd)."""
    return (cell[0] + cell[1]) % 2 == 1


def on_grid(cell: Sequence[int]) -> bool:
    """True when ``cell`` is one of the 58 cells of the zoo grid."""
    return (cell[0], cell[1]) in GRID_SET


def neighbours(cell: Sequence[int]) -> tuple[Cell, ...]:
    """The six geometric neighbours of ``cell`` (some may lie off the grid).

    >>> neighbours((4, 5))
    ((4, 3), (5, 4), (5, 6), (4, 7), (3, 6), (3, 4))
    """
    x, y = cell[0], cell[1]
    return tuple((x + dx, y + dy) for dx, dy in DIRECTIONS)


def to_cube(cell: Sequence[int]) -> Cube:
    """``(x, y)`` -> ``(q, r, s)``.

    >>> to_cube((0, 1)), to_cube((3, 4))
    ((0, 0, 0), (3, 0, -3))
    """
    x, y = cell[0], cell[1]
    if not has_parity(cell):
        raise ValueError(f"cell {list(cell)} has x + y even; zoo cells have x + y odd")
    r = (y - x - 1) // 2
    return (x, r, -x - r)


def from_cube(cube: Sequence[int]) -> Cell:
    """``(q, r, s)`` -> ``(x, y)`` (the inverse of :func:`to_cube`)."""
    q, r, s = cube
    if q + r + s != 0:
        raise ValueError(f"cube coordinate {tuple(cube)} does not sum to 0")
    return (q, 2 * r + q + 1)


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """Hex steps between two cells.

    >>> distance((0, 1), (0, 5)), distance((0, 1), (3, 4)), distance((0, 1), (2, 1))
    (2, 3, 2)
    """
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return dx + max(0, (dy - dx) // 2)


def is_connected(cells: Iterable[Sequence[int]]) -> bool:
    """True when the cells form one edge-connected group (an empty group is not connected)."""
    todo = {(c[0], c[1]) for c in cells}
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        for n in neighbours(stack.pop()):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


def normalize(shape: Iterable[Sequence[int]]) -> Shape:
    """Translate a shape to its canonical position and sort it.

    The canonical position has minimum ``x`` 0 and minimum ``y`` 0 or 1: the translation
    ``(dx, dy)`` always has ``dx + dy`` even, so cells keep ``x + y`` odd. Two shapes are
    translates of each other exactly when their normalized forms are equal.

    >>> normalize([(3, 6), (3, 8)])
    ((0, 1), (0, 3))
    """
    cells = [(c[0], c[1]) for c in shape]
    if not cells:
        return ()
    dx = -min(x for x, _ in cells)
    dy = -min(y for _, y in cells)
    if (dx + dy) % 2:
        dy += 1
    return tuple(sorted((x + dx, y + dy) for x, y in cells))


def rotate(cell: Sequence[int], steps: int = 1) -> Cell:
    """Rotate a cell by ``steps`` × 60° clockwise around the cube origin (cell ``(0, 1)``)."""
    q, r, s = to_cube(cell)
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return from_cube((q, r, s))


def mirror(cell: Sequence[int]) -> Cell:
    """Mirror a cell across the cube ``q`` axis (a reflection of the plane)."""
    q, r, s = to_cube(cell)
    return from_cube((q, s, r))


@cache
def _orientations(shape: Shape) -> tuple[Shape, ...]:
    found: set[Shape] = set()
    for flipped in (shape, tuple(mirror(c) for c in shape)):
        for steps in range(6):
            found.add(normalize(rotate(c, steps) for c in flipped))
    return tuple(sorted(found))


def orientations(shape: Iterable[Sequence[int]]) -> list[Shape]:
    """All distinct rotations and mirror images of ``shape``, normalized, in sorted order.

    >>> len(orientations([(0, 1)])), len(orientations([(0, 1), (0, 3), (0, 5)]))
    (1, 3)
    """
    return list(_orientations(normalize(shape)))
