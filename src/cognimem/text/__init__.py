"""Text both paths read the same way: below the write path (``ingest/``), the read path
(``recall/``), the lifecycle, editing and the services, and importing none of them.

- :mod:`.tokens`: the words of a text, a query's content words, and phrase lookup over
  word lists;
- :mod:`.stems`: the form a word is indexed under for lexical search (Snowball English
  stems; "mentorship" indexed as "mentor");
- :mod:`.names`: name normalisation and the stable keys of facts;
- :mod:`.scope_tags`: the scope-tag lexicon that puts constraints and queries in domains;
- :mod:`.areas`: the decision areas (the broad scope tags, each with a description) a
  constraint bears on and a request is in;
- :mod:`.temporal`: time expressions resolved against a reference, assembled from
  :mod:`.dates` (calendar dates, numeric dates), :mod:`.periods` (quarters, decades),
  :mod:`.holidays` (the holiday table), :mod:`.relative` (counted from the reference:
  "last Friday", "recently", weekends, counted weekdays), :mod:`.told` (durations,
  "since", habits, ranges, times told after an earlier event), on :mod:`.calendar`
  (names, number words and UTC date arithmetic) and :mod:`.mention` (what a time
  expression resolves to);
- :mod:`.events`: whether a sentence tells of an event, and the period a text tells of
  (an item's event period);
- :mod:`.validate`: caller text, times and metadata checked before anything is written
  or read.

Only the standard library, ``cognimem.errors``, ``cognimem.models`` and
``cognimem.config`` lie below it (``tests/unit/test_layering.py``).
"""
