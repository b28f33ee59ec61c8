"""Message ids, their English text, and the compiled catalogs of the other languages.

Each entry of a catalog is keyed by its id (``msgctxt``) and carries the English text
(``msgid``) and the translation (``msgstr``).  The id, not the English, is the key, so that
English can be reworded without losing a translation's place, and so that the stored verdicts'
message ids (``checker/messages.py``) are the catalog's ids.  A text is a :meth:`str.format`
template: ``{name}`` is an argument, and a text shown without arguments is shown as written.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

LANGUAGES: Final = ("nl", "en", "fy")
"""The site's languages: Dutch (the rulebooks' own, at the site's root), English, Frisian."""
SOURCE_LANGUAGE: Final = "en"
"""The language of the ``msgid``s, written in the code: the only one without a catalog."""
DOMAIN: Final = "rulebook"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
"""``<lang>/LC_MESSAGES/rulebook.po`` (what translators edit) and ``.mo`` (what is read)."""
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"
"""Every message of the code, as ``pybabel extract`` finds it: the source of the catalogs."""

_ENGLISH: dict[str, str] = {}


def define(message_id: str, english: str) -> str:
    """Declare the message ``message_id`` with its English text, and return the id.

    ``pybabel extract`` reads these calls (keyword ``define:1c,2``), so a message defined here
    is one the catalogs must translate.  Both arguments must be string literals."""
    known = _ENGLISH.setdefault(message_id, english)
    if known != english:
        raise ValueError(f"message {message_id!r} is defined twice with different English")
    return message_id


def english(message_id: str) -> str:
    """The English text of ``message_id``."""
    try:
        return _ENGLISH[message_id]
    except KeyError:
        raise KeyError(f"message {message_id!r} was never defined (words.define)") from None


def known_ids() -> dict[str, str]:
    """Every message defined so far (in the modules imported so far), id to English."""
    return dict(_ENGLISH)


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, read once; none (English) for a language without one."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    except FileNotFoundError:
        return gettext.NullTranslations()


def _said(value: object, lang: str) -> object:
    """``value`` in ``lang`` when it can be said in one (a :class:`Message`, or a list of
    them that joins them in the language, as ``notation.Choices`` does), else as it is."""
    say = getattr(value, "said", None)
    return say(lang) if callable(say) else value


def text(message_id: str, lang: str = SOURCE_LANGUAGE, /, **args: object) -> str:
    """``message_id`` in ``lang`` with its ``{arguments}`` filled in (an argument that is a
    :class:`Message`, or anything else with a ``said(lang)``, is said in ``lang`` too).  English
    where the catalog lacks the message, which the catalogs' test refuses for nl and fy."""
    source = english(message_id)
    template = source if lang == SOURCE_LANGUAGE else _catalog(lang).pgettext(message_id, source)
    if not args:
        return template
    values = {k: _said(v, lang) for k, v in args.items()}
    return template.format(**values)


@dataclass(frozen=True, slots=True)
class Message:
    """A message id with its arguments, as an error carries it from where it is raised to
    whoever shows it, in whichever language."""

    id: str
    args: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, message_id: str, **args: object) -> Message:
        english(message_id)  # a typo in an id fails where the message is made
        return cls(message_id, tuple(args.items()))

    @property
    def arguments(self) -> Mapping[str, object]:
        return dict(self.args)

    def said(self, lang: str = SOURCE_LANGUAGE) -> str:
        return text(self.id, lang, **self.arguments)

    def __str__(self) -> str:
        return self.said()
