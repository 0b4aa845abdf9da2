"""The write funnel: validate → append events → chunk → gate → embed → commit."""

from cognimem.ingest.funnel import WriteFunnel

__all__ = ["WriteFunnel"]
