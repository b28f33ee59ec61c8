"""The site's navigation: one section per folder, whatever language its pages are in.

static-i18n gives a translated folder (``fy/regels/``) and its Dutch fallback pages
(``nl/regels/``) a section each, with the same title; :func:`merge_sections` makes them one.
"""

from __future__ import annotations

from typing import Any

from mkdocs.structure.nav import Section


def merge_sections(items: list[Any]) -> list[Any]:
    """Sibling sections with the same title become one, their pages in file-name order."""
    merged: list[Any] = []
    by_title: dict[str, Section] = {}
    grown: set[int] = set()
    for item in items:
        if isinstance(item, Section) and item.title in by_title:
            target = by_title[item.title]
            for child in item.children:
                child.parent = target
            target.children.extend(item.children)
            grown.add(id(target))
            continue
        if isinstance(item, Section):
            by_title[item.title] = item
        merged.append(item)
    for item in merged:
        if isinstance(item, Section):
            item.children = merge_sections(item.children)
            if id(item) in grown:
                item.children.sort(key=_nav_order)
    return merged


def _nav_order(item: Any) -> tuple[int, str]:
    file = getattr(item, "file", None)
    if file is not None:
        return (0, str(getattr(file, "norm_src_uri", file.src_uri)))
    return (1, str(getattr(item, "title", "") or ""))
