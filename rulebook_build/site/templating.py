"""The Jinja2 environments of every page the plugin writes (``site/templates/``).

Both escape every value (``autoescape``): a tag, comment or name from a PDN file, a rule page's
text or a table's words is always text in the page; only HTML our own renderer made enters as
``Markup``, and each caller says where.  ``StrictUndefined`` makes a missing value an error
rather than an empty string.  ``TRIMMED`` drops the newlines around block tags, for templates
that lay out many small blocks (the comparison of two editions, the history line).
"""

from __future__ import annotations

from typing import Final

import jinja2


def _environment(*, trim: bool) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("rulebook_build.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=trim,
        lstrip_blocks=trim,
    )


TEMPLATES: Final = _environment(trim=False)
TRIMMED: Final = _environment(trim=True)
