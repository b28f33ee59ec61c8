"""Rendering the fenced blocks of a page: ```` ```draughts ```` and the site's other blocks.

:mod:`.fences` finds the blocks in a page's Markdown; :class:`BlockRenderer` turns each into
HTML with what the page and the build know (the page's language and source, the diagram
cache, the problems, the check page's tables).  A block that cannot be rendered is logged
once as ``file:line:column: message`` (so the strict build fails) and shows as an error box
(so ``mkdocs serve`` keeps running).  The blocks are one job, apart from the plugin's hooks,
because they are called by Markdown, not by MkDocs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from rulebook_build.checkpage import (
    manifest_digest,
    pyodide_folder,
    pyodide_version,
    render_checker,
)
from rulebook_build.errors import RulebookError
from rulebook_build.notation import DiagramSpec
from rulebook_build.render import Line
from rulebook_build.site.collections import Collection, Entry
from rulebook_build.site.comparison import render_comparison, render_score
from rulebook_build.site.diagrams import render_block, render_spec
from rulebook_build.site.editions import relative_url, render_editions
from rulebook_build.site.fences import DraughtsExtension
from rulebook_build.site.problems import (
    LABELS,
    Diagram,
    home,
    render_collection,
    render_collection_page,
    render_index,
    render_problem,
    render_problem_page,
)
from rulebook_build.site.shared_diagrams import relocated, resolve
from rulebook_build.site.state import PageState, SiteBuild, log


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class BlockRenderer:
    """Renders the blocks of the page being built (:attr:`SiteBuild.page`)."""

    def __init__(self, site: SiteBuild) -> None:
        self.site = site

    def extension(self) -> DraughtsExtension:
        """The Markdown extension that hands every block of a page to this renderer."""
        others = {
            "draughts-problem": self._render_problem,
            "draughts-problems": self._render_problem_index,
            "draughts-collection": self._render_collection,
            "draughts-checker": self._render_checker,
            "draughts-comparison": self._render_comparison,
            "draughts-score": self._render_score,
            "edition-comparison": self._render_editions,
        }
        return DraughtsExtension(self.render_block, others)

    def render_block(self, text: str, line: int, indent: int) -> str:
        """A ```` ```draughts ```` block: a diagram, with its solution player.  One that names
        a shared diagram (``diagram: <id>``) is written out in full first, and its faults are
        located where they were written (:mod:`.shared_diagrams`)."""
        site = self.site
        state = site.current_page()
        state.count += 1
        element_id = f"diagram-{state.count}"
        first_line = line + state.line_offset
        try:
            shared = resolve(
                text,
                project=site.project_dir,
                uri=state.uri,
                source=state.source,
                first_line=first_line,
                indent=indent,
            )
            if shared is None:
                return render_block(
                    text,
                    lang=state.lang,
                    source=state.source,
                    first_line=first_line,
                    indent=indent,
                    element_id=element_id,
                    cache=site.cache,
                )
            try:
                return render_block(
                    shared.text,
                    lang=state.lang,
                    source=state.source,
                    element_id=element_id,
                    first_line=1,
                    indent=0,
                    cache=site.cache,
                )
            except RulebookError as error:
                raise relocated(
                    error,
                    shared,
                    source=state.source,
                    first_line=first_line,
                    indent=indent,
                    text=text,
                ) from None
        except RulebookError as error:
            site.report(str(error))
            return (
                '<div class="admonition failure rb-diagram-error"><p class="admonition-title">'
                f"draughts</p><pre>{_escape(str(error))}</pre></div>"
            )

    def _extra_block(self, text: str, line: int, kind: str) -> str:
        site = self.site
        state = site.current_page()
        where = f"{state.source}:{line + state.line_offset}"
        problems = site.problems

        def diagram(block: str, lines: Sequence[tuple[str, str, str]] = ()) -> str:
            state.count += 1
            return render_block(
                block,
                lang=state.lang,
                source=where,
                first_line=1,
                indent=0,
                element_id=f"diagram-{state.count}",
                cache=site.cache,
                lines=lines,
            )

        diagram_of = self._diagram_of(state)
        try:
            if kind == "index":
                return render_index(
                    text, lang=state.lang, where=where, site=problems, root=state.root
                )
            if kind == "collection":
                return render_collection(
                    text, lang=state.lang, where=where, site=problems, root=state.root
                )
            if kind == "comparison":
                return render_comparison(text, lang=state.lang)
            if kind == "score":
                return render_score(text, lang=state.lang, where=where, diagram=diagram)
            if kind == "editions":
                return render_editions(
                    text,
                    lang=state.lang,
                    where=where,
                    project=site.project_dir,
                    source=functools.partial(self._rule_page, lang=state.lang),
                    link=lambda target: relative_url(
                        state.uri, target, directory_urls=site.directory_urls
                    ),
                )
            return render_problem(
                text,
                lang=state.lang,
                where=where,
                site=problems,
                diagram=diagram_of,
                root=state.root,
            )
        except RulebookError as error:
            site.report(str(error))
            return f'<div class="admonition failure"><pre>{_escape(str(error))}</pre></div>'

    def _diagram_of(self, state: PageState) -> Diagram:
        """A diagram from objects, numbered in the page's order."""

        def diagram_of(spec: DiagramSpec, lines: Sequence[Line] = ()) -> str:
            state.count += 1
            return render_spec(
                spec,
                lang=state.lang,
                element_id=f"diagram-{state.count}",
                cache=self.site.cache,
                lines=lines,
            )

        return diagram_of

    def made_page(self, target: Entry | Collection) -> str:
        """The HTML below the title of a page made from ``problems/`` (``problem_pages.py``):
        the problem or collection rendered from the object itself."""
        site = self.site
        state = site.current_page()
        try:
            if isinstance(target, Collection):
                return render_collection_page(
                    target,
                    lang=state.lang,
                    where=f"problems/{target.slug}",
                    site=site.problems,
                    root=state.root,
                )
            return render_problem_page(
                target,
                lang=state.lang,
                where=f"{target.game.source}:{target.game.line}",
                site=site.problems,
                diagram=self._diagram_of(state),
                root=state.root,
            )
        except RulebookError as error:
            site.report(str(error))
            return f'<div class="admonition failure"><pre>{_escape(str(error))}</pre></div>'

    def _render_problem(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "problem")

    def _render_problem_index(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "index")

    def _render_checker(self, text: str, line: int, indent: int) -> str:
        site = self.site
        state = site.current_page()
        pyodide = pyodide_folder(site.project_dir)
        available = pyodide is not None
        if not available and "pyodide" not in site.reported:
            site.reported.add("pyodide")
            log.info(
                "node_modules/pyodide is missing: the check page says so instead of offering "
                "the in-browser checker ('npm ci' installs it)"
            )
        tables = {
            variant: {
                "digest": manifest_digest(folder, variant),
                "pieces": manifest["pieces"],
            }
            for variant, (folder, manifest) in (site.site_tables or {}).items()
        }
        return render_checker(
            lang=state.lang,
            root=state.root,
            available=available,
            address=site.options.submissions,
            home=home(state.root, state.lang),
            grades=LABELS.get(state.lang, LABELS["en"]),
            tables=tables,
            compiled=site.wasm is not None,
            pyodide=pyodide_version(pyodide) if pyodide is not None else "unknown",
        )

    def _render_collection(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "collection")

    def _render_comparison(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "comparison")

    def _render_score(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "score")

    def _render_editions(self, text: str, line: int, indent: int) -> str:
        return self._extra_block(text, line, "editions")

    def _rule_page(self, uri: str, *, lang: str) -> Path:
        """A page's Markdown in ``lang``, or in the default language (Dutch) where it has no
        translation."""
        own = self.site.docs_dir / lang / uri
        return own if own.is_file() else self.site.docs_dir / self.site.default_language / uri
