"""Text both paths read the same way: below the write path (``ingest/``), the read path
(``recall/``), the lifecycle and the services, and importing none of them.

- :mod:`.tokens`: the words of a text and phrase lookup over word lists;
- :mod:`.keys`: name normalisation and the stable keys of facts;
- :mod:`.scope_tags`: the scope-tag lexicon that puts constraints and queries in domains;
- :mod:`.areas`: the decision areas (the broad scope tags, each with a description) a
  constraint bears on and a request is in;
- :mod:`.calendar` and :mod:`.temporal`: time expressions resolved against a reference;
- :mod:`.validate`: caller text, times and metadata checked before anything is written
  or read.

Only the standard library, ``cognimem.errors``, ``cognimem.models`` and
``cognimem.config`` lie below it (``tests/unit/test_layering.py``).
"""
