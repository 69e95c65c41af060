"""Commands of the optional parts, imported lazily by :mod:`sushigo.cli`."""
