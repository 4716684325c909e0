"""``langchain.move_tool_images``, ``images_after_tool_messages``' rewrite of a request's messages: each run of tool
messages answering one model turn keeps its text, and one user message after the run holds the
run's images in order; messages without images, and the list it was given, are left as they are."""

from agent_engine import integration


def test_each_run_of_tool_messages_is_followed_by_a_user_message_of_its_images():
    langchain = integration("langchain", "langchain_core")
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    def image(n):
        return {"type": "image", "base64": "AA%d" % n, "mime_type": "image/png"}

    def fetched(n):
        return ToolMessage(content=[{"type": "text", "text": "[image %d]" % n}, image(n)], tool_call_id="c%d" % n)

    messages = [
        HumanMessage("look"),
        AIMessage(content="", tool_calls=[{"name": "web_fetch", "args": {}, "id": "c%d" % n} for n in (1, 2, 3)]),
        fetched(1),
        ToolMessage(content="a page's text", tool_call_id="c2"),
        fetched(3),
        AIMessage(content="", tool_calls=[{"name": "web_fetch", "args": {}, "id": "c4"}]),
        fetched(4),
    ]
    moved = langchain.move_tool_images(messages)
    assert [type(message).__name__ for message in moved] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "ToolMessage",
        "ToolMessage",
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "HumanMessage",
    ]
    assert moved[2].content == [{"type": "text", "text": "[image 1]"}] and moved[3].content == "a page's text"
    assert moved[5].content == [{"type": "text", "text": langchain.IMAGES_NOTE}, image(1), image(3)]
    assert moved[8].content == [{"type": "text", "text": langchain.IMAGES_NOTE}, image(4)]
    assert messages[2].content[1] == image(1)  # the agent's own history is not changed
    kept = langchain.move_tool_images(messages[:2])
    assert len(kept) == 2 and all(new is old for new, old in zip(kept, messages[:2]))
    assert moved[3] is messages[3]  # a tool message without images is the same message


def test_a_tool_message_of_images_only_keeps_a_text_saying_where_they_went():
    """Moving every block left ``content: []``, which a chat API refuses as a message."""
    langchain = integration("langchain", "langchain_core")
    from langchain_core.messages import AIMessage, ToolMessage

    image = {"type": "image", "base64": "AA1", "mime_type": "image/png"}
    messages = [
        AIMessage(content="", tool_calls=[{"name": "shot", "args": {}, "id": "c1"}]),
        ToolMessage(content=[image], tool_call_id="c1"),
    ]
    moved = langchain.move_tool_images(messages)
    assert moved[1].content == [{"type": "text", "text": langchain.MOVED_NOTE}]
    assert moved[2].content == [{"type": "text", "text": langchain.IMAGES_NOTE}, image]
