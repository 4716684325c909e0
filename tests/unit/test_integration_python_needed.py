"""Importing an integration whose framework is not installed names the extra to install; on a
Python older than that framework's releases need, it names the Python instead. On 3.10 the
message recommended ``pip install 'langchain-core>=1.8'``, which no release installs there."""

import importlib
import sys

import pytest

#: integration module, the package it imports, the extra, and the oldest Python its releases install on
INTEGRATIONS = [
    ("langchain", "langchain_core", "langchain-core", "langchain", "3.11"),
    ("pydantic_ai", "pydantic_ai", "pydantic-ai-slim", "pydantic-ai", "3.11"),
    ("smolagents", "smolagents", "smolagents", "smolagents", "3.10"),
]


def _import_refused(monkeypatch, integration, hidden):
    monkeypatch.setitem(sys.modules, hidden, None)  # the framework not installed
    monkeypatch.delitem(sys.modules, "websearch_sync.integrations." + integration, raising=False)
    with pytest.raises(ImportError) as refused:
        importlib.import_module("websearch_sync.integrations." + integration)
    return str(refused.value)


@pytest.mark.parametrize(("integration", "hidden", "package", "extra", "python"), INTEGRATIONS)
def test_on_a_python_the_framework_installs_on_the_message_names_the_extra(
    integration, hidden, package, extra, python, monkeypatch
):
    monkeypatch.setattr(sys, "version_info", (3, 11, 7, "final", 0))
    message = _import_refused(monkeypatch, integration, hidden)
    assert message.startswith(
        "websearch_sync.integrations.%s needs %s, which is not installed: the `%s` extra"
        % (integration, package, extra)
    )


@pytest.mark.parametrize(("integration", "hidden", "package", "extra", "python"), INTEGRATIONS[:2])
def test_on_an_older_python_the_message_names_the_python_needed(
    integration, hidden, package, extra, python, monkeypatch
):
    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    assert _import_refused(monkeypatch, integration, hidden) == (
        "websearch_sync.integrations.%s needs %s, which needs Python %s or newer: this is Python 3.10, "
        "where the `%s` extra does not install" % (integration, package, python, extra)
    )
