"""The Markdown extension finds ```draughts blocks, with their lines, and nothing else."""

from __future__ import annotations

import markdown

from rulebook_build.site.fences import DraughtsExtension

SOURCE = """# Title

```draughts
position: start
caption: one
```

!!! note "Inside"

    ```draughts
    position: empty
    ```

````markdown
```draughts
position: shown as text
```
````

~~~ draughts
position: tilde
~~~
"""


def convert(text: str) -> tuple[str, list[tuple[str, int, int]]]:
    seen: list[tuple[str, int, int]] = []

    def renderer(block: str, line: int, indent: int) -> str:
        seen.append((block, line, indent))
        return f'<div class="board">{len(seen)}</div>'

    html = markdown.markdown(
        text, extensions=["admonition", "fenced_code", DraughtsExtension(renderer)]
    )
    return html, seen


def test_blocks_lines_and_indent() -> None:
    html, seen = convert(SOURCE)
    assert seen == [
        ("position: start\ncaption: one", 4, 0),
        ("position: empty", 11, 4),
        ("position: tilde", 21, 0),
    ]
    assert '<div class="board">1</div>' in html
    # the indented block stays inside the admonition
    note = html[html.index('class="admonition note"') :]
    assert note.index('<div class="board">2</div>') < note.index("</div>")
    # a draughts fence inside a longer fence is shown as code
    assert "position: shown as text" in html
    assert "<code" in html
