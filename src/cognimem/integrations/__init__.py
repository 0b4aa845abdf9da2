"""cognimem behind the memory interfaces of agent frameworks, one module each, each an
optional extra (``pip install 'cognimem[langgraph]'``): ``langgraph`` (a ``BaseStore``
and model hooks), ``langchain`` (a chat message history and a retriever),
``openai_agents`` (a ``Session`` and function tools), ``pydantic_ai`` (a toolset, deps
and instructions) and ``llamaindex`` (a memory block). ``transcript.py`` and
``tools.py`` hold what several of them share.

Nothing in cognimem imports this package: importing ``cognimem`` loads no framework.
Each integration takes ``Memory`` or ``AsyncMemoryClient`` (async callers) or
``SyncMemory`` or ``MemoryClient`` (blocking ones); ``bridge.py`` serves the other kind
of caller from the same code."""
