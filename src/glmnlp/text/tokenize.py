"""Raw text to sentences to Penn-Treebank-style tokens, with character offsets.

The tagger and the parser are trained on the Wall Street Journal part of the Penn Treebank, so the
words they see at run time must follow the same conventions: ``n't`` and ``'s`` split off
(``does n't``), double quotes written as ````` and ``''``, brackets spelled ``-LRB-``/``-RRB-``
(``-LCB-``/``-RCB-`` for braces), dashes as ``--``. This module does not hand-write a tokenizer;
it combines two maintained libraries and maps what they leave out:

* **Sentences: pysbd** (rule-based, no downloaded data). Chosen after scoring the three
  data-free candidates on the bundled WSJ sample (3,914 sentences from 199 files, detokenised and
  joined per file, then re-split; boundary precision / recall):

  ======== ========= ====== ==================================================================
  splitter precision recall typical errors
  ======== ========= ====== ==================================================================
  pysbd    0.993     0.951  no split inside an open quotation spanning several sentences
  syntok   0.963     0.964  splits after titles (``Gov.``, ``Rep.``, ``Messrs.``) and at ``;``
  segtok   0.952     0.974  as syntok, more often
  ======== ========= ====== ==================================================================

  pysbd makes the fewest harmful errors on news text: splitting after ``Gov.`` cuts a noun phrase
  in two, while a missed boundary inside a long quotation only makes one sentence longer.
* **Words: NLTK's** ``NLTKWordTokenizer`` (the improved Treebank tokenizer; regular expressions,
  no downloaded data). It reproduces the gold tokens exactly for 3,859 of the 3,914 sample sentences
  (98.6 %) after the mappings below, each sentence detokenised by NLTK's ``TreebankWordDetokenizer``
  (``detokenize`` in benchmarks/parsing.py).

Our choices and mappings (none of these is stated by the papers, which start from the treebank's own tokens):

1. **Line breaks.** pysbd ends a sentence at every newline, which breaks wrapped text. By default
   a single line break is treated as a space and a blank line (a paragraph break) always ends a
   sentence; ``lines=True`` instead makes every non-blank line exactly one sentence (choice 8; for
   one-sentence-per-line input, as the CLI offers). The information separators U+001C-U+001F
   are spaces to pysbd too: Python counts them as whitespace, so its list-item rules read
   ``\\x1c1.`` as a number and ``int()`` fails on it (``ValueError``).
2. **Punctuation-only fragments.** pysbd sometimes cuts an ellipsis (``2001... What?`` ->
   ``2001..`` + ``.``). A "sentence" with no letter or digit is attached to the sentence before it
   in the same paragraph. pysbd can also leave text out of its sentences altogether (it returns
   ``It ended.`` and ``Smith came home!`` for ``It ended. . . .\\t(b)Mr. Smith came home!``);
   such text is kept, because no character of the input may be lost: its leading words of
   punctuation only end the sentence before, the rest starts the sentence after
   (``It ended. . . .`` + ``(b)Mr. Smith came home!``). Closing quotes or brackets that pysbd puts at
   the start of a sentence (``loose.'' Records``: ``''`` + a space) end the sentence before instead.
   Two boundaries pysbd never makes are made after it: a lowercase word's full stop before ``I``
   (``Thanks for helping me. I appreciate it.``: pysbd's abbreviation list holds ``me``, ``is`` and ``ok``; not
   after ``etc. vs. vol. ch. ed. pp.`` and the other abbreviations of ``NOT_AN_END``) and three or more ``!``
   or ``?`` before a capital (``Great food!!! We will return.``; two split already). A cut pysbd makes inside
   a run of full stops is moved to the run's end (``burn it..thats the only way`` gave the word ``.thats``).
   Cuts pysbd makes where no sentence ends are joined again (``join_wrong_cuts``; the rules of this choice are in
   :mod:`glmnlp.text.sentence_cuts`): before a list marker after ``; : ,``, a conjunction or a verb announcing a list
   (``are: (a) no smoking; (b) no pets.``), before ``;`` or ``,``, after a title (``--Mrs. Yeargin``, ``Ft. Worth``),
   after a reference abbreviation before a number, a Roman numeral, a lowercase word or a bracket (``Vol. II``,
   ``Approx. 30``), after ``No.`` before a number. On the PTB sample joined into one text, wrong boundaries 24 -> 9
   (precision 0.9932 -> 0.9975, recall 0.9502 unchanged); GUM dev 40 -> 39, train 371 -> 366, no gold boundary lost;
   EWT dev/train (paragraphs) sentence F1 0.9039 -> 0.9045 and 0.9157 -> 0.9166
   (benchmarks/results/tokenize_quality.md). Then also after a unit's or an everyday word's abbreviation before a
   lowercase word (``3 oz. of``, ``2 hrs. later``, ``the mgr. said``: pysbd's list lacks them), after ``Apt. Tel.
   ext.`` before a number and after a weekday's before a month or a number (``Tues. Jan. 5``); these abbreviations
   also keep their full stop inside a sentence (choice 11). EWT train (space / paragraphs): boundary precision
   0.9754 -> 0.9770 / 0.9778 -> 0.9793, one gold boundary lost in space (``in 45 mins. please let me know``), F1
   0.8685 -> 0.8691 / 0.9166 -> 0.9172; dev, PTB sample and GUM the same. And a sentence ends after an emoticon or an
   emoji that follows a word, before a word that begins sentences (``I love this place :) The staff``, ``Great 👍 I
   will``; not before a name, ``Thanks 👍 Mike will call``, nor after ``<3``, a verb), which pysbd never splits (EWT
   ends 81 sentences with an emoticon): EWT sentence F1 dev 0.8298 -> 0.8302 / 0.9047 -> 0.9051, train 0.8691 ->
   0.8695 / 0.9172 -> 0.9174 (space / paragraphs; train precision 0.9770 -> 0.9762, recall 0.7826 -> 0.7838); PTB
   sample and GUM the same.
3. **Typographic characters** are normalised before both libraries see the text, one character for one so that offsets
   are unchanged (curly quotes and apostrophes -> ASCII, no-break space -> space, em dash and ``…`` -> ``;``, which NLTK
   always splits off words). The token *text* is then read from the original character and follows PTB: ``“``/``‘`` ->
   `````/`````, ``”`` -> ``''``, ``—``/``–`` -> ``--``, ``…`` -> ``...``. Within a sentence every whitespace character
   is a space to NLTK, whose rule opens a straight double quote after a space (or at the start, or after ``( [ { <``;
   after a tab ``said\t"yes"`` gave a closing quote), and one followed by a space closes (close_spaced_quotes).
4. **Brackets**: ``( ) { } [ ]`` -> ``-LRB- -RRB- -LCB- -RCB- -LSB- -RSB-`` (the first four as in the WSJ files; square
   brackets do not occur there and get the usual ``-LSB-``/``-RSB-``).
5. **Opening quotes.** NLTK writes ``'`` for both single quotes; PTB opens with `````. A lone ``'`` at the start or
   after whitespace or an opening bracket, touching the next character, becomes `````; so does a ``''`` or ``"`` (NLTK
   opens those after a space or bracket only: ``''Bush was briefed,'' he said`` began with a closing quote). After
   ``:``, ``;``, a dash, ``,``, an ellipsis (``...``, ``..``, ``…``), ``=`` or ``/`` a quote touching the next word
   opens where a quote of its kind follows in the sentence to close it (``said:"no"``, ``word—"this"—here``,
   ``said,"no"``, ``Wait..."no"``, ``x="y"`` each gave two closing quotes), and closes one of its kind that is open
   (``"I was—"she``, ``"Stop,"she said, "now."``); one that nothing follows to close stays closing (``"It was late. I
   thought--"he paused``, ``"Stop,"she said.``). A single full stop is no such mark (``"Stop."she``). Open quotes are
   counted from the paragraph's start (:func:`tokenize_text_spans`; :func:`tokenize_spans` sees one sentence), not the
   sentence's: the splitter cuts inside a quotation (``"It was late. I was tired,"he said, "very tired."`` gave two
   opening quotes in a row, ``tired , `` he``; the ``"`` after ``tired,`` closes the one opened a sentence earlier); a
   single quote is counted open only where one clearly opened (not the apostrophe of ``'em``, ``'tis``). A typographic
   right quote (``’`` ``”``) shows it closes and is never opened so (``said,’no"``). Quotes tagged in their EWT
   direction (XPOS): train 1,572 -> 1,574 of 1,596, dev 178 of 179 (``: ; -``); then 1,575 (``, ... = /``:
   ``gave me..."the inspection guy``), dev the same, no quote turned the wrong way; GUM, PTB sample: same.
   A year's apostrophe is part of its two digits, as the WSJ writes them (``'82``, ``'80s``: CD), not an opening quote
   (```` ` 82````), after the same marks too (``1914–'18``, ``'80s,'90s``).
6. **Ampersands inside words.** NLTK splits ``AT&T`` and ``S&P`` into three tokens; PTB keeps them whole. Tokens
   ``X & Y`` written without spaces in the text, with ``X`` and ``Y`` alphanumeric, are merged back into one token.
7. **Web tokens** stay whole: URLs (``https://...``, ``www....``), e-mail addresses, ``@handles``,
   ``#hashtags`` (a ``#`` followed by a word with a letter; ``#1`` stays ``#`` + ``1`` as in the WSJ)
   and ASCII emoticons (``:-)``, ``;)``, ``:D``, ``<3``, ``^_^`` ..., delimited by spaces or the text's
   ends). They are found first (:func:`glmnlp.text.web.web_token_spans`, linear-time regular expressions) and
   masked with letters of the same length before both libraries run, so neither splits them nor
   ends a sentence inside them (``example.com/page?id=3``). Text glued to a web token, which NLTK
   keeps in one token with the mask (``#win🎉``, ``Mr.https://x.com``), is cut off it and becomes
   tokens of its own (``#win`` + ``🎉``), so no character is lost. A trailing ``.``/``,``/``;``/``:``/``!``/
   ``?`` and an unbalanced closing bracket are not part of a URL. A web token's text is its characters as written,
   brackets too (``:)``, ``http://a.b/c_(d)``): spelled ``:-RRB-`` as whole bracket tokens are (choice 4), emoticons
   were written so in the ``measures`` table, JSON and bracketed trees' tokens, though no treebank has such a word; the
   models get the treebank's spelling (:func:`glmnlp.text.inputs.model_words`) and a bracketed tree writes its leaf
   so (:func:`glmnlp.treebank.trees.escape_brackets`), as for a pre-tokenised ``(``. None of them occurs in the WSJ,
   so :func:`web_tag` gives each class a fixed PTB tag that the pipeline uses instead of the
   tagger's guess: ``NN`` for URLs and e-mail addresses (the head noun of a name-like noun phrase;
   UD's English XPOS has ``ADD``, not in the PTB tag set), ``NNP`` for @handles and #hashtags
   (proper names of a user or a topic), ``UH`` for emoticons (interjections, as in the tweet
   treebanks that map to PTB). A token of emoji only gets ``UH`` too (``❤️``, ``👍🏽``, ``👨‍👩‍👧``, ``🇺🇸``,
   ``#️⃣``, ``😂😂``; :func:`glmnlp.graphemes.emoji_only`): NLTK keeps emoji whole and :func:`merge_marks` joins their
   selectors, skin tones and keycaps, so they need no mask; the tagger gave them open-class tags (``I love you ❤️``:
   ``VB``, ``We won 🏆 again``: ``RB``). A symbol below U+10000 counts only where it is shown as an emoji (``⭐``,
   ``✅``, or with U+FE0F: ``☎️``); ``☎ ✉ ♥ ★`` without one are text symbols, left to the tagger as GUM (``SYM``) and
   EWT (``♥``: ``.``) tag them; EWT, GUM and the PTB sample have no emoji. A token with a letter or a digit but a
   keycap's (``🎉win``) is none; ``#win🎉`` is two tokens (above).
8. **``lines=True`` means one sentence per line**: every non-blank line is exactly one sentence
   (no sentence splitting inside a line), for one-sentence-per-line input, however long: a line of more than
   :data:`WINDOW_CHARS` characters was cut where the count fell ("The" | "dog"), so a stimulus of a line became
   two sentences (an end-of-sentence row in its middle, the words after the cut measured without their context)
   and a parse two trees for one line. No splitter runs inside a line, so its work stays linear (choice 9).
9. **Bounded work on any input** (linear time). pysbd's cost grows faster than the length of its input (measured: 2k /
   5k / 20k characters of news text in 53 ms / 216 ms / 2.2 s), so it only ever sees windows of at most
   :data:`WINDOW_CHARS` (2,000) characters: the sentences of a window are kept except its last (which may be cut by the
   window's end), and the next window starts at that last sentence. A sentence that does not end within a whole window
   (text with no sentence boundary for :data:`WINDOW_CHARS` characters: lists, code, unpunctuated dumps) is cut at the
   last whitespace before the window's end (if there is none, as in Chinese text, at the last grapheme cluster that
   begins in the window, else at its end) and a :class:`LongInputWarning` says so; windows with no ``.!?`` nor ``。！？``
   are cut this way without calling pysbd. Every sentence (but a line of ``lines=True``) is therefore at most
   :data:`WINDOW_CHARS` characters, and the cost of splitting is linear in the text. (The pipeline bounds the parser's
   work per sentence too: :data:`glmnlp.text.pipeline.MAX_PARSE_WORDS`.)
10. **Zero-width format characters are whitespace at the edges of tokens and sentences**: the byte-order mark
    U+FEFF, which a text file may begin with, and the other invisible format characters (zero-width space and
    joiners, direction marks and embeddings, word joiner, soft hyphen). NLTK does not split words at them, so a BOM
    stayed glued to the first word (``\\ufeffThe``, which the tagger then called ``NNP``); they are trimmed off
    tokens and sentences and a token of nothing else is dropped, with the offsets still into the original text.
    Inside a token (``👨\\u200d👩``, ``co\\u00adoperate``) they are kept: there they join.
    So are the control characters that are not whitespace (C0, DEL, C1): a run of them was a token,
    which the tagger tagged and a tree printed as an empty-looking word (``(JJ \\x01\\x02)``).
11. **A full stop inside a sentence** (pysbd does not split inside quotations and brackets; NLTK
    splits off the last full stop only) is a token of its own after a lowercase word when a capital
    follows (``know. Then``), and after a lowercase word or a number when a closing quote or bracket follows
    (``He said "I know." and left``, ``(Room 4.)``: ``know.`` and ``4.`` were words, 144 in EWT), except after
    ``etc. vs. viz. cf. al. approx. esp. incl.`` and the other lowercase abbreviations of ``NOT_AN_END``
    (``vol. I``, ``2nd ed.)``)
12. **A country's initials at a sentence's end keep their full stop.** NLTK splits the last full stop off a
    sentence, so ``He moved to the U.S.`` gave ``U.S`` + ``.``, a word the tagger has never seen: the WSJ writes
    ``U.S.`` and a second ``.`` for the sentence's end (the sample: 221 ``U.S.``, no ``U.S``; ``U.K.`` and
    ``U.S.A.`` alike). One character cannot be in two spans, so the initials keep their span (``U.S``, as UD
    English EWT splits it) and are spelled ``U.S.``, a mapped token as ``-LRB-`` is; the ``.`` after them is the
    sentence's. Only ``U.S``, ``U.K``, ``U.S.A`` and ``U.S.S.R``: other abbreviations at a sentence's end are
    written as NLTK splits them in the WSJ too (``Corp`` + ``.``, ``Inc`` + ``.``, ``N.J`` + ``.``, ``p.m`` + ``.``).
    Closing quotes and brackets may follow the stop.
13. **Double contractions split into every clitic.** NLTK splits off only the clitic before a space, so ``shouldn't've``
    gave ``shouldn't`` + ``'ve`` and ``I'd've`` ``I'd`` + ``'ve``, words the models never saw (``You shouldn't've
    gone.`` measured 48.27 bits in all, its treebank tokens ``You should n't 've gone .`` 44.84; now the same). A token
    that a clitic NLTK split touches loses the ``n't 's 'm 'd 'll 're 've`` that ends it, as NLTK splits them
    (``ca n't 've``); no other token is cut (``O'Neill``, ``rock'n'roll``). EWT (none written), GUM, PTB sample: same.
14. **Marks NLTK leaves on a word are split off** where the token after them touches them and PTB writes them apart:
    ``=`` or ``/`` before a quote (``x="y"`` gave ``x=`` + `````` and ``a/"b"`` ``a/`` + ``''``; now ``x = `` y ''``,
    the quote opened by choice 5; ``dir/name="x"`` alike), and a number's hyphen before a currency sign (``$5-$10``
    gave ``$ 5- $ 10``, now ``$ 5 - $ 10``, a range of amounts; ``£5-£10`` alike: choice 15; ``$1.5m-$2m`` and
    ``£5bn-£10bn`` too, an amount with a magnitude of one or two letters, ``$ 1.5 m - $ 2 m`` with choice 19; none in
    EWT, GUM or the PTB sample). Nothing else is cut:
    ``a/b``, ``x=y``, ``5-10``, ``$5-10``, ``5-year-old``, dates and phone numbers stay as NLTK keeps them, and so
    do a path's last slash (``/usr/bin/"x"``), a base64 string's padding before a closing quote (``sig="YWJjZA=="``:
    ``YWJjZA==``; eight or more base64 characters, a multiple of four with one or two ``=``) and URLs (masked while
    this runs: choice 7). EWT: its two ranges of amounts (``$10,000-$20,000``, ``($4-$6)``) now as EWT splits them,
    train sentences exact 0.5892 -> 0.5893 (space; token F1 the same to four digits); GUM, PTB sample: same.
15. **Every currency sign is a token of its own**, as NLTK splits ``$``: the word tokenizer sees each sign of
    Unicode's category Sc as a ``$`` (:data:`~glmnlp.graphemes.CURRENCY_SIGNS`; the token keeps its
    character), so ``£5`` is ``£ 5``, ``5€`` ``5 €`` and ``£5-£10`` ``£ 5 - £ 10`` (one token before, a word no model
    had seen: NLTK splits only ``$``), as EWT and GUM write them (``£ 15``, ``€ 7``, ``80 ¢``: XPOS ``$``; the bundled
    model tags ``£`` and ``€`` ``$``, and ``¥``, ``₹``, which it has not seen, as the ``$`` it has:
    :func:`glmnlp.tagger.features.read_as`). The WSJ writes its pound sign ``#`` (tagged ``#``); the token is the
    character as written. EWT: token F1 dev 0.9703 -> 0.9704 (space), sentences exact dev 0.5537 -> 0.5542, train
    0.5893 -> 0.5894 (space); GUM, PTB sample boundaries: same.
16. **A run of ``!`` and ``?`` is one token** (``wait!!!``, ``serious?!``, ``Really??``), as EWT writes its 286 runs:
    NLTK split every mark, and the parser nested a clause around each (``(S (S (S ... (. !)) (. !)) (. !))``). Marks
    with spaces between stay apart (``! ! !``), and no sentence ends inside a run (pysbd cut ``wait!!!!!!!wait`` after
    its sixth mark: :func:`~glmnlp.text.sentence_cuts.join_wrong_cuts`). A tagger that has not seen the run reads
    its first mark (:func:`glmnlp.tagger.features.read_as`), so the bundled model tags it ``.`` and puts it at the
    sentence's end. GUM writes its three runs mark by mark; the WSJ has none. Each of EWT's sentences tokenised
    alone, 292 changed, each only so (one of them had been cut in a run). EWT (space): token F1 dev 0.9704 -> 0.9748,
    train 0.9768 -> 0.9792; sentences exact dev 0.5542 -> 0.5637, train 0.5894 -> 0.6024; boundary precision dev
    0.9705 -> 0.9713, train 0.9753 -> 0.9754, recall the same.
17. **A numbered item's number splits from its full stop** at a sentence's start, before a word (``1. Preheat the
    oven.``: ``1 . Preheat``), as the WSJ and EWT write a list item (``LS`` + ``.``); NLTK kept ``1.``, which no
    treebank has, and the bundled model read the item as a noun phrase with a proper noun (``(NP (LS 1.) (NNP
    Preheat) ...)``; now ``(S (LST (LS 1) (. .)) (VP (VB Preheat) ...``). One or two digits only (``1999.`` ends a
    sentence as a year does). EWT's sentences tokenised alone: 52 changed, each only so; EWT (space) train token F1
    0.9792 -> 0.9795, sentences exact 0.6024 -> 0.6050 (dev the same); PTB sample, GUM boundaries the same.
18. **Contractions written without their apostrophe are split as EWT splits them** (``dont`` ``do`` + ``nt``, ``cant``
    ``ca`` + ``nt``, ``wont`` ``wo`` + ``nt``, ``Im`` ``I`` + ``m``, ``thats`` ``that`` + ``s``; any case, ``DONT``
    ``DO`` + ``NT``): NLTK kept them whole, words the models never saw (``She doesnt like it.`` was parsed
    ``(VBP doesnt) (PP (IN like) ...)``, ``Youre welcome.`` ``(FRAG (UH Youre) (UH welcome) (. .))``). Each piece is
    its characters as written; the models read the clitic as the treebanks spell it (``n't 'm 's 're 've 'll 'd``:
    :func:`glmnlp.text.inputs.model_words`). The words (:data:`~glmnlp.text.token_spelling._BARE_CONTRACTIONS`):
    EWT's 160 such contractions of 23 forms (``dont`` 44, ``im`` 22, ``ive`` 15, ``wont`` 15, ``cant`` 12, ``thats``
    10, ``didnt`` 6, ``theres`` 5, ...) and the rest of their paradigms, no word of GUM or the PTB sample (of EWT's
    once each: ``youre`` misspelling ``your``, ``ive`` of ``surv ive``).
    Left whole, being words too: ``its`` (EWT: 193 PRP$, 84 ``it s``), ``id`` (12 NN, 2), ``ill`` (8, 1), ``lets``
    (EWT 2 and GUM 4 verbs; 7 ``let s``), ``were well hell shell wed shed``, and ``IM`` in capitals (GUM: 4 instant
    messages); ``cant`` and ``wont`` are split (EWT 12 and 15, no word; none in GUM or the sample: the nouns are rare).
    Not split either: a plural's spelling of a possessive (EWT ``cats`` as ``cat s``: 97 of 75 words), misspelt stems
    (``arnt``, ``wasent``). EWT (space): token F1 dev 0.9704 -> 0.9715, train 0.9768 -> 0.9776; sentences exact dev
    0.5542 -> 0.5587, train 0.5894 -> 0.5946; GUM, PTB sample: same (none of the words occurs in them). With choices
    16 and 17 in place: token F1 dev 0.9748 -> 0.9760, train 0.9796 -> 0.9804; sentences exact dev 0.5637 -> 0.5682,
    train 0.6051 -> 0.6107.
19. **A number glued to its unit splits** (``3pm`` ``3 pm``, ``10:30am``, ``5kg``, ``16GB``, ``2.4GHz``, ``$5m`` ``$ 5
    m``, ``50K``, ``5years``), as EWT and GUM write them (``5 pm``, ``82 kg``; EWT's 44 ``m``, 38 ``am``/``pm``, 25
    ``k``): NLTK kept one token, a word no model had seen (:data:`~glmnlp.text.token_spelling._NUMBER_UNIT`: times of
    day, units, magnitudes and lowercase words of four letters or more). Ordinals and decades stay whole (``4th``,
    ``1990s``), as both treebanks write them, and so do ``4G``, ``3D`` and a flat's ``4B``. EWT (space): token F1 dev
    0.9760 -> 0.9762, train 0.9804 -> 0.9815; sentences exact dev 0.5682 -> 0.5692, train 0.6107 -> 0.6162;
    boundaries, PTB sample and GUM the same.

Offsets: :func:`tokenize_text_spans` returns each token with its ``[start, end)`` character span in
the original text (for a mapped token such as ``-LRB-`` the span covers the original ``(``).
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Iterator
from functools import lru_cache
from types import FrameType
from typing import Any

from glmnlp.errors import NLTK_MISSING, MissingPackageError
from glmnlp.glm.locks import fork_waits
from glmnlp.graphemes import CURRENCY_SIGNS, cluster_start
from glmnlp.text.sentence_cuts import NOT_AN_END, join_wrong_cuts, split_missed
from glmnlp.text.token_spelling import (TYPOGRAPHIC_QUOTES, TokenSpan, close_spaced_quotes, merge_ampersands,
                                        merge_mark_runs, merge_marks, merge_years, opens_quote, quotes_left_open,
                                        spell_final_abbreviation, split_bare_contractions, split_clitics,
                                        split_glued_marks, split_list_number, split_number_units)
from glmnlp.text.web import mask_web_tokens, restore_web_tokens, web_tag, web_tags, web_token_spans
from glmnlp.treebank.fileio import BLANKS, INVISIBLE
from glmnlp.treebank.trees import PTB_APOSTROPHES, PTB_BRACKETS

__all__ = ["BLANKS", "LongInputWarning", "PTB_BRACKETS", "WINDOW_CHARS", "paragraph_break", "ptb_brackets",
           "sentence_spans", "split_sentences", "tokenize", "tokenize_spans", "tokenize_text", "tokenize_text_spans",
           "user_stacklevel", "web_tag", "web_tags", "web_token_spans"]


# One character for one, so every offset into the normalised text is an offset into the original.
_NORMALISE = str.maketrans(
    {
        **{chr(c): text for c, text in PTB_APOSTROPHES.items()},  # single quotation marks, apostrophes (also ʼ)
        "\u201a": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',  # double quotation marks
        "\u00a0": " ", "\u2007": " ", "\u202f": " ",  # no-break spaces
        # NLTK does not split these off words, and ";" always: the token's text is the original's (_CHAR_TOKENS)
        "\u2014": ";",  # em dash
        "\u2026": ";",  # horizontal ellipsis
    }
)
# Token text for single original characters that PTB spells differently.
_CHAR_TOKENS: dict[str, str] = {
    **TYPOGRAPHIC_QUOTES,
    "\u2014": "--",  # em dash
    "\u2013": "--",  # en dash
    "\u2026": "...",  # horizontal ellipsis
    **PTB_BRACKETS,
    **{sign: sign for sign in CURRENCY_SIGNS},  # NLTK saw $ (choice 15)
}
# Choice 15: every currency sign is a $ to NLTK, one character for one (to the word tokenizer only: pysbd's splits
# are left as they were)
_CURRENCY_AS_DOLLAR = str.maketrans(dict.fromkeys(CURRENCY_SIGNS - {"$"}, "$"))
_NOT_THE_USERS = re.compile(r"(?:glmnlp|spacy|thinc|confection)(?:\.|\Z)")  # frames no warning is about
LINE_END = re.compile(r"\r\n?|\n")  # universal newlines, as the CLI reads one-sentence-per-line input
_WORDLIKE = re.compile(r"\w")
_QUOTE_CHARS = re.compile(r"``|'{2}|\"")
_INNER_STOP = re.compile(  # choice 11
    NOT_AN_END + r"(?:[a-z]{2,}\.(?=\s+[\"'`(\[{]*[A-Z])|(?:[a-z]{2,}|[0-9]+)\.(?=[\"')\]}]))")
# Zero-width format characters (choice 10): soft hyphen, zero-width space and (non-)joiners, direction marks and
# embeddings, word joiner and invisible operators, the byte-order mark; control characters but whitespace.
_INVISIBLE = INVISIBLE
_HAS_INVISIBLE = re.compile(f"[{re.escape(_INVISIBLE)}]")
# BLANKS (glmnlp.treebank.fileio's, the CLI's test of a blank line): what sentences are trimmed of
# A blank line (choice 1): only BLANKS between two line ends (\n, \r\n, a lone \r), as the CLI reads a file (a line of
# only U+2028 or a zero-width space ended a paragraph in `glmnlp parse -i FILE`, not in `parse TEXT` or the API)
_LINE_BREAK = r"(?:\r\n|\r(?!\n)|\n)"  # \r\n one line end, never a lone \r and then a \n
_PARAGRAPH_BREAK = re.compile(_LINE_BREAK + "(?:[" + re.escape(BLANKS.translate({10: None, 13: None})) + "]*"
                              + _LINE_BREAK + r")+\s*")
# Within a sentence, what NLTK sees as a space (choice 3): every other whitespace character, one for one.
_SPACES = str.maketrans(dict.fromkeys((ch for ch in BLANKS if ch.isspace() and ch != " "), " "))

Span = tuple[int, int]

#: The largest piece of text the sentence splitter sees at once, and the longest sentence.
WINDOW_CHARS = 2000


class LongInputWarning(UserWarning):
    """Text without a sentence boundary for :data:`WINDOW_CHARS` characters was cut into pieces.

    One warning per text, however many cuts (``cuts``; each cut's own warning, told apart by its position, made
    28 lines of one call in a notebook, which Python's once-per-place rule did not fold), naming the first.
    """

    def __init__(self, message: str, cuts: int = 1) -> None:
        super().__init__(message)
        self.cuts = cuts


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the first frame outside glmnlp, and outside spaCy's packages
    when glmnlp runs as its component: the user's line (generators between the call and the warning make any fixed
    level point inside the pipeline; in a spaCy pipeline it pointed at spaCy's ``language.py``)."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and _NOT_THE_USERS.match(str(frame.f_globals.get("__name__", ""))):
        frame, level = frame.f_back, level + 1
    return level


@lru_cache(maxsize=1)
def _word_tokenizer() -> Any:
    # Imported lazily: nltk takes about half a second to import, and `import glmnlp` should not; a fork meanwhile
    # waits (glmnlp.glm.locks: a child forked mid-import waited for ever on the module's lock)
    try:
        with fork_waits():
            from nltk.tokenize import NLTKWordTokenizer
    except ImportError:  # a dependency, so a broken installation: said as a missing extra is said
        raise MissingPackageError(NLTK_MISSING.format(what="tokenising text")) from None
    except LookupError:  # nltk 3.9 (3.9.1 mends it) could not be imported without WordNet, which glmnlp does not use
        raise MissingPackageError("tokenising text needs nltk 3.9.1 or later (3.9 asks for WordNet as it is imported): "
                                  "pip install 'nltk>=3.9.1'") from None
    return NLTKWordTokenizer()


def _segment(paragraph: str) -> list[str]:
    with fork_waits():  # imported on first use (see _word_tokenizer)
        import pysbd
    # A fresh Segmenter per call: cheap (microseconds) and free of shared state between threads.
    return list(pysbd.Segmenter(language="en", clean=False).segment(paragraph))


def _paragraphs(text: str, lines: bool) -> Iterator[Span]:
    """Spans of the paragraphs of ``text`` (blank-line separated, or one per line)."""
    if lines:  # a line ends where a file's does (not at \f, U+0085, U+2028, ... as str.splitlines would have it)
        pos = 0
        for match in LINE_END.finditer(text):  # its line break left out
            yield pos, match.start()
            pos = match.end()
        yield pos, len(text)
        return
    pos = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        yield pos, match.start()
        pos = match.end()
    yield pos, len(text)


_BOUNDARY_CHAR = re.compile(r"[.!?\u3002\uff01\uff1f]")  # and 。！？, which pysbd splits at (CJK text was one sentence)
_LEADING_CLOSERS = re.compile(r"\s*[\"')\]}]+(?=\s)")  # in normalised text: ’ ” are ' " there
# Line breaks, and the information separators U+001C-U+001F: Python counts these as whitespace,
# so pysbd's list-item rules match "\x1c1." as a number and int() fails on it (ValueError). The
# splitter sees a space instead, one character for one (offsets unchanged, whitespace either way).
_SPLITTER_SPACES = str.maketrans(dict.fromkeys("\n\r\x1c\x1d\x1e\x1f", " "))


def _segment_window(paragraph: str, cuts: list[int]) -> Iterator[Span]:
    """Sentence spans (untrimmed) of a paragraph, splitting it window by window (choice 9); where a window had to be
    cut at whitespace, its position in the paragraph is appended to ``cuts``."""
    pos, n = 0, len(paragraph)
    while pos < n:
        window, last = paragraph[pos:pos + WINDOW_CHARS], n - pos <= WINDOW_CHARS
        pieces = _pieces(window) if _BOUNDARY_CHAR.search(window) else [(0, len(window))]
        if last:
            for a, b in pieces:
                yield pos + a, pos + b
            return
        if len(pieces) > 1 and pieces[-1][0] > 0:
            for a, b in pieces[:-1]:
                yield pos + a, pos + b
            pos += pieces[-1][0]
            continue
        # no sentence ends inside a whole window: cut at the last whitespace
        cut = max(window.rfind(" "), window.rfind("\t"))
        cut = cut + 1 if cut > 0 else (cluster_start(paragraph, pos + len(window), pos) - pos or len(window))
        cuts.append(pos)
        yield pos, pos + cut
        pos += cut


def _pieces(window: str) -> list[Span]:
    """pysbd's sentences of ``window`` as consecutive spans that cover all of its text.

    pysbd (``clean=False``) normally returns consecutive substrings, but not always: on
    ``"Smith . . ."`` it returns ``"Smith . "`` and ``". . "`` (whitespace moved, the last period
    dropped), and on ``"It ended. . . .\\t(b)Mr. Smith came home!"`` it returns ``"It ended. "`` and
    ``"Smith came home!"``, leaving ``. . .\\t(b)Mr.`` out. A piece is therefore looked up by its
    stripped text, and text between two pieces (or after the last) that pysbd left out is not lost
    (:func:`_gap_split`); a piece that cannot be found ends the splitting and the rest of the window
    is handled as text after the last piece.
    """
    out: list[Span] = []
    at = 0
    for piece in _segment(window):
        core = piece.strip()
        if not core:
            continue
        found = window.find(core, at)
        if found < 0:
            break
        if out:
            at += _gap_split(window[at:found])
            out[-1] = (out[-1][0], at)
        out.append((at, found + len(core)))
        at = found + len(core)
    if window[at:].strip():
        if out:
            at += _gap_split(window[at:])
            out[-1] = (out[-1][0], at)
        if window[at:].strip():
            out.append((at, len(window)))
    return out


# The first word of left-out text that belongs to the next sentence: one with a letter or digit in
# it, or one that opens a bracket or a quotation.
_GAP_NEXT = re.compile(r"(?<!\S)(?=[(\[{\"'`]|\S*\w)")


def _gap_split(gap: str) -> int:
    """Where text pysbd left out of its pieces divides between the sentences around it.

    Leading words of punctuation only (the rest of an ellipsis ``. . .``, a stray ``!``) end the
    sentence before; from the first word with a letter or digit, or opening a bracket or quotation,
    the text starts the sentence after (``(b)Mr.`` in the example of :func:`_pieces`).
    """
    match = _GAP_NEXT.search(gap)
    return match.start() if match else len(gap)


def sentence_spans(text: str, *, lines: bool = False) -> list[Span]:
    """``[start, end)`` character spans of the sentences of ``text``, whitespace trimmed.

    Parameters
    ----------
    text:
        Raw text, any length (the work is linear in it: module docstring, choice 9).
    lines:
        If true, every non-blank line is exactly one sentence, however long (choice 8). Otherwise single line
        breaks are spaces and only blank lines separate paragraphs (choice 1).

    Otherwise a piece of text with no sentence boundary for :data:`WINDOW_CHARS` characters is cut into
    pieces of at most that length, with a :class:`LongInputWarning`."""
    if not isinstance(text, str):
        raise TypeError(f"expected a str, got {type(text).__name__}")
    normal = text.translate(_NORMALISE)
    web = web_token_spans(normal)
    emoticons = {end: start for start, end, kind in web  # (<3 is a verb: I <3 NY)
                 if kind == "emoticon" and normal[start:end] not in ("<3", "</3")}
    normal = mask_web_tokens(normal, web)
    spans: list[Span] = []
    cuts: list[int] = []
    for p_start, p_end in _paragraphs(normal, lines):
        paragraph = normal[p_start:p_end].translate(_SPLITTER_SPACES)
        if not paragraph.strip():
            continue
        first_in_paragraph = len(spans)
        cut_before = len(cuts)
        pieces = [(0, len(paragraph))] if lines else join_wrong_cuts(
            paragraph, text[p_start:p_end], split_missed(paragraph, _segment_window(paragraph, cuts), emoticons,
                                                              p_start), WINDOW_CHARS)
        for at, stop in pieces:  # the joins of choice 2 only within WINDOW_CHARS (a run of "-" made one sentence)
            if (not lines and len(spans) > first_in_paragraph and (close := _LEADING_CLOSERS.match(paragraph, at, stop))
                    and p_start + close.end() - spans[-1][0] <= WINDOW_CHARS):
                spans[-1], at = (spans[-1][0], p_start + close.end()), close.end()  # choice 2: closing quotes
            piece = paragraph[at:stop]
            stripped = piece.strip(BLANKS)
            if not stripped:
                continue
            start = p_start + at + (len(piece) - len(piece.lstrip(BLANKS)))
            end = start + len(stripped)
            if not lines and not _WORDLIKE.search(stripped) and len(spans) > first_in_paragraph and (
                    end - spans[-1][0] <= WINDOW_CHARS):
                spans[-1] = (spans[-1][0], end)  # choice 2: punctuation-only fragment
            else:
                spans.append((start, end))
        cuts[cut_before:] = [p_start + at for at in cuts[cut_before:]]  # (the pieces are read in the loop above)
    if cuts:
        more = "" if len(cuts) == 1 else f", and {len(cuts) - 1} more cut{'s' if len(cuts) > 2 else ''} after it"
        warnings.warn(LongInputWarning(
            f"no sentence boundary within {WINDOW_CHARS} characters (at character {cuts[0]}{more}): the text is "
            f"cut into pieces of at most {WINDOW_CHARS} characters", len(cuts)), stacklevel=user_stacklevel())
    return spans


def split_sentences(text: str, *, lines: bool = False) -> list[str]:
    """The sentences of ``text`` as strings (:func:`sentence_spans`). ``lines=True``: every non-blank line is exactly
    one sentence, however long; otherwise a single line break is a space and a blank line always ends a sentence."""
    return [text[start:end] for start, end in sentence_spans(text, lines=lines)]


def tokenize_spans(sentence: str, open_before: tuple[bool, bool] = (False, False)) -> list[TokenSpan]:
    """PTB tokens of one sentence with their ``[start, end)`` offsets in ``sentence``; ``open_before``: whether a double
    and a single quote are open as the sentence begins (a sentence inside a paragraph: choice 5; what
    :func:`tokenize_text_spans` carries from one sentence to the next)."""
    if not isinstance(sentence, str):
        raise TypeError(f"expected a str, got {type(sentence).__name__}")
    normal = sentence.translate(_NORMALISE).translate(_SPACES)
    web = web_token_spans(normal)
    normal = mask_web_tokens(normal, web).translate(_CURRENCY_AS_DOLLAR)
    # NLTK's token text is needed for the quote conversion it does (" -> `` or ''), and the spans
    # of the original characters: one tokenize() call, aligned the way NLTK's span_tokenize()
    # aligns (which would tokenize a second time): each quote token matches the next quote
    # characters of the text, every other token its own text.
    texts = _word_tokenizer().tokenize(normal)
    quotes = iter(m.group() for m in _QUOTE_CHARS.finditer(normal))
    raw = []
    at = 0
    for text in texts:
        target = next(quotes, text) if text in ('"', "``", "''") else text
        start = normal.find(target, at)
        if start < 0:  # pragma: no cover - NLTK contract broken
            raise RuntimeError(f"word tokenizer returned a token not in the text: {text!r}")
        at = start + len(target)
        raw.append((target, start, at))
    tokens: list[TokenSpan] = []
    for text, (_, start, end) in zip(texts, raw):
        original = sentence[start:end]
        if original in _CHAR_TOKENS:
            text = _CHAR_TOKENS[original]
        elif text == "'" and opens_quote(sentence, start, end):
            text = "`"
        elif text == "''" and opens_quote(sentence, start, end):  # choice 5: at the start, NLTK leaves it
            text = "``"
        elif (inner := _INNER_STOP.match(normal, start)) and inner.end() == end:
            tokens.append((text[:-1], start, end - 1))  # choice 11: a full stop inside the sentence
            text, start = ".", end - 1
        tokens.append((text, start, end))
    tokens = split_glued_marks(split_clitics(tokens))  # before the web tokens' text is back (a URL may end in /)
    tokens = restore_web_tokens(tokens, web, sentence, _NORMALISE) if web else tokens
    tokens = split_number_units(split_bare_contractions(tokens))  # after the web tokens' text is back: not a URL's
    tokens = merge_mark_runs(merge_marks(merge_ampersands(tokens), sentence), normal)
    tokens = close_spaced_quotes(merge_years(tokens, sentence), sentence, open_before)
    tokens = split_list_number(spell_final_abbreviation(tokens))
    return _trim_invisible(tokens, sentence) if _HAS_INVISIBLE.search(sentence) else tokens


def _trim_invisible(tokens: list[TokenSpan], sentence: str) -> list[TokenSpan]:
    """Tokens without the zero-width format characters at their edges, and without tokens of only
    such characters (choice 10): NLTK splits words at whitespace only, so a BOM stays glued to the
    word after it. The token text keeps the same characters as its span, so both are trimmed alike.
    """
    out: list[TokenSpan] = []
    for text, start, end in tokens:
        original = sentence[start:end]
        core = original.strip(_INVISIBLE)
        if core:
            start += len(original) - len(original.lstrip(_INVISIBLE))
            out.append((text.strip(_INVISIBLE) or core, start, start + len(core)))
    return out


def ptb_brackets(text: str) -> str:
    """Brackets in a token spelled the PTB way (``(`` -> ``-LRB-``, ``a_(b)`` -> ``a_-LRB-b-RRB-``: choice 4)."""
    return "".join(PTB_BRACKETS.get(ch, ch) for ch in text)


def tokenize(sentence: str) -> list[str]:
    """PTB tokens of one sentence: ``tokenize("I don't (really) know.")`` ->
    ``['I', 'do', "n't", '-LRB-', 'really', '-RRB-', 'know', '.']``."""
    return [text for text, _, _ in tokenize_spans(sentence)]


def paragraph_break(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (the text between two sentences) holds a blank line, which ends a paragraph
    (choice 1): open quotes are counted from a paragraph's start (choice 5), here and in the spaCy component."""
    return _PARAGRAPH_BREAK.search(text, start, end) is not None


def tokenize_text_spans(text: str, *, lines: bool = False) -> list[list[TokenSpan]]:
    """Sentences of PTB tokens, each with its offsets in ``text`` (not in its sentence); ``lines`` as for
    :func:`split_sentences` (true: one sentence per non-blank line). Open quotes are counted from the paragraph's
    start (a line's with ``lines=True``), as the splitter cuts inside quotations (choice 5)."""
    result: list[list[TokenSpan]] = []
    open_quotes, at = (False, False), 0
    for start, end in sentence_spans(text, lines=lines):
        if lines or paragraph_break(text, at, start):  # quotes are counted from the paragraph's start
            open_quotes = (False, False)
        tokens = tokenize_spans(text[start:end], open_quotes)
        open_quotes, at = quotes_left_open(tokens, open_quotes), end
        result.append([(tok, start + a, start + b) for tok, a, b in tokens])
    return result


def tokenize_text(text: str, *, lines: bool = False) -> list[list[str]]:
    """Split ``text`` into sentences and each sentence into PTB tokens; ``lines`` as for :func:`split_sentences`
    (true: one sentence per non-blank line)."""
    return [[tok for tok, _, _ in sent] for sent in tokenize_text_spans(text, lines=lines)]
