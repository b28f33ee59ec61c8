"""The engine room: what the judging stands on, below the checker.

* ``search``: the proof search (df-pn) in Python, the walk that re-checks every tree the
  compiled search prints, and the proofs' acceptance;
* ``binaries``: the compiled programs' Python side (the C sources in ``native/``: the proof
  search with its evaluating engine, the table builder, the packer), built on first use;
* ``wasm``: the same proof search compiled to WebAssembly for the check page;
* ``budget``: a time limit counted in wall time or in work (``--deterministic``);
* ``tables``: the endgame tables: format, checks, building, probing, publishing.

The checker (``rulebook_build.checker``) asks questions of this room and decides what the
answers mean for a problem; nothing here knows the contest's criteria.
"""
