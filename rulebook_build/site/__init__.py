"""The website: the ``rulebook`` MkDocs plugin, its Markdown extension and assets, and the
programmatic build behind ``rulebook build``.  The only package that imports MkDocs and
Markdown."""
