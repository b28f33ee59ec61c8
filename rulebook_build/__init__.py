"""rulebook_build: draughts rules engine, notation, problem checker and website builder."""

__version__ = "0.2.0"
