"""Identifiers: time-ordered, random, with a readable prefix (``evt_``, ``mem_``)."""

from __future__ import annotations

import hashlib
import os
import time


def new_id(prefix: str) -> str:
    """``<prefix>_`` + 12 hex digits of milliseconds + 16 random hex digits."""
    return f"{prefix}_{int(time.time() * 1000):012x}{os.urandom(8).hex()}"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
