"""The words people read, in gettext catalogs: one ``.po`` per language a translator edits with
their own tools (Poedit, Weblate, a text editor), compiled to the ``.mo`` the code reads.

A message has an id (the catalog's key: the ``msgctxt`` of its entry) and an English text (the
``msgid``: English is the language the code is written in, so it needs no catalog of its own,
and a translator sees the English beside each id).  Code declares a message once with
:func:`define` (``pybabel extract`` finds these calls) and shows it with :func:`text`, or
carries it with its arguments as a :class:`Message` (an error raised in the notation layer,
shown later in the page's language).  The command line's messages stay English: the same ids,
the English text.

A shared room, below every layer: the rules and the notation raise errors that carry messages.
"""

# Imported at once, not through rulebook_build.face: a shared room imports no other room, and
# its one module is small and needs only the standard library.
from rulebook_build.words.catalog import (
    LANGUAGES,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    TEMPLATE,
    Message,
    define,
    english,
    known_ids,
    text,
)

__all__ = [
    "LANGUAGES",
    "LOCALE_DIR",
    "SOURCE_LANGUAGE",
    "TEMPLATE",
    "Message",
    "define",
    "english",
    "known_ids",
    "text",
]
