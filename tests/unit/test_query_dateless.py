"""A read finds its question's time expressions once: ``QueryAnalysis.dateless``
(recall/analyze.py) is ``fact_time.without_times`` of the query, whether ``analyze``
found it or the analysis was made without it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from cognimem.recall.analyze import analyze, event_question
from cognimem.recall.events import event_terms
from cognimem.recall.fact_time import without_times

NOW = datetime(2024, 6, 1, tzinfo=UTC)
QUESTIONS = [
    "What did I cook last summer?",
    "How many pets did I have as of May 2025?",
    "Which came first, the trip to Rome or the move in March 2023?",
    "what is my cat called",
    "Where did we go on 3 May 2023 and the week after?",
]


def test_the_analysis_holds_the_question_without_its_times() -> None:
    for question in QUESTIONS:
        analysis = analyze(question, NOW)
        assert analysis.dateless == without_times(question)
        # an analysis made without it (a copy, a test's) works it out the same
        bare = replace(analysis, found_dateless=None)
        assert bare.dateless == analysis.dateless
        assert bare == analysis  # not part of what the analysis is
        assert event_question(question, analysis.dateless) == event_question(question)
        assert event_terms(question, analysis.dateless) == event_terms(question)
    assert analyze(QUESTIONS[0], NOW).dateless != QUESTIONS[0]  # a time was taken out
    assert analyze(QUESTIONS[3], NOW).dateless == QUESTIONS[3]
