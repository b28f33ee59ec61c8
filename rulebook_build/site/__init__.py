"""The website: the ``rulebook`` MkDocs plugin, its Markdown extension and assets, and the
programmatic build behind ``rulebook build``.  The only package that imports MkDocs and
Markdown."""

from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.site.builder import build_site, find_config
    from rulebook_build.site.pdf import unavailable

__getattr__ = face(
    __name__,
    {
        "build_site": ("rulebook_build.site.builder", "build_site"),
        "find_config": ("rulebook_build.site.builder", "find_config"),
        "unavailable": ("rulebook_build.site.pdf", "unavailable"),
    },
)

__all__ = [
    "build_site",
    "find_config",
    "unavailable",
]
