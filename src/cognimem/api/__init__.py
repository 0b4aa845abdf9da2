"""The HTTP API: a thin skin over ``Memory``."""

from cognimem.api.app import create_app

__all__ = ["create_app"]
