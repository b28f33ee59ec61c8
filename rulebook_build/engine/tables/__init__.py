"""The endgame tables, by job.

* ``endgame``: what a stored value means, the probes, and which classes are built when
  (``EndgameTables``);
* ``kinds``: both kinds of table as the proof search probes them (``CheckerTables``), which
  classes ``rulebook check`` builds on first use and which it only reads;
* ``index``: where a position is stored in its class's table (the perfect index);
* ``retrograde``: building a class pair's table, in Python or with the compiled builder, from
  the values of the classes it leads to (it hands back what it built);
* ``store``: the cache folders and the table files of one kind (``TableStore``): their names,
  the rules' fingerprint, reading, writing, copying and checking them;
* ``tablefile``: the built files (a header with the rules' fingerprint and a checksum) and
  their checks;
* ``compact``: the compact files, both kinds of a class in one compressed file.
"""
