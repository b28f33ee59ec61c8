"""A stored verdict read back: the JSON record of ``rulebook check --json`` as the typed
``Judgement`` that wrote it.

``Judgement.as_json`` writes the contract (``guides/reference.md``, "The JSON record");
``judgement_from_json`` is its inverse, so that a stored verdict (``problems/verdicts.jsonl``, a
jury's run on another machine) is read into the same dataclasses the checker judges with, and
``judgement_from_json(record).as_json() == record`` for every record the checker writes.  What
the record derives (``grade``, ``summary``) is computed again, not read.  A record that is not
one the checker wrote is refused with ``ValueError`` naming the field.
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeVar, cast

from rulebook_build.checker.analysis import DUAL_KINDS, Dual
from rulebook_build.checker.grade import (
    CRITERIA,
    Cook,
    Criterion,
    Judgement,
    SolutionCheck,
    Try,
)
from rulebook_build.checker.messages import Argument
from rulebook_build.checker.opinion import KIND_NAMES, Kind, Opinion, Says

T = TypeVar("T")
STATUSES: Final = ("pass", "remark", "fail", "undecided")
VERDICTS: Final = ("sound", "unsound", "undecided")
ANSWERS: Final = ("proved", "refuted", "undecided")


class _Record:
    """One JSON object, read field by field with its place in the record for the error."""

    def __init__(self, data: object, where: str) -> None:
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected a JSON object")
        self.data: dict[str, Any] = data
        self.where = where

    def _get(self, name: str, kind: type[T] | tuple[type, ...], optional: bool = False) -> Any:
        if name not in self.data:
            raise ValueError(f"{self.where}: no field {name!r}")
        value = self.data[name]
        if value is None and optional:
            return None
        if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float)):
            raise ValueError(f"{self.where}.{name}: unexpected value {value!r}")
        return value

    def text(self, name: str) -> str:
        return cast(str, self._get(name, str))

    def maybe_text(self, name: str) -> str | None:
        return cast("str | None", self._get(name, str, optional=True))

    def number(self, name: str) -> int:
        return cast(int, self._get(name, int))

    def real(self, name: str) -> float:
        return float(self._get(name, (int, float)))

    def flag(self, name: str) -> bool:
        return cast(bool, self._get(name, bool))

    def maybe_flag(self, name: str) -> bool | None:
        return cast("bool | None", self._get(name, bool, optional=True))

    def texts(self, name: str) -> list[str]:
        found = self._get(name, list)
        if not all(isinstance(item, str) for item in found):
            raise ValueError(f"{self.where}.{name}: expected a list of text")
        return cast(list[str], found)

    def one_of(self, name: str, allowed: tuple[str, ...]) -> str:
        value = self.text(name)
        if value not in allowed:
            raise ValueError(f"{self.where}.{name}: {value!r} is none of {', '.join(allowed)}")
        return value

    def items(self, name: str) -> list[_Record]:
        return [
            _Record(item, f"{self.where}.{name}[{index}]")
            for index, item in enumerate(self._get(name, list))
        ]


def _moves(text: str | None) -> tuple[str, ...]:
    return tuple(text.split()) if text else ()


def _criterion(record: _Record) -> Criterion:
    status = cast(Literal["pass", "remark", "fail", "undecided"], record.one_of("status", STATUSES))
    message = record.text("message") if "message" in record.data else ""
    args: dict[str, Argument] = {}
    if message:
        found = record._get("args", dict)
        args = cast(dict[str, Argument], found)
    return Criterion(status, record.text("detail"), message, args)


def _dual(record: _Record) -> Dual:
    kind = record.one_of("kind", DUAL_KINDS)
    dual = Dual(
        _moves(record.text("after")),
        tuple(record.texts("moves")),
        cast(Any, kind),
        record.flag("on_main"),
    )
    if dual.level != record.text("level"):
        raise ValueError(f"{record.where}.level: {record.text('level')!r} is not {kind}'s")
    return dual


def judgement_from_json(data: object, where: str = "verdict") -> Judgement:
    """The ``Judgement`` whose ``as_json`` is ``data``; ``ValueError`` naming the first field
    that is not what the checker writes."""
    record = _Record(data, where)
    solution = _Record(record.data.get("solution"), f"{where}.solution")
    criteria_data = _Record(record.data.get("criteria"), f"{where}.criteria")
    if list(criteria_data.data) != list(CRITERIA):
        raise ValueError(f"{where}.criteria: expected the criteria {', '.join(CRITERIA)}")
    judgement = Judgement(
        source=record.text("source"),
        event=record.maybe_text("event"),
        variant=record.text("variant"),
        fen=record.text("fen"),
        verdict=cast(Any, record.one_of("verdict", VERDICTS)),
        white_wins=cast(Any, record.one_of("white_wins", ANSWERS)),
        winning_keys=record.texts("winning_keys"),
        solution=SolutionCheck(
            solution.flag("legal"),
            solution.maybe_text("key"),
            solution.maybe_flag("key_wins"),
            solution.maybe_text("error"),
            _moves(solution.maybe_text("refutation")),
        ),
        criteria={
            name: _criterion(_Record(criteria_data.data[name], f"{where}.criteria.{name}"))
            for name in CRITERIA
        },
        proof_line=record.texts("proof_line"),
        seconds=record.real("seconds"),
        nodes=record.number("nodes"),
        digest=record.text("digest"),
        duals=[_dual(item) for item in record.items("duals")],
        cooks=[
            Cook(item.text("key"), _moves(item.text("line")), item.flag("combination"))
            for item in record.items("cooks")
        ],
        tries=[
            Try(item.text("key"), _moves(item.text("line")), item.text("refutation"))
            for item in record.items("tries")
        ],
        opinions=[opinion_from_json(item.data, item.where) for item in record.items("opinions")]
        if "opinions" in record.data
        else [],
    )
    return judgement


def opinion_from_json(data: object, where: str = "opinion") -> Opinion:
    """The ``Opinion`` whose ``as_json`` is ``data``; ``ValueError`` naming the first field
    that is not what the checker writes."""
    record = _Record(data, where)
    square = record.data.get("square")
    if square is not None and (not isinstance(square, int) or isinstance(square, bool)):
        raise ValueError(f"{where}.square: unexpected value {square!r}")
    return Opinion(
        cast(Kind, record.one_of("kind", KIND_NAMES)),
        tuple(record.texts("criteria")),
        _moves(record.text("after")),
        cast(Says, record.one_of("says", ("win", "no win"))),
        record.number("score"),
        record.number("depth"),
        record.number("nodes"),
        _moves(record.text("line")),
        record.number("budget"),
        square,
    )
