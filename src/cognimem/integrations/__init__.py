"""cognimem behind the memory interfaces of agent frameworks, one module each, each an
optional extra (``pip install 'cognimem[langgraph]'``): ``langgraph`` (a ``BaseStore``
and model hooks) and ``langchain`` (a chat message history and a retriever).

Nothing in cognimem imports this package: importing ``cognimem`` loads no framework.
Each integration takes ``Memory`` or ``AsyncMemoryClient`` (async callers) or
``SyncMemory`` or ``MemoryClient`` (blocking ones); ``bridge.py`` serves the other kind
of caller from the same code."""
