"""Older page layouts (table layouts, <pre> archives, hand-written home pages): the article
comes back whole, not as a fragment, and the navigation around it stays out. Small
synthetic pages written here in the markup those generators use."""

from websearch_sync.extract.article import extract_html
from websearch_sync.extract.rules import DEFAULT_RULES

POSTS = [
    "I rebuilt the carburettor on my 1978 bike last week and since then it idles rough, hunting between 900 and "
    "1400 rpm. The float height is set to spec and I cleaned every jet twice.",
    "Sounds like an air leak. Spray some carb cleaner around the intake boots while it idles; if the revs change, "
    "you have found it. Old rubber boots crack on the inside where you cannot see it.",
    "Also check the pilot screw setting. After a rebuild people often forget to count the turns before taking it "
    "out, and two turns out is a good starting point on most of those carbs.",
    "Thanks both, it was the intake boot on the left side, cracked right through underneath. Replaced it and it "
    "idles like new now.",
]
POST = (
    "<tr><td class='alt2' width='160' valign='top'><a class='bigusername' href='member.php?u=%d'>user%d</a>"
    "<div class='smallfont'>Junior Member</div><div class='smallfont'>Join Date: Jan 2005<br>Posts: 13</div></td>"
    "<td class='alt1' id='td_post_%d'><div class='smallfont'><strong>Re: Carburettor idles rough after rebuild"
    "</strong></div><hr size='1'><div id='post_message_%d'>%s</div></td></tr>"
)

# A forum thread in a table layout (each post a table row): readability keeps one post.
FORUM_THREAD = (
    "<html><head><title>Carburettor idles rough after rebuild - Vintage Bikes Forum</title></head><body>"
    "<table width='100%'><tr><td><a href='/'><img src='logo.gif'></a></td><td><a href='/forum'>Forums</a> | "
    "<a href='/search'>Search</a> | <a href='/faq'>FAQ</a> | <a href='/members'>Members</a></td></tr></table>"
    "<table class='tborder' cellpadding='6' width='100%'>"
    + "".join(POST % (n, n, n, n, text) for n, text in enumerate(POSTS))
    + "</table><table width='100%'><tr><td class='smallfont'>All times are GMT. <a href='/archive'>Archive</a>"
    "</td></tr></table></body></html>"
)

# A mailing-list archive message: the body is a <pre>, navigation lists above and below.
NAVIGATION = (
    "<P><UL><LI>Previous message: <A HREF='088001.html'>[Python-Dev] Another thread about something else"
    "</A></li><LI>Next message: <A HREF='088003.html'>[Python-Dev] Re: Proposal: a faster dict iteration"
    "</A></li><LI> <B>Messages sorted by:</B> <a href='date.html'>[ date ]</a> <a href='thread.html'>"
    "[ thread ]</a> <a href='subject.html'>[ subject ]</a></LI></UL>"
)
BODY = (
    "Hi all,\n\nI would like to propose a change to the way dictionaries are iterated in the\ninterpreter "
    "loop. The current implementation checks the size of the table on\nevery step, which costs a branch that "
    "the common case never needs.\n\nThe patch keeps a version counter instead, and only checks it when the\n"
    "iterator is advanced past the end of a block. On the benchmarks I ran, this\nmakes iteration over large "
    "dictionaries about eight percent faster.\n\nJane\n"
)
MAILING_LIST_MESSAGE = (
    "<HTML><HEAD><TITLE> [Python-Dev] Proposal: a faster dict iteration</TITLE></HEAD><BODY BGCOLOR='#ffffff'>"
    "<H1>[Python-Dev] Proposal: a faster dict iteration</H1><B>Jane Roe</B> <A HREF='mailto:dev%40example.org'>"
    "jane at example.org</A><BR><I>Tue Mar  3 10:11:12 EST 2009</I>" + NAVIGATION + "<HR><!--beginarticle-->"
    "<PRE>"
    + BODY
    + "</PRE><!--endarticle--><HR>"
    + NAVIGATION
    + "<hr><a href='http://mail.example.org/listinfo/dev'>More information about the Dev mailing list</a><br>"
    "</body></html>"
)

# A hand-written home page: a layout table, the text in the second cell, a dated footer line.
HOME_PAGE = (
    "<html><head><title>Jane Roe - Home Page</title></head><body bgcolor='white'><table width='760'><tr>"
    "<td valign='top' width='160'><a href='index.html'>Home</a><br><a href='pubs.html'>Publications</a><br>"
    "<a href='cv.pdf'>CV</a></td><td valign='top'><h2>Jane Roe</h2>"
    "<p>I am an associate professor in the Department of Computer Science at Example University. My research is "
    "on program analysis, in particular on making static analyses scale to large code bases.</p>"
    "<p>Before joining Example University I was a postdoc at Another Institute, where I worked on incremental "
    "type inference for dynamic languages.</p><h3>Recent publications</h3><ul>"
    "<li><a href='p1.pdf'>Scalable points-to analysis with demand-driven refinement</a>. J. Roe and A. Smith. "
    "PLDI 2008.</li><li><a href='p2.pdf'>Incremental type inference for scripting languages</a>. J. Roe. "
    "OOPSLA 2007.</li></ul></td></tr></table><p><font size='-1'>Last modified: March 3, 2009</font></p>"
    "</body></html>"
)


def test_forum_thread_in_a_table_layout_comes_back_whole():
    recoveries = {"recovery.fragment", "recovery.table_column"}
    without = extract_html(FORUM_THREAD, mode="text", rules=DEFAULT_RULES - recoveries).text
    assert sum(post[:50] in without for post in POSTS) == 1  # readability alone: one post
    for rules in (DEFAULT_RULES, DEFAULT_RULES - {"recovery.fragment"}, DEFAULT_RULES - {"recovery.table_column"}):
        text = extract_html(FORUM_THREAD, mode="text", rules=rules).text  # either recovery takes the posts' column
        for post in POSTS:
            assert post in " ".join(text.split())


def test_a_heading_inside_a_widened_table_column_is_read_as_html():
    # The posts' column is copied into a new element; a heading nested in a post was read
    # through that element's parser, not the page's: a plain lxml element without
    # text_content, and extraction failed with AttributeError (an unseen page, issue 35).
    page = FORUM_THREAD.replace(
        "<div id='post_message_0'>",
        "<div id='post_message_0'><div><h1>Carburettor idles rough after rebuild</h1></div>",
    )
    for mode in ("text", "markdown"):
        text = " ".join(extract_html(page, mode=mode).text.split())
        for post in POSTS:
            assert post in text


def test_mailing_list_message_keeps_its_whole_body_with_its_line_breaks():
    # (its navigation lists, mostly link text behind a label, are kept: readability's own
    # cleaning drops them, but it also drops publication lists, which are content)
    text = extract_html(MAILING_LIST_MESSAGE, mode="text").text
    assert BODY.strip() in text
    assert "Jane Roe jane at example.org" in text


def test_home_page_text_is_not_reduced_to_its_footer_line():
    text = extract_html(HOME_PAGE, mode="text").text
    assert "I am an associate professor" in text and "Before joining Example University" in text
    assert "Scalable points-to analysis with demand-driven refinement. J. Roe and A. Smith. PLDI 2008." in text
