"""Playing in the terminal: ``sushigo play`` (see :mod:`.play`)."""
