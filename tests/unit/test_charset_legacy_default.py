"""An undeclared page in a legacy charset: where charset detection rates cp1252 and cp1250 alike, the
page is read in the one whose letters spell a language (a Spanish page read as cp1250 turned every
``ñ`` into ``ń``; a Hungarian, Romanian or Croatian page read as cp1252 turns ``ő`` into ``õ``, ``ş``
into ``º``, ``ć`` into ``æ``); a page detection tells apart keeps its own charset."""

import pytest

from websearch_sync.net.charset import decode_body

SPANISH = (
    "El Gobierno español anunció el miércoles una serie de medidas para apoyar a las empresas afectadas "
    "por la crisis energética. Según el ministro, la ayuda llegará a más de un millón de pequeñas "
    "compañías. «Estaremos al lado de todos», afirmó."
)
POLISH = (
    "Rząd ogłosił w środę nowy pakiet działań, który ma wesprzeć przedsiębiorstwa dotknięte kryzysem "
    "energetycznym. Małe firmy otrzymają dopłaty. Źródło: ministerstwo, żółć gęślą jaźń."
)
CZECH = (
    "Vláda ve středu oznámila nový balíček opatření na podporu podniků zasažených energetickou krizí. "
    "Malé firmy dostanou příspěvky. Příliš žluťoučký kůň úpěl ďábelské ódy."
)

HUNGARIAN = (
    "A kormány szerdán új törvényt fogadott el a környezetvédelemről. A lakók könnyebben jelenthetik a "
    "szennyezést, és a hatóságoknak harminc napon belül válaszolniuk kell. Ősszel újabb szabályok jönnek."
)
ROMANIAN = (
    "Guvernul a adoptat astăzi o nouă lege privind protecţia mediului. Locuitorii oraşelor vor putea "
    "raporta mai uşor poluarea, iar autorităţile trebuie să răspundă în treizeci de zile."
)
CROATIAN = "Vlada je u srijedu objavila novi paket mjera za pomoć poduzećima. Mala poduzeća će dobiti potporu."


def page(text: str) -> str:
    return "<html><head><title>x</title></head><body><p>%s</p></body></html>" % text


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=utf-8"])
def test_an_undeclared_or_mislabelled_cp1252_page_keeps_its_letters(content_type):
    assert decode_body(page(SPANISH).encode("cp1252"), content_type) == page(SPANISH)


@pytest.mark.parametrize("text", [POLISH, CZECH], ids=["polish", "czech"])
def test_a_cp1250_page_detection_tells_apart_stays_cp1250(text):
    assert decode_body(page(text).encode("cp1250"), "text/html") == page(text)


@pytest.mark.parametrize("content_type", ["text/html", "text/html; charset=utf-8"])
@pytest.mark.parametrize("text", [HUNGARIAN, ROMANIAN, CROATIAN], ids=["hungarian", "romanian", "croatian"])
def test_an_undeclared_or_mislabelled_cp1250_page_detection_rates_like_cp1252_keeps_its_letters(text, content_type):
    assert decode_body(page(text).encode("cp1250"), content_type) == page(text)
