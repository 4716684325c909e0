"""What a SearXNG instance says when one of its engines failed, in every language it ships.

An ``unresponsive_engines`` reason is translated into the instance's UI language
(``searx/webutils.py``: ``gettext("timeout")``, ``gettext("too many requests")``,
``gettext("access denied")``, ``gettext("CAPTCHA")``; ``gettext("Suspended") + ": "``
in front while the engine is suspended). The backend asks for English (``locale=en``),
but an instance may not honour it (an older version, a locked UI locale), so the
words below are read as well. They are SearXNG's own translations, copied from its
message catalogs (``searx/translations/*/LC_MESSAGES/messages.po``, searxng/searxng
at 9fea412, August 2026), case-folded; a reason matches when it is one of them.
"""

from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

TIMEOUT = frozenset(
    {
        "aikakatkaistu",
        "amuigh",
        "avbrott",
        "délai dépassé",
        "eltempiĝo",
        "expirado",
        "expirat",
        "hết thời gian",
        "időtúllépés",
        "itxarote-denbora",
        "kōniec czasu",
        "laikas baigėsi",
        "masa tamat",
        "noildze",
        "odmor",
        "panandaliang pagtigil",
        "pauza",
        "przekroczenie czasu",
        "päring aegus",
        "tempo esgotado",
        "tempo máximo",
        "tempo scaduto",
        "terfyn amser",
        "tidsavbrudd",
        "timeout",
        "tydsverloop",
        "udløbstid",
        "verlopen",
        "waktu habis",
        "zaman aşımı",
        "zeitüberschreitung",
        "čas vypršel",
        "časový limit",
        "λήξη χρόνου",
        "вакыт бетте",
        "изчакване",
        "истекло время ожидания",
        "тайм-аут",
        "тајмаут",
        "פקיעת זמן",
        "انتهت المهلة",
        "مهلت پاسخ‌دهی به پایان رسید",
        "সময় শেষ",
        "நேரம் முடிந்தது",
        "సమయం ముగిసినది",
        "වෙලාව අවසන්",
        "หมดเวลา",
        "タイムアウト",
        "超时",
        "逾時",
        "대기 시간",
    }
)

TOO_MANY_REQUESTS = frozenset(
    {
        "an iomarca iarratais",
        "demasiadas peticiones",
        "demasiadas solicitações",
        "demasiadas solicitudes",
        "demasiado petishon",
        "demasiados pedidos",
        "eskaera gehiegi",
        "for mange forespørgsler",
        "for mange forespørsler",
        "för många förfrågningar",
        "gormod o geisiadau",
        "liian monta pyyntöä",
        "liiga palju päringuid",
        "masses peticions",
        "masyadong maraming mga kahilingan",
        "per daug užklausų",
        "prea multe solicitări",
        "preveč prošenj",
        "previše upita",
        "priveľa žiadostí",
        "pārāk daudz pieprasījumu",
        "příliš mnoho požadavků",
        "quá nhiều yêu cầu",
        "te veel versoeke",
        "terlalu banyak permintaan",
        "teveel verzoeken",
        "too many requests",
        "tro da petoj",
        "trop de requêtes",
        "troppe richieste",
        "tròpas de requèstas",
        "túl sok kérés",
        "za dużo zapytań",
        "za moc żōndań",
        "zu viele anfragen",
        "çok fazla istek",
        "υπέρβαση ορίου αιτημάτων",
        "артык күп сораулар",
        "забагато запитів",
        "превише захтева",
        "слишком много запросов",
        "твърде много повиквания",
        "יותר מדי בקשות",
        "الكثير من الطلبات",
        "درخواست‌های زیاد",
        "অনেক বেশি অনুরোধ",
        "பல கோரிக்கைகள்",
        "చాలా అభ్యర్థనలు",
        "බොහෝ ඉල්ලීම්",
        "คำขอมากเกินไป",
        "リクエストが多すぎます",
        "請求過於頻繁",
        "请求过于频繁",
        "너무 많은 요청",
    }
)

ACCESS_DENIED = frozenset(
    {
        "acces interzis",
        "acceso denegado",
        "access denied",
        "accesso negato",
        "accès refusat",
        "accès refusé",
        "accés denegat",
        "acesso negado",
        "adgang nægtet",
        "akses dinafikan",
        "akses ditolak",
        "akseso ninga",
        "aliro rifuzita",
        "dostop zavrnjen",
        "dostymp ôdkozany",
        "erişim engellendi",
        "hozzáférés megtagadva",
        "ligipääs keelatud",
        "mynediad wedi ei wrthod",
        "odmowa dostępu",
        "piekļuve aizliegta",
        "prieiga uždrausta",
        "pristup odbijen",
        "prístup bol odmietnutý",
        "pääsy kielletty",
        "přístup odepřen",
        "rochtain diúltaithe",
        "sarbidea ukatua",
        "tilgang nektet",
        "tinanggihan ang access",
        "toegang geweier",
        "toegang geweigerd",
        "truy cập bị từ chối",
        "zugriff verweigert",
        "åtkomst nekad",
        "άρνηση πρόσβασησ",
        "доступ заборонено",
        "доступ запрещён",
        "није дозвољен приступ",
        "отказан достъп",
        "рөхсәт тыелган",
        "הגישה נדחתה",
        "الدخول مرفوض",
        "دسترسی مجاز نیست",
        "প্রবেশ অগ্রাহ্য করা হল",
        "அணுகல் மறுக்கப்பட்டது",
        "అనుమతి లేదు",
        "ප්‍රවේශය ප්‍රතික්ෂේප විය",
        "การเข้าถึงถูกปฏิเสธ",
        "アクセスが拒否されました",
        "拒絕存取",
        "拒绝访问",
        "액세스 거부",
    }
)

CAPTCHA = frozenset(
    {
        "captcha",
        "robotilõks",
        "saugos kodas",
        "капча",
        "أسئلة التحقق",
        "کپچا",
        "ক্যাপচা",
        "கேப்ட்சா",
        "క్యాప్చా",
        "แคปต์ชา",
        "驗證碼",
        "验证码",
    }
)

SUSPENDED = frozenset(
    {
        "apturēts",
        "ar fionraí",
        "askıya alındı",
        "atal",
        "ausgesetzt",
        "avstängd",
        "digantung",
        "ditangguhkan",
        "etenda",
        "felfüggesztve",
        "geschorst",
        "keskeytetty",
        "opgehef",
        "peatatud",
        "pozastaveno",
        "pozastavené",
        "prekinjeno",
        "pristabdyta",
        "sospeso",
        "strzimane",
        "suspended",
        "suspenderet",
        "suspendert",
        "suspendido",
        "suspendigita",
        "suspendirano",
        "suspendu",
        "suspendut",
        "suspendé",
        "suspenso",
        "suspès",
        "treo/gián đoạn/chặn",
        "zawieszone",
        "întrerupt",
        "σε αναστολή",
        "преустановен",
        "призупинено",
        "приостановлено",
        "суспендован",
        "туктатылды",
        "מושהה",
        "تعلیق‌شده",
        "معلق",
        "স্থগিত",
        "இடைநிறுத்தப்பட்டது",
        "రద్ధు చెయ్యబడింది",
        "අත්හිටුවා ඇත",
        "ถูกระงับ",
        "一時停止",
        "暂停服务",
        "暫停服務",
        "중단됨",
    }
)

#: Kinds of engine failure the backend tells apart, and the words that name each.
KINDS = (
    ("timeout", TIMEOUT),
    ("too_many_requests", TOO_MANY_REQUESTS),
    ("access_denied", ACCESS_DENIED),
    ("captcha", CAPTCHA),
)

#: Older instances (and English ones with other wording) say it in English words inside a longer text.
_ENGLISH_NEEDLES = (
    ("captcha", "captcha"),
    ("too_many_requests", "too many request"),
    ("access_denied", "access denied"),
    ("timeout", "timeout"),
)

#: Longest reason read (a reason is a few words; the rest of a longer one is ignored).
MAX_REASON_CHARS = 200


def read_reason(reason: str) -> tuple[Optional[str], bool]:
    """``(kind, suspended)`` of an engine's failure reason.

    ``kind`` is ``"timeout"``, ``"too_many_requests"``, ``"access_denied"``,
    ``"captcha"`` or ``None`` (another failure: HTTP error, parsing error, crash...);
    ``suspended`` tells that the instance has suspended the engine (it will not ask
    it again for a while, so asking the instance again at once is pointless).
    """
    text = " ".join(reason[:MAX_REASON_CHARS].split()).casefold()
    suspended = False
    head, colon, rest = text.partition(":")
    if colon and head.strip() in SUSPENDED:
        suspended, text = True, rest.strip()
    for kind, words in KINDS:
        if text in words:
            return kind, suspended
    for kind, needle in _ENGLISH_NEEDLES:
        if needle in text:
            return kind, suspended
    return None, suspended
