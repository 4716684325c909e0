"""Ready tools for agent frameworks: one line gives ``web_search`` and ``web_fetch``
as the framework's own tool objects.

    from websearch_sync.integrations import langchain       # or llama_index, smolagents,
    tools = langchain.tools()                                #    pydantic_ai, openai_agents

Each module needs its framework, installed by the extra of the same name
(``pip install -e '.[langchain]'`` from a checkout); importing it without the framework
raises an ``ImportError`` naming that extra. This package itself imports no framework
(and names no module in ``__all__``, so ``import *`` imports none either).
See docs/agent-tools.md.
"""
