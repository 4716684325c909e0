"""The ISO codes a locale's parts are checked against: its language and its country.

A BCP 47 locale is language first, country second (``en-US``); ddgs's and DuckDuckGo's ``region``
is the other way round (``us-en``), and read as a locale it would pass the shape check with the
parts misread (``us-en``: a language ``us`` in a country ``EN``; ``uk-en``: Ukrainian). The tables
here make such a value a refusal: :func:`locale_refusal` says which part is no code.

The tables are ISO 639-1 (184 two-letter languages, and their names: :func:`named_language`) and
ISO 3166-1 alpha-2 (249 countries), as
Debian's ``iso-codes`` 4.15 lists them (``/usr/share/iso-codes/json``; ``python docs/locale_code_tables.py``
writes them again from it), with the few codes BCP 47 also registers (below). A three-letter language (``fil``, ``yue``: ISO 639-2/3, thousands of them)
is taken as given, as is a region of three digits (``es-419``, UN M.49).
"""

from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

# iso-codes-start: docs/locale_code_tables.py writes what follows, from Debian's iso-codes: never edit it
#: 184 codes: ``alpha_2`` of iso-codes' ``iso_639-2.json``.
ISO_639_1 = (
    "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da "
    "de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz "
    "ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln "
    "lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi "
    "pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti "
    "tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"
)
#: 249 codes: ``alpha_2`` of iso-codes' ``iso_3166-1.json``.
ISO_3166_1 = (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS "
    "BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE "
    "EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM "
    "HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC "
    "LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA "
    "NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW "
    "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO "
    "TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
)
#: 218 names: ``name`` of iso-codes' ``iso_639-2.json``, ``name=code`` (:func:`language_names`).
LANGUAGE_NAMES = (
    "abkhazian=ab afar=aa afrikaans=af akan=ak albanian=sq amharic=am arabic=ar aragonese=an "
    "armenian=hy assamese=as avaric=av avestan=ae aymara=ay azerbaijani=az bambara=bm bashkir=ba "
    "basque=eu belarusian=be bengali=bn bihari_languages=bh bislama=bi bokmål=nb bosnian=bs breton=br "
    "bulgarian=bg burmese=my castilian=es catalan=ca central_khmer=km chamorro=ch chechen=ce chewa=ny "
    "chichewa=ny chinese=zh chuang=za church_slavic=cu church_slavonic=cu chuvash=cv cornish=kw "
    "corsican=co cree=cr croatian=hr czech=cs danish=da dhivehi=dv divehi=dv dutch=nl dzongkha=dz "
    "english=en esperanto=eo estonian=et ewe=ee faroese=fo fijian=fj finnish=fi flemish=nl french=fr "
    "fulah=ff gaelic=gd galician=gl ganda=lg georgian=ka german=de gikuyu=ki greek=el greenlandic=kl "
    "guarani=gn gujarati=gu haitian=ht haitian_creole=ht hausa=ha hebrew=he herero=hz hindi=hi "
    "hiri_motu=ho hungarian=hu icelandic=is ido=io igbo=ig indonesian=id interlingua=ia "
    "interlingue=ie inuktitut=iu inupiaq=ik irish=ga italian=it japanese=ja javanese=jv "
    "kalaallisut=kl kannada=kn kanuri=kr kashmiri=ks kazakh=kk kikuyu=ki kinyarwanda=rw kirghiz=ky "
    "komi=kv kongo=kg korean=ko kuanyama=kj kurdish=ku kwanyama=kj kyrgyz=ky lao=lo latin=la "
    "latvian=lv letzeburgesch=lb limburgan=li limburger=li limburgish=li lingala=ln lithuanian=lt "
    "luba-katanga=lu luxembourgish=lb macedonian=mk malagasy=mg malay=ms malayalam=ml maldivian=dv "
    "maltese=mt manx=gv maori=mi marathi=mr marshallese=mh moldavian=ro moldovan=ro mongolian=mn "
    "nauru=na navaho=nv navajo=nv ndonga=ng nepali=ne north_ndebele=nd northern_sami=se norwegian=no "
    "norwegian_bokmål=nb norwegian_nynorsk=nn nuosu=ii nyanja=ny nynorsk=nn occidental=ie occitan=oc "
    "ojibwa=oj old_bulgarian=cu old_church_slavonic=cu old_slavonic=cu oriya=or oromo=om ossetian=os "
    "ossetic=os pali=pi panjabi=pa pashto=ps persian=fa polish=pl portuguese=pt provençal=oc "
    "punjabi=pa pushto=ps quechua=qu romanian=ro romansh=rm rundi=rn russian=ru samoan=sm sango=sg "
    "sanskrit=sa sardinian=sc scottish_gaelic=gd serbian=sr shona=sn sichuan_yi=ii sindhi=sd "
    "sinhala=si sinhalese=si slovak=sk slovenian=sl somali=so sotho=st south_ndebele=nr spanish=es "
    "sundanese=su swahili=sw swati=ss swedish=sv tagalog=tl tahitian=ty tajik=tg tamil=ta tatar=tt "
    "telugu=te thai=th tibetan=bo tigrinya=ti tonga=to tsonga=ts tswana=tn turkish=tr turkmen=tk "
    "twi=tw uighur=ug ukrainian=uk urdu=ur uyghur=ug uzbek=uz valencian=ca venda=ve vietnamese=vi "
    "volapük=vo walloon=wa welsh=cy western_frisian=fy wolof=wo xhosa=xh yiddish=yi yoruba=yo "
    "zhuang=za zulu=zu"
)
# iso-codes-end

#: ISO 639-1, and the withdrawn codes BCP 47 still registers (``iw``, ``in``, ``ji``, ``jw``,
#: ``mo``, ``sh``: Java's ``Locale`` wrote the first three for decades).
LANGUAGES = frozenset(ISO_639_1.split() + ["in", "iw", "ji", "jw", "mo", "sh"])

#: ISO 3166-1 alpha-2, and the regions BCP 47 registers beyond it: ``EU``, ``EZ`` and ``UN`` and
#: the exceptionally reserved ``AC``, ``CP``, ``DG``, ``EA``, ``IC``, ``TA``; and ``XK`` (Kosovo,
#: as CLDR writes it). ``UK`` is none: the United Kingdom is ``GB``.
COUNTRIES = frozenset(ISO_3166_1.split() + ["AC", "CP", "DG", "EA", "EU", "EZ", "IC", "TA", "UN", "XK"])

#: The regions BCP 47 registers that ISO 3166-1 withdrew (deprecated, still valid in a tag):
#: ``AN`` the Netherlands Antilles, ``BU`` Burma, ``CS`` Serbia and Montenegro, ``DD`` East Germany,
#: ``FX`` metropolitan France, ``NT`` the Neutral Zone, ``SU`` the USSR, ``TP`` East Timor, ``YD``
#: South Yemen, ``YU`` Yugoslavia, ``ZR`` Zaire.
DEPRECATED_REGIONS = frozenset("AN BU CS DD FX NT SU TP YD YU ZR".split())


def private_use_region(region: str) -> bool:
    """Whether a two-letter ``region`` (upper case) is one ISO 3166 leaves to private use, which
    BCP 47 takes as any region: ``AA``, ``QM`` to ``QZ``, ``XA`` to ``XZ``, ``ZZ`` (``en-XA``, the
    pseudo-locale of Android and CLDR)."""
    return region in ("AA", "ZZ") or region[0] == "X" or (region[0] == "Q" and region[1] >= "M")


_REGIONS = COUNTRIES | DEPRECATED_REGIONS

#: Codes taken for a country that are none, and the country they mean.
COUNTRY_MISTAKES = {"UK": "GB"}


def region_subtag(locale: str) -> Optional[str]:
    """The region subtag of ``locale``: two letters (upper case: ``"US"``) or three UN M.49 digits
    (``"419"``, Latin America); ``None`` without one (``"zh-Hant"``: a script). Only the subtags
    before an extension's or private use's singleton count: ``de-u-co-phonebk`` (a collation) and
    ``en-x-uk`` have no region. The one rule of what a locale's region is: the check of its code
    (:func:`locale_refusal`) and what the engines send (``engine.locales``) both read it here."""
    for part in locale.replace("_", "-").split("-")[1:]:
        if len(part) == 1:  # a singleton: an extension (-u-) or private use (-x-) follows
            return None
        if (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            return part.upper()
    return None


#: ``{a language's name, lower case: its code}`` (``english``: ``en``), from :data:`LANGUAGE_NAMES`.
_LANGUAGE_BY_NAME = dict(pair.replace("_", " ").split("=") for pair in LANGUAGE_NAMES.split())


#: What the refusal of a language's name where its tag is asked (``locale``, ``wiki``) says (``%s``: the tag).
LANGUAGE_NAME_GIVEN = "a language's name: give its tag, %s"


def named_language(value: str) -> Optional[str]:
    """The ISO 639-1 code of the language ``value`` names (``English``, ``chinese``: ``en``, ``zh``),
    in any case and spacing, else ``None``: what a locale given as a language's name means."""
    return _LANGUAGE_BY_NAME.get(" ".join(value.lower().replace("_", " ").split()))


def locale_parts(locale: str) -> tuple[str, Optional[str]]:
    """``locale``'s language (lower case) and its two-letter region (:func:`region_subtag`; ``None``
    without one, or when it is UN M.49 digits: ``es-419``)."""
    region = region_subtag(locale)
    return locale.replace("_", "-").split("-")[0].lower(), region if region and region.isalpha() else None


def locale_refusal(locale: str) -> Optional[str]:
    """Why a locale of the language tag's shape is none, or ``None`` when its parts are codes:
    a two-letter language ISO 639 does not list, or a two-letter region that is no ISO 3166
    country, no region BCP 47 keeps (:data:`DEPRECATED_REGIONS`) and none of private use."""
    language, region = locale_parts(locale)
    problems = []
    if len(language) == 2 and language not in LANGUAGES:
        problems.append("%s is no ISO 639 language" % language)
    if region is not None and region not in _REGIONS and not private_use_region(region):
        mistaken = COUNTRY_MISTAKES.get(region)
        problems.append("%s is no ISO 3166 country%s" % (region, " (did you mean %s?)" % mistaken if mistaken else ""))
    return " and ".join(problems) or None
