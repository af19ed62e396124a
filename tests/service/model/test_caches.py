"""``per_object``: a function of an immutable object worked out once per object."""
from __future__ import annotations

from dataclasses import dataclass, replace

from service.model import caches as memo


@dataclass(frozen=True)
class Thing:
    n: int


def test_once_per_object_and_never_an_answer_for_another() -> None:
    calls: list[int] = []

    @memo.per_object
    def double(t: Thing) -> int:
        calls.append(t.n)
        return t.n * 2

    a = Thing(1)
    assert double(a) == 2 and double(a) == 2 and calls == [1]
    b = replace(a, n=5)  # equal fields or not, another object is worked out anew
    assert double(b) == 10 and double(Thing(1)) == 2 and calls == [1, 5, 1]


def test_it_forgets_the_oldest_beyond_its_size() -> None:
    calls: list[int] = []

    @memo.per_object
    def ident(t: Thing) -> int:
        calls.append(t.n)
        return t.n

    things = [Thing(i) for i in range(memo.SIZE + 1)]
    for t in things:
        ident(t)
    ident(things[-1])
    ident(things[0])  # pushed out by the last one
    assert calls.count(things[-1].n) == 1 and calls.count(0) == 2
