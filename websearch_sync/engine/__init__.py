"""What every search backend builds on: the :class:`~.base.Backend` base class, the
registry of names, result normalisation, the HTML engine and its parsing helpers, the
JSON API base. The engines themselves are the modules of ``websearch_sync.backends``.
"""
