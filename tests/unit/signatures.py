"""The keywords a method takes, read from its signature: its named parameters and the
keys of the ``TypedDict`` its ``**options: Unpack[...]`` takes (``models/requests.py``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import fields
from typing import Any, Unpack, get_args, get_origin, get_type_hints


def unpacked(method: Callable[..., Any]) -> Any:
    """The ``TypedDict`` of ``method``'s ``**options: Unpack[...]`` (None without one,
    or for a ``**kwargs: Any``)."""
    for name, p in inspect.signature(method).parameters.items():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            hint = get_type_hints(method)[name]
            return get_args(hint)[0] if get_origin(hint) is Unpack else None
    return None


def typed_keys(typed: Any) -> set[str]:
    """Every key of a ``TypedDict``, its bases' too."""
    return set(typed.__required_keys__ | typed.__optional_keys__)


def keywords(method: Callable[..., Any]) -> set[str]:
    params = inspect.signature(method).parameters
    named = {n for n, p in params.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}
    typed = unpacked(method)
    return named - {"self"} | (set() if typed is None else typed_keys(typed))


def names(of: type[Any]) -> set[str]:
    return {f.name for f in fields(of)}
