"""How tokens are spelled, joined and split after NLTK has split a sentence: the choices 5, 6 and 12 to 19 of
:mod:`glmnlp.text.tokenize` (its module header gives each with its reason and measurement), apart from the
tokenizer's own steps so that each rule reads on its own, and the treebanks' spelling of the clitics the tokenizer
splits (:func:`ptb_clitics`), which the models read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from glmnlp.graphemes import CURRENCY_SIGNS
from glmnlp.treebank.trees import PTB_APOSTROPHES

__all__ = ["OPENERS", "SENTENCE_STARTERS", "TYPOGRAPHIC_QUOTES", "TokenSpan", "bare_contraction",
           "close_spaced_quotes", "merge_ampersands", "merge_mark_runs", "merge_marks", "merge_years", "opens_quote",
           "ptb_clitics", "ptb_quotes", "quotes_left_open", "spell_final_abbreviation", "split_bare_contractions",
           "split_clitics", "split_glued_marks", "split_list_number", "split_number_units"]

TokenSpan = tuple[str, int, int]  # a token's text and its [start, end) offsets in its sentence

OPENERS = set("([{\"'`\u201c\u2018")
_FINAL_ABBREVIATION = re.compile(r"U\.S|U\.K|U\.S\.A|U\.S\.S\.R")  # choice 12
_CLOSERS = frozenset({"''", "'", "-RRB-", "-RSB-", "-RCB-"})


def close_spaced_quotes(tokens: list[TokenSpan], sentence: str, open_before: tuple[bool, bool] = (False, False)
                        ) -> list[TokenSpan]:
    """Choice 5's converse: a double quote written ``''`` or ``"`` with a space (or the end) after it that NLTK opened
    (it opens one after any space) closes: ``''`` always (it is the treebank's closing quote), ``"`` while a quote
    is open (``He said " hi " to me``: two opening quotes; 423 closing ``''`` of PTB-style text opened, and tagged
    so, where ``--tokenized`` input alternates them, :func:`ptb_quotes`). One that :func:`opens_quote` opened after a
    mark (:data:`_OPENS_AFTER`) closes too while a quote of its kind is open (``"I was—"she stopped``, ``"Stop,"she
    said, "now."``, ``'Wait...'he said, 'no.'``). ``open_before`` says whether a double and a single quote are open
    when the sentence begins (:func:`quotes_left_open` of the sentences before it in its paragraph): the splitter
    cuts inside quotations (``"It was late. I was tired,"he said``), and the quote after ``tired,`` closes the one
    opened a sentence earlier. The apostrophe of ``'em`` opens no single quote (:data:`_ELIDED`)."""
    out: list[TokenSpan] = []
    open_double, open_single = open_before
    for k, (text, start, end) in enumerate(tokens):
        original = sentence[start:end]
        if text == "``" and original in ("''", '"'):
            spaced = end == len(sentence) or sentence[end].isspace()
            if (spaced and original == "''") or (open_double and (spaced or _after_mark(sentence, start))):
                text = "''"
        elif text == "`" and original in ("'", "\u2019") and open_single and _after_mark(sentence, start):
            text = "'"
        open_double, open_single = _quotes_after(tokens, k, text, (open_double, open_single))
        out.append((text, start, end))
    return out


#: Words after an apostrophe that elides their start, tokenized as NLTK splits them (`` ` em``, `` ` tis``): no
#: quotation is left open by them (:func:`quotes_left_open`)
_ELIDED = frozenset({"em", "tis", "twas", "til", "cause", "n", "bout", "nuff"})


def quotes_left_open(tokens: Sequence[TokenSpan], open_before: tuple[bool, bool] = (False, False)
                     ) -> tuple[bool, bool]:
    """Whether a double and a single quote are open after ``tokens`` (a sentence as :func:`close_spaced_quotes`
    spelled it), counting from ``open_before``: the state the next sentence of the paragraph begins with. An
    apostrophe that NLTK splits as an opening quote before an elided word (``'em``, ``'tis``: :data:`_ELIDED`)
    opens none, and a closing ``'`` closes a single quote whatever it is (``boys'`` is then taken for one): a
    single quote is carried from sentence to sentence only where one clearly opened."""
    state = open_before
    for k, (text, _, _) in enumerate(tokens):
        state = _quotes_after(tokens, k, text, state)
    return state


def _quotes_after(tokens: Sequence[TokenSpan], k: int, text: str, state: tuple[bool, bool]) -> tuple[bool, bool]:
    """Whether a double and a single quote are open after ``tokens[k]`` (spelled ``text``), from ``state`` before it:
    the one rule of :func:`close_spaced_quotes` and :func:`quotes_left_open` (an elided word's apostrophe neither
    opens nor closes a single quote)."""
    open_double, open_single = state
    return (text == "``" or (open_double and text != "''"),
            (text == "`" and not _elided(tokens, k)) or (open_single and text != "'"))


def _elided(tokens: Sequence[TokenSpan], k: int) -> bool:
    """Whether the ````` at ``tokens[k]`` is the apostrophe of an elided word (``'em``: :data:`_ELIDED`) it touches."""
    return k + 1 < len(tokens) and tokens[k + 1][1] == tokens[k][2] and tokens[k + 1][0].lower() in _ELIDED


def opens_quote(sentence: str, start: int, end: int) -> bool:
    """Whether the quote at ``[start, end)`` opens one: at the start or after whitespace or an opener, or after a mark
    (:data:`_OPENS_AFTER`: ``said:"no"``, ``word—"this"``, ``said,"no"``, ``Wait..."no"``, ``x="y"``) where a quote
    of its kind comes later in the sentence to close it, and touching the next character (choice 5); a typographic
    right quote (``’`` ``”``) shows it closes and is never opened after a mark. NLTK opens a straight quote after a
    space or ``( [ { <`` only."""
    before = sentence[start - 1] if start else " "
    if end >= len(sentence) or sentence[end].isspace():
        return False
    return before.isspace() or before in OPENERS or (
        _after_mark(sentence, start) and sentence[start] not in _CLOSING_MARKS and _closed_later(sentence, start, end))


#: Typographic quotes that show they close: never opened after a mark (``said,’no"``: ’ is no opening quote)
_CLOSING_MARKS = frozenset("\u2019\u201d")


def _closed_later(sentence: str, start: int, end: int) -> bool:
    """Whether a quote of the kind at ``[start, end)`` comes later in the sentence, to close the one it would open: a
    quote after a dash that nothing follows closes one opened before (``"It was late. I thought--"he paused``, its
    opening quote a sentence earlier; ``'Wait--'he said``). A single quote inside a word (``don't``) is none."""
    rest = sentence[end:]
    if sentence[start:end] != "'":
        return '"' in rest or "''" in rest
    return any(c in "'\u2019" and not (0 < k < len(rest) - 1 and rest[k - 1].isalnum() and rest[k + 1].isalnum())
               for k, c in enumerate(rest))


#: Marks after which a quote touching the next word opens one if a quote of its kind follows to close it, and closes
#: one while a quote of its kind is open (choice 5): ``: ;``, the dashes, ``,``, ``…`` (and ``..``:
#: :func:`_after_mark`), ``=`` and ``/``. A single full stop is none: ``"Stop."she said`` closes, ``He left."No``
#: may begin a sentence.
_OPENS_AFTER = frozenset(":;-\u2013\u2014\u2015,\u2026=/")


def _after_mark(sentence: str, start: int) -> bool:
    """Whether the character before ``start`` is one of :data:`_OPENS_AFTER`, or ends an ellipsis of full stops."""
    return start > 0 and (sentence[start - 1] in _OPENS_AFTER or sentence[max(start - 2, 0):start] == "..")


#: Typographic quotes that tell their direction, as the treebanks spell them and the tokenizer spells raw text's
TYPOGRAPHIC_QUOTES = {"\u201c": "``", "\u201e": "``", "\u201d": "''", "\u2018": "`"}
#: Quote tokens as the treebanks spell them (those above, and the rarer marks and doubled single quotes)
_QUOTE_TOKENS = {**TYPOGRAPHIC_QUOTES, "\u201f": "``", "\u201b": "`", "\u2018\u2018": "``", "\u2019\u2019": "''"}


def ptb_quotes(words: Sequence[str]) -> list[str]:
    """Given tokens with their quotes and apostrophes as the tokenizer spells raw text's: typographic quotes as the
    treebanks' (`````` ``''`` `````), an apostrophe within a word as ``'`` (``n’t`` as ``n't``), and a straight
    ``"`` as `````` and ``''`` by turns, the first of the sentence opening (tokens keep no spaces to tell by).
    :func:`glmnlp.text.inputs.model_words` uses the spelling where the model knows it."""
    out: list[str] = []
    opened = False
    for word in words:
        if word == '"':
            out.append("''" if opened else "``")
            opened = not opened
        else:
            out.append(_QUOTE_TOKENS.get(word) or word.translate(PTB_APOSTROPHES))
    return out


#: What begins a token that goes on the emoji or symbol before it: a variation selector, the keycap (U+20E3), a
#: skin tone
_EMOJI_PARTS = re.compile("[\ufe00-\ufe0f\u20e3\U0001f3fb-\U0001f3ff]")


def merge_marks(tokens: list[TokenSpan], sentence: str) -> list[TokenSpan]:
    """A token that begins with what goes on the emoji or symbol before it joined to the token it touches: NLTK
    splits punctuation off, and the keycap of ``#️⃣`` (U+FE0F U+20E3) was a token of its own, an empty-looking word
    in the tree. The joined token keeps the first token's spelling. (A combining mark after punctuation stays the
    next token's, as before: ``(́a`` is ``-LRB-`` and ``́a``.)"""
    if not _EMOJI_PARTS.search(sentence):  # nearly every sentence: no pass over its tokens
        return tokens
    out: list[TokenSpan] = []
    for token in tokens:
        text, start, end = token
        if out and out[-1][2] == start and _EMOJI_PARTS.match(sentence, start):
            out[-1] = (out[-1][0] + text, out[-1][1], end)
            continue
        out.append(token)
    return out


_MARK_RUN = re.compile(r"[!?]{2}")


def merge_mark_runs(tokens: list[TokenSpan], sentence: str) -> list[TokenSpan]:
    """Touching ``!`` and ``?`` joined into one token (choice 16): ``wait!!!`` was ``wait ! ! !``, three sentence ends
    that the parser nested a clause around each; EWT writes the run as one token (``!!!``, ``?!``: 286 of them)."""
    if not _MARK_RUN.search(sentence):  # nearly every sentence: no pass over its tokens
        return tokens
    out: list[TokenSpan] = []
    for token in tokens:
        text, start, end = token
        if out and out[-1][2] == start and text in ("!", "?") and out[-1][0].strip("!?") == "" and out[-1][0]:
            out[-1] = (out[-1][0] + text, out[-1][1], end)
            continue
        out.append(token)
    return out


_LIST_NUMBER = re.compile(r"[0-9]{1,2}\.\Z")


def split_list_number(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """A sentence's first token, a number of one or two digits with a full stop, split into the number and the stop
    when a word follows (choice 17): ``1. Preheat the oven.`` was ``1.`` + ``Preheat`` ..., a token no treebank has,
    and the bundled model read the item as a noun phrase (``(NP (LS 1.) (NNP Preheat) ...)``); the WSJ and EWT write
    ``1`` + ``.`` (``LS``, ``.``)."""
    if (len(tokens) > 1 and _LIST_NUMBER.match(tokens[0][0]) and tokens[0][2] - tokens[0][1] == len(tokens[0][0])
            and tokens[1][0][:1].isalpha()):
        text, start, end = tokens[0]
        return [(text[:-1], start, end - 1), (".", end - 1, end), *tokens[1:]]
    return tokens


#: A number glued to a unit, a time of day, a magnitude or a word (choice 19): ``3pm``, ``5kg``, ``16GB``, ``$5m``,
#: ``50K``, ``5years``; not an ordinal or a decade (``4th``, ``1990s``), nor ``4G``, ``3D``, ``4B`` (a flat's number)
_NUMBER_UNIT = re.compile(
    r"([0-9]+(?:[.,:][0-9]+)*)((?i:am|pm|km|cm|mm|kg|mg|lbs?|oz|ml|[kmgt]b|[kmg]?hz|mph|kph|mins?|hrs?|secs?|bn|sqft"
    r"|mmbtu)|[mkKM]|b|[a-z]{4,})\Z")


def split_number_units(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """A number glued to its unit split in two (choice 19: ``3pm`` is ``3`` + ``pm``, ``5kg`` ``5`` + ``kg``), as EWT
    writes them: NLTK kept one token, a word no model had seen."""
    out: list[TokenSpan] = []
    for token in tokens:
        text, start, end = token
        if text[:1].isdigit() and len(text) == end - start and (match := _NUMBER_UNIT.fullmatch(text)):
            cut = start + match.end(1)
            out.extend(((match.group(1), start, cut), (match.group(2), cut, end)))
        else:
            out.append(token)
    return out


_YEAR = re.compile(r"[0-9]{2}s?\Z")


def merge_years(tokens: list[TokenSpan], sentence: str) -> list[TokenSpan]:
    """An apostrophe (``'`` or ``’``) that opens a word and touches a year's two digits (``'82``, ``'80s``) joined to
    them, spelled with ``'`` (choice 5); not when a quote closes right after the digits (``'99'`` is a quoted
    number)."""
    out: list[TokenSpan] = []
    for token in tokens:
        text, start, end = token
        if (out and _YEAR.match(text) and out[-1][2] == start and out[-1][2] - out[-1][1] == 1
                and sentence[end:end + 1] not in ("'", "\u2019")
                and sentence[out[-1][1]] in "'\u2019" and out[-1][0] in ("'", "`")
                and (out[-1][1] == 0 or sentence[out[-1][1] - 1].isspace() or sentence[out[-1][1] - 1] in OPENERS
                     or _after_mark(sentence, out[-1][1]))):  # 1914–'18, '80s-'90s, '80s,'90s
            out[-1] = ("'" + text, out[-1][1], end)
            continue
        out.append(token)
    return out


def merge_ampersands(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """``AT&T``, ``S&P``: a ``&`` touching a word on each side joined to them (choice 6)."""
    out: list[TokenSpan] = []
    i = 0
    while i < len(tokens):
        if (
            out
            and i + 1 < len(tokens)
            and tokens[i][0] == "&"
            and out[-1][2] == tokens[i][1]
            and tokens[i][2] == tokens[i + 1][1]
            and out[-1][0].isalnum()
            and tokens[i + 1][0].isalnum()
        ):
            prev, nxt = out[-1], tokens[i + 1]
            out[-1] = (prev[0] + "&" + nxt[0], prev[1], nxt[2])
            i += 2
            continue
        out.append(tokens[i])
        i += 1
    return out


def spell_final_abbreviation(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """The abbreviation before the sentence-final full stop spelled with a stop of its own (choice 12)."""
    end = len(tokens)
    while end > 0 and tokens[end - 1][0] in _CLOSERS:
        end -= 1
    if end < 2 or tokens[end - 1][0] != ".":
        return tokens
    word, start, stop = tokens[end - 2]
    if stop != tokens[end - 1][1] or not _FINAL_ABBREVIATION.fullmatch(word):
        return tokens
    return [*tokens[: end - 2], (word + ".", start, stop), *tokens[end - 1:]]


#: The clitics the Treebank splits off a word (``'s 'm 'd 'll 're 've n't``), as NLTK sees them (``’`` read as ``'``)
_CLITIC = re.compile(r"(?i)(?:'[smd]|'ll|'re|'ve|n't)\Z")


def split_clitics(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """A clitic split off a token that a clitic NLTK split off touches (choice 13): NLTK splits only the clitic before
    a space, so ``shouldn't've`` gave ``shouldn't`` + ``'ve``, now ``should`` + ``n't`` + ``'ve`` (``I'd've``: ``I``
    + ``'d`` + ``'ve``; ``can't've``: ``ca`` + ``n't`` + ``'ve``, as ``can't`` is split). As in NLTK's rule, the
    clitic follows a character that is not an apostrophe; a token that no clitic touches (``O'Neill``) is left."""
    out = list(tokens)
    for i in range(len(out) - 2, -1, -1):  # from the end; a stem split again while a clitic ends it (``I'd'd've``)
        while (clitic := _glued_clitic(out[i], out[i + 1][0], out[i + 1][1])) is not None:
            text, start, end = out[i]
            out[i:i + 1] = [(text[:clitic], start, start + clitic), (text[clitic:], start + clitic, end)]
    return out


def _glued_clitic(token: TokenSpan, after: str, after_start: int) -> int | None:
    """Where the clitic that ends ``token`` begins, if a clitic token ``after`` touches it (:func:`split_clitics`)."""
    text, start, end = token
    if after_start != end or len(text) != end - start or not _CLITIC.fullmatch(after):
        return None
    clitic = _CLITIC.search(text)
    return clitic.start() if clitic and clitic.start() > 0 and text[clitic.start() - 1] != "'" else None


#: Contractions written without their apostrophe that are split as UD English EWT splits them (choice 18; the
#: reasons for each, and for the words left out, are in :mod:`glmnlp.text.tokenize`): the clitic is the word's last
#: two letters for ``nt re ve ll``, its last letter for ``s m d``
_BARE_CONTRACTIONS = frozenset(
    "dont doesnt didnt cant wont aint isnt arent wasnt werent hasnt havent hadnt couldnt wouldnt shouldnt mustnt "
    "neednt thats whats theres heres wheres hes shes whos hows im youre theyre ive youve weve theyve couldve wouldve "
    "shouldve mightve mustve youll theyll itll thatll youd theyd thatd".split())
#: The spelling of the treebanks' clitic for each piece of :data:`_BARE_CONTRACTIONS` (choice 18: the models read it)
_CLITIC_SPELLINGS = {"nt": "n't", "s": "'s", "m": "'m", "re": "'re", "ve": "'ve", "ll": "'ll", "d": "'d"}


def bare_contraction(word: str) -> int | None:
    """Where the clitic of ``word`` begins if it is a contraction written without its apostrophe that the tokenizer
    splits (choice 18: ``dont``, ``Im``, ``THATS``; not ``IM``, an instant message in GUM), else None."""
    lower = word.lower()
    if lower not in _BARE_CONTRACTIONS or word == "IM":
        return None
    return len(word) - (2 if lower[-2:] in _CLITIC_SPELLINGS else 1)


def split_bare_contractions(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """A contraction written without its apostrophe split as UD English EWT splits it (choice 18): ``dont`` is
    ``do`` + ``nt``, ``cant`` ``ca`` + ``nt``, ``Im`` ``I`` + ``m``, ``THATS`` ``THAT`` + ``S``; each piece's text
    is its characters as written, and the models read the clitic as the treebanks spell it (:func:`ptb_clitics`).
    Words that are also common English words are left whole (``its``, ``were``, ``well``, ``ill``, ``id``), and so
    are a capitalised one in a name (``Jony Ive``, ``Heres Lane``, ``Walk down Cant Street``; ``I Dont know``, ``and
    Im tired``, ``1. Dont go`` are split) and ``wont`` after a possessive (``as is his wont``)."""
    out: list[TokenSpan] = []
    for i, (text, start, end) in enumerate(tokens):
        cut = bare_contraction(text) if len(text) == end - start else None
        if cut is not None and ((text.lower() == "wont" and out and out[-1][0].lower() in _POSSESSIVES) or _a_name(
                text, out[-1][0] if out else "", tokens[i + 1][0] if i + 1 < len(tokens) else "")):
            cut = None
        if cut is None:
            out.append((text, start, end))
        else:
            out.extend(((text[:cut], start, start + cut), (text[cut:], start + cut, end)))
    return out


_POSSESSIVES = frozenset({"my", "your", "his", "her", "its", "our", "their"})
#: Capitalised words that begin sentences and are no names: a contraction next to one is no part of a name (``I Dont
#: know``: :func:`split_bare_contractions`), and after an emoticon or emoji one begins a sentence (``... :) The staff``:
#: :func:`glmnlp.text.sentence_cuts.split_missed`)
SENTENCE_STARTERS = frozenset((
    "I", "The", "A", "An", "This", "That", "These", "Those", "It", "Its", "We", "You", "He", "She", "They", "My", "Our",
    "Your", "His", "Her", "Their", "There", "Here", "What", "When", "Where", "Why", "How", "Who", "Which", "Thanks",
    "Thank", "Please", "Let", "Can", "Could", "Do", "Does", "Did", "Is", "Are", "Was", "Were", "Have", "Has", "Had",
    "If", "So", "But", "And", "Also", "Just", "Now", "Then", "Yes", "No", "Not", "All", "Great", "Good", "Happy",
    "Sorry", "Glad", "Ok", "Okay", "Oh", "Wow", "Lol", "Haha", "See"))


def _a_name(word: str, before: str, after: str) -> bool:
    """Whether ``word``, a contraction's spelling capitalised (not all capitals) between the words ``before`` and
    ``after`` of its sentence, is part of a name (:func:`split_bare_contractions`): after a capitalised word that
    begins no sentence, a pronoun or the like (:data:`SENTENCE_STARTERS`: ``Jony Ive``, not ``I Dont``), or before
    one (``Cant Street``), not at the sentence's start."""
    if not (word[:1].isupper() and not word.isupper()) or not before:
        return False
    return _titled(before) and before not in SENTENCE_STARTERS or (_titled(after) and after not in SENTENCE_STARTERS)


def _titled(word: str) -> bool:
    """A capitalised word of letters (``Jony``), not one in capitals (``NY``)."""
    return len(word) > 1 and word.isalpha() and word[0].isupper() and word[1:].islower()


def ptb_clitics(words: Sequence[str]) -> list[str]:
    """``words`` with the clitic of each contraction that :func:`split_bare_contractions` splits spelled as the
    treebanks spell it (``do nt`` as ``do n't``, ``I m`` as ``I 'm``; lower case, as the treebanks write clitics),
    where the word before it is its stem, however the words were tokenised (EWT writes ``do nt`` itself); every other
    word as given (``nt`` alone, ``it s``: ``its`` is not split). :func:`glmnlp.text.inputs.model_words` gives the
    models this spelling where they know it; outputs write the words as given. The capitalised host NLTK leaves of a
    sentence's first ``Can't``, ``Won't``, ``Shan't`` is given in lower case before its clitic (``Ca n't`` as ``ca
    n't``: a tagger had never seen ``Ca``, and tagged it ``NNP`` or ``VB``), and only there (``San Diego, Ca``)."""
    out: list[str] | None = None
    for i in range(1, len(words)):
        if len(words[i]) > 3:  # (a clitic is at most three characters: the loop is on every word of every sentence)
            continue
        piece = words[i].lower()
        bare = piece in _CLITIC_SPELLINGS and bare_contraction(words[i - 1] + words[i]) == len(words[i - 1])
        host = words[i - 1] in _NT_HOSTS and (piece == "n't" or (bare and piece == "nt"))
        if bare or host:
            out = out if out is not None else list(words)
            out[i] = _CLITIC_SPELLINGS[piece] if bare else out[i]
            out[i - 1] = words[i - 1].lower() if host else out[i - 1]
    return list(words) if out is None else out


#: The capitalised hosts of ``n't`` that NLTK's split leaves, which no other word spells (:func:`ptb_clitics`)
_NT_HOSTS = frozenset({"Ca", "Wo", "Sha"})


_QUOTE_TEXTS = frozenset({"``", "''", "`", "'"})
#: A word's ``=`` or ``/`` that a quote touches (choice 14): ``x=`` of ``x="y"``, ``a/`` of ``a/"b"`` (a path's
#: last slash and base64 padding are left: :func:`split_glued_marks`)
_MARKS_BEFORE_QUOTE = re.compile(r"(?<=[^=/])[=/]+\Z")
#: A base64 string with its padding (``YWJjZA==``): its characters, at least 8 of them, a multiple of 4 with the ``=``
_BASE64_PADDED = re.compile(r"[A-Za-z0-9+/]{6,}(?:[A-Za-z0-9+/]=|==)")
#: An amount's hyphen that a currency sign touches (choice 14): ``5-`` of ``$5-$10`` and ``£5-£10``, after a magnitude
#: of one or two letters too (``1.5m-`` of ``$1.5m-$2m``, ``5bn-`` of ``£5bn-£10bn``)
_RANGE_HYPHEN = re.compile(r"(?:(?<=[0-9])|(?<=[0-9][A-Za-z])|(?<=[0-9][A-Za-z]{2}))-\Z")


def split_glued_marks(tokens: list[TokenSpan]) -> list[TokenSpan]:
    """A mark that NLTK left at a word's end split off when the token after it touches it (choice 14): ``=`` or ``/``
    before a quote (``x="y"``: ``x=`` + `````` was ``x`` + ``=`` + ``````; ``a/"b"``; ``dir/name="x"``), a number's
    hyphen before a currency sign (``$5-$10``: ``5-`` + ``$`` is ``5`` + ``-`` + ``$``; ``£5-£10`` and ``$1.5m-$2m``
    alike, the sign split off as ``$`` is: :data:`~glmnlp.graphemes.CURRENCY_SIGNS`). Words NLTK keeps whole are left
    so (``a/b``, ``x=y``, ``5-10``, ``$5-10``), and so are a path's last slash (``/usr/bin/"x"``: ``/usr/bin/``) and
    a base64 string's padding before a closing quote (``sig="YWJjZA=="``: ``YWJjZA==``, :data:`_BASE64_PADDED`); a
    web token is masked as letters when this runs, so a URL stays whole."""
    out: list[TokenSpan] = []
    for i, (text, start, end) in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        mark = None
        if after is not None and after[1] == end and len(text) == end - start:
            if after[0] in _QUOTE_TEXTS and (mark := _MARKS_BEFORE_QUOTE.search(text)) and (
                    (mark.group()[0] == "/" and "/" in text[:mark.start()])  # a path's last slash (/usr/bin/"x")
                    or (after[0] in ("''", "'") and len(text) % 4 == 0 and _BASE64_PADDED.fullmatch(text))):
                mark = None
            elif after[0] in CURRENCY_SIGNS:
                mark = _RANGE_HYPHEN.search(text)
        if mark is None:
            out.append((text, start, end))
            continue
        cut = start + mark.start()
        out.extend(((text[:mark.start()], start, cut), (text[mark.start():], cut, end)))
    return out
