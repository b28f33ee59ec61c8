"""rulebook_build: draughts rules engine, notation, problem checker and website builder."""

import importlib
from collections.abc import Callable, Mapping

__version__ = "0.2.0"


def face(room: str, names: Mapping[str, tuple[str, str | None]]) -> Callable[[str], object]:
    """A room's ``__getattr__`` (PEP 562): the names of its face that other rooms import, each
    taken from the inner module that defines it when it is asked for (``None``: the module
    itself).  The room's ``__all__`` lists them and its ``TYPE_CHECKING`` imports type them.

    Asked for each time rather than kept, so that importing a room loads no more than the
    names used, and a name replaced in its module (a test's ``monkeypatch``) is seen through the
    face as through a direct import."""

    def __getattr__(name: str) -> object:
        try:
            module, attribute = names[name]
        except KeyError:
            raise AttributeError(f"module {room!r} has no attribute {name!r}") from None
        found = importlib.import_module(module)
        return found if attribute is None else getattr(found, attribute)

    return __getattr__
