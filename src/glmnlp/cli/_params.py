"""Option values shared by several commands, and the check of options that do not apply.

Every float option of every command takes a :class:`NumberRange`: click's ``FloatRange`` lets
``nan`` through (every comparison with NaN is false), which then fails far from the option or
silently acts like another value. ``NumberRange`` refuses NaN always and infinity unless the option
gives it a meaning (``infinite=True``, e.g. a margin: no limit), as a usage error (status 2).

An option given where it has no effect (``glmnlp parse --compact --format brackets``) is refused as a
usage error too, saying what it applies to, rather than silently ignored; :func:`given_options` tells
which options the command line set (a default value is never refused). A model or output folder
option takes a :class:`NonEmptyPath`: an empty path is a usage error, not the current directory. An input file
option takes an :class:`InputFile`: a file that is missing, a folder or unreadable is bad input, one line
``error: PATH: cannot read file: reason`` with status 1, as a file that is read and found malformed (click's own
checks made it a usage error, status 2, in some commands and not in others).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import math
import os
import re
import shlex
import stat
import sys
import warnings
from collections import Counter

import click
from click.core import ParameterSource

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from glmnlp.config import MAX_JOBS

__all__ = ["NumberRange", "NonEmptyPath", "InputFile", "and_list", "check_address", "check_text_arguments",
           "note_rerooted", "check_tagset", "given_options", "on_terminal", "quiet_ray", "sentence_bar", "some_of",
           "weight_list", "parallel_options", "training_parallel_options", "parser_parallel_options",
           "rare_chains_said", "check_environment", "warn_of_jobs", "one_line", "warn_if_dev_is_train",
           "warn_of_named_format", "first_line_peek", "other_format_hint", "not_parsed"]

T = TypeVar("T")


#: what a terminal does not show as written: C0 and C1 controls and DEL (an escape sequence colours or clears the
#: screen, a newline or CR breaks the line), the line and paragraph separators, and the bidirectional controls (which
#: reorder what follows them: a name ``a\u202etxt.exe`` is shown as ``aexe.txt``)
_UNSHOWN = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    """``text`` (an error or warning naming the user's paths) with what a terminal would not show as written escaped
    as Python escapes it (``\\x1b``, ``\\n``, ``\\u202e``): a file name holding an escape sequence coloured the
    terminal, one holding a newline split the error line in two."""
    return _UNSHOWN.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def not_parsed(fmt: str, command: str = "glmnlp parse") -> str:
    """What reads a file of ``fmt`` (CoNLL-U, tab-separated, trees), which ``command`` of glmnlp parse does not."""
    return (f"{command} reads no {fmt} file: glmnlp tag --input-format auto gives its words tags, as word/TAG lines "
            "that glmnlp parse --tagged reads; in Python glmnlp.treebank.formats.read_tagged reads its words and tags")


def warn_of_named_format(path: str | os.PathLike[str] | None, name: str, read_as: str,
                         instead: Callable[[str], str], first_line: Callable[[], str | None]) -> None:
    """Warn that the input file ``path`` (named ``name``) is read as ``read_as`` though its suffix names a format
    (``glmnlp.treebank.formats.named_format``), saying what reads that format: ``instead(format)``. Read silently, a
    CoNLL-U file's every bracket and column became a word (6,454 "sentences" of a 245-sentence file, status 0), a
    word/TAG file's ``Savin/NNP`` one word. ``first_line`` gives the input's first non-blank line, asked for only
    where the content decides (:func:`first_line_peek` reads it from the command's own stream)."""
    from glmnlp.errors import FormatError
    from glmnlp.treebank.formats import detect_format, named_format

    if path is None or (named := named_format(str(path))) == "auto":
        return
    if named in ("tab", "word_tag"):  # the content decides these two (a plain-token .tab file was warned of as tab,
        line = first_line()  # which --input-format auto then refused)
        try:
            if line is None or detect_format([line], name) != named:
                return
        except FormatError:
            return
    click.echo(f"warning: {name} is read as {read_as}, though its name says {named}: {instead(named)}", err=True)


def first_line_peek(lines: Iterable[T], text: Callable[[T], str]) -> tuple[Callable[[], str | None], Iterator[T]]:
    """A function giving the first non-blank line (``text`` of an item) among the first 1000 items of ``lines`` (None
    if there is none), read when it is first called, and every item of ``lines`` again, those it read first: the
    check of :func:`warn_of_named_format` reads the stream the command reads. It opened the file a second time
    (and judged no pipe, whose lines it read would have been lost to the command)."""
    source = iter(lines)
    head: list[T] = []
    found: list[str | None] = []

    def first() -> str | None:
        from glmnlp.treebank.fileio import is_blank

        if not found:
            found.append(None)
            for item in itertools.islice(source, 1000):
                head.append(item)
                if not is_blank(text(item)):
                    found[0] = text(item)
                    break
        return found[0]

    def every() -> Iterator[T]:
        yield from head
        yield from source

    return first, every()


def other_format_hint(name: str, first_line: str) -> str:
    """``"; ..."`` to add to the error of a line that is no word/TAG line (``glmnlp parse --tagged``) where the file's
    suffix or its first non-blank line (ten tab fields, two, a ``(``) shows another format, else ``""``: reading
    a CoNLL-U file said only ``token 1 '#' has no /TAG``. Judged on the error path alone: reading pays nothing."""
    from glmnlp.errors import FormatError
    from glmnlp.treebank.formats import detect_format, named_format

    said, fmt = "its name says", named_format(name)
    if fmt == "auto":
        try:
            said, fmt = "its first line looks like", detect_format([first_line], name)
        except FormatError:
            return ""
    return "" if fmt == "word_tag" else f"; {said} {fmt}: " + not_parsed(fmt, "glmnlp parse --tagged")


def warn_if_dev_is_train(train_path: str, dev_path: str, chosen: str) -> None:
    """Warn when ``--dev`` names the ``--train`` file (or a link to it): ``chosen`` (what is chosen on dev) is then
    chosen on the training data itself, which trained silently."""
    from glmnlp.cli._paths import same_file

    if "-" not in (train_path, dev_path) and same_file(train_path, dev_path):
        click.echo(one_line(f"warning: {dev_path} is the --train file: {chosen}"), err=True)


class NumberRange(click.FloatRange):
    """A float in [``min``, ``max``] (as :class:`click.FloatRange`): never NaN, infinite only with ``infinite``."""

    def __init__(self, min: float | None = None, max: float | None = None, *, infinite: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(min, max, **kwargs)
        self.infinite = infinite

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number.", param, ctx)
        if math.isinf(number) and not self.infinite:
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return super().convert(number, param, ctx)


def given_options(*names: str) -> list[str]:
    """The options among the parameter ``names`` of the running command that its command line set, as
    spelled there (``--gen-cutoff``), in the order of ``names``."""
    ctx = click.get_current_context()
    spelled = {p.name: max(p.opts, key=len) for p in ctx.command.params if isinstance(p, click.Option)}
    return [spelled[name] for name in names
            if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)]


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def some_of(items: list[str], limit: int) -> str:
    """The first ``limit`` items, then how many more: ``a, b, c and 4 more`` (messages naming labels or files)."""
    return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")


class NonEmptyPath(click.Path):
    """:class:`click.Path` that refuses an empty value as a usage error: ``--model ''`` would name the
    current directory (shown as ``.``), never what was meant; and a leading ``~`` is the home folder, as the shell
    reads it in a word of its own but not after ``--out=`` (``--out=~/models/t`` made a folder named ``~`` here,
    and said "written to ~/models/t"; a folder named so is ``./~``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str | bytes) and not value:
            self.fail("the path is empty", param, ctx)
        return super().convert(home_expanded(value), param, ctx)


def home_expanded(value: Any) -> Any:
    """``value`` with a leading ``~`` or ``~user`` expanded (:class:`NonEmptyPath`); anything else as it is."""
    return os.path.expanduser(value) if isinstance(value, str) and value.startswith("~") else value


class InputFile(NonEmptyPath):
    """A file to read: empty is a usage error (:class:`NonEmptyPath`); missing, a folder or unreadable is an
    :class:`~glmnlp.errors.InputError` (status 1) in the words the readers use. Nothing is opened here (a named
    pipe, ``<(command)``, would lose what it holds); ``-`` (stdin) passes where ``allow_dash`` is set."""

    def __init__(self, *, allow_dash: bool = False, path_type: Any = None) -> None:
        super().__init__(allow_dash=allow_dash, path_type=path_type, readable=False)  # read by convert below

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        value = home_expanded(value)
        if self.allow_dash and str(value) == "-":
            return path
        from glmnlp.errors import InputError, unreadable

        if str(value) == "-" and not os.path.exists(value):  # not "cannot read file: No such file or directory"
            raise InputError("this command reads named files, not stdin: give the file's name", source="-")

        try:
            mode = os.stat(value).st_mode
        except OSError as exc:
            raise unreadable(exc, os.fsdecode(value)) from None
        if stat.S_ISDIR(mode):
            raise InputError("cannot read file: Is a directory", source=os.fsdecode(value))
        if not os.access(value, os.R_OK):
            raise InputError("cannot read file: Permission denied", source=os.fsdecode(value))
        return path


@contextlib.contextmanager
def rare_chains_said(path: str) -> Iterator[None]:
    """The library's :class:`~glmnlp.parser.training.RareChainWarning` (a small treebank's trees need chains the
    grammar drops) said as the commands' other warnings are, naming ``path`` (the training file); other warnings as
    Python shows them (``parser train``, ``train-default``: it came out as a Python warning there, even with -q)."""
    from glmnlp.parser.training import RareChainWarning

    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
            if issubclass(category, RareChainWarning):
                click.echo(one_line(f"warning: {path}: {message}"), err=True)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = show
        yield


def check_text_arguments(texts: tuple[str, ...]) -> None:
    """A lone ``-`` among TEXT arguments is a usage error: ``echo ... | glmnlp parse -`` parsed the text "-" and left
    stdin unread, where ``glmnlp tag -`` reads stdin (here stdin is read with ``-i -``, or with no TEXT). A TEXT that
    is the name of a file here gets a warning: ``glmnlp parse story.txt`` gave the tree ``(TOP (NP (NN story.txt)))``
    and status 0, with no word that the file was never read (it is still parsed as text: "Hi." may be a file too)."""
    if "-" in texts:
        raise click.UsageError("'-' is not read as standard input here: give -i - (or no TEXT) to read it")
    for text in texts:
        if text.strip() == text and "\n" not in text and os.path.isfile(text):
            click.echo(f"warning: TEXT {text!r} is the name of a file here: it is read as text (the file is read "
                       f"with -i {shlex.quote(text)})", err=True)


def kept_root(tree: Any, cleaned: Any) -> str:
    """The root label of ``tree`` if :func:`glmnlp.treebank.preprocess.clean_tree` kept it as a phrase under a new
    ``TOP`` (``cleaned``), else ``""``: what :func:`note_rerooted` counts (a ``ROOT`` over one phrase becomes ``TOP``,
    one over several is kept)."""
    top = cleaned.children[0] if cleaned.children else None
    return tree.label if tree.label and getattr(top, "label", None) == tree.label and tree.label != "TOP" else ""


def note_rerooted(roots: Sequence[tuple[str, str]]) -> None:
    """The note on stderr of the trees that :func:`glmnlp.treebank.preprocess.clean_tree` put under a new TOP, of the
    ``(kept root label or "", file:line)`` of every tree cleaned (:func:`kept_root`): a root kept as a phrase is
    seldom what a user wants, and ``grammar table1`` counted its chains with the extra level without a word."""
    rerooted = [(label, where) for label, where in roots if label]
    if rerooted:
        counts = Counter(label for label, _where in rerooted)
        listed = ", ".join(f"{label} ({count})" for label, count in counts.most_common())
        click.echo(f"note: {len(rerooted)} tree(s) had a root that is no root bracket (the unlabelled ( ... ), TOP, "
                   f"or ROOT over one phrase): {listed}; each was put under a new TOP root, its root kept as a phrase "
                   f"(first at {rerooted[0][1]})", err=True)


def check_address(backend: str | None, address: str | None) -> None:
    """``--address`` given without the ray backend (``--backend``, else ``$GLMNLP_BACKEND``): a usage error. The ray
    backend without Ray installed, and the address of the ray backend (given, else ``$GLMNLP_ADDRESS``, else Ray's
    ``$RAY_ADDRESS``) where nothing answers: a :class:`ConfigError` before the command runs, whatever ``--jobs`` and
    the size of the input. Work that stays in this process (``-j 1``, one batch of input) never joined the cluster,
    so a mistyped address went unnoticed until a larger run."""
    from glmnlp.config import resolve
    from glmnlp.errors import ConfigError
    from glmnlp.glm.ray_driver import joined_address

    try:
        chosen = resolve(jobs=1, backend=backend).backend  # jobs given: $GLMNLP_JOBS is not read
    except ConfigError:  # a bad $GLMNLP_BACKEND: an error where workers are started, not for work that stays here
        if address is None:
            return
        raise
    if chosen != "ray":
        if address is not None:
            raise click.UsageError("--address needs --backend ray (or GLMNLP_BACKEND=ray)")
        return
    import importlib.util

    if importlib.util.find_spec("ray") is None:  # said first: input of one batch ran here and said nothing, and an
        # address where nothing answers was blamed on the network
        raise ConfigError("the ray backend needs Ray: pip install 'glmnlp[ray]'")
    try:
        settings = resolve(jobs=1, backend=backend, address=address)
    except ConfigError as exc:
        if address is None:  # $GLMNLP_ADDRESS
            raise
        raise click.BadParameter(str(exc), param_hint="'--address'") from None  # a bad option value: status 2
    joined_address(settings.address)


def check_environment(jobs: int | None, backend: str | None) -> None:
    """The settings the command line leaves to the environment, checked before any work: ``$GLMNLP_JOBS`` without
    ``--jobs``, and ``$GLMNLP_BACKEND`` without ``--backend`` unless the jobs are 1 (the work stays in this process).
    ``GLMNLP_JOBS=abc glmnlp parse "Hi."`` ran (TEXT arguments are parsed here) where the same command on a file of
    two batches was refused, and a bad ``$GLMNLP_BACKEND`` passed every run whose work happened to stay here: a
    :class:`ConfigError` (status 1) now, whatever the input; a setting given on the command line is not read."""
    from glmnlp.config import resolve

    if jobs is None:
        jobs = resolve(backend="local").jobs  # $GLMNLP_JOBS alone
    if backend is None and jobs != 1:
        resolve(jobs=jobs)  # $GLMNLP_BACKEND alone


def warn_of_jobs(jobs: int | None, backend: str | None, name: str = "--jobs") -> None:
    """``--jobs N`` above the CPUs this process may use on the local backend: a warning (``-j 10000`` started a
    worker process per batch or shard, each holding a model or a shard, up to the out-of-memory killer). Not
    refused: the model of a training command depends on its shards, which follow ``--jobs``, so a run may mean to
    match another machine's.
    ``-j 2`` is never warned of (the tests and the docs' examples use it on any machine). Without ``--jobs``,
    ``$GLMNLP_JOBS`` is the number (``GLMNLP_JOBS=6`` started 6 workers, or trained on 6 shards, without a word)."""
    from glmnlp.config import resolve
    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import default_jobs

    if jobs is None:
        try:
            jobs, name = resolve(backend=backend).jobs, "$GLMNLP_JOBS"
        except ConfigError:  # a bad value: the command says so where it reads it
            return
    if jobs <= 2:
        return
    cores = default_jobs()
    if jobs > cores and resolve(jobs=1, backend=backend).backend == "local":  # jobs given: $GLMNLP_JOBS not read
        # the CPUs this process may use (taskset, a batch job's allocation): "this machine's 1 cores" read as a
        # machine of two misread
        whole = f" of the machine's {os.cpu_count()}" if (os.cpu_count() or cores) > cores else ""
        click.echo(f"warning: {name} {jobs} is more than the {cores} {'CPU' if cores == 1 else 'CPUs'} this process "
                   f"may use{whole}: up to {jobs} worker processes, each holding a model or a shard in memory, and no "
                   f"faster than {cores} (--backend ray for more machines)", err=True)


def on_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a progress bar is drawn only there)."""
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def sentence_bar(total: int | None = None) -> Any:
    """The progress bar of commands that work sentence by sentence, on stderr (cleared when closed)."""
    from tqdm import tqdm

    return tqdm(total=total, desc="sentences", unit=" sent", file=sys.stderr, leave=False, mininterval=0.5)


@contextlib.contextmanager
def quiet_ray(quiet: bool) -> Iterator[None]:
    """With ``--quiet``, Ray started or joined by the command logs errors only (its warnings, such as the token
    authentication notice, were printed on stderr by a command asked to print nothing but errors)."""
    if not quiet:
        yield
        return
    from glmnlp.glm import parallel

    previous, parallel.ray_logging_level = parallel.ray_logging_level, logging.ERROR
    try:
        yield
    finally:
        parallel.ray_logging_level = previous


def parallel_options(fn: Callable[..., Any], jobs_note: str = "The result does not depend on it.",
                     jobs_help: str | None = None, environment_jobs_warned: bool = True) -> Callable[..., Any]:
    """``--jobs``, ``--backend``, ``--address``: where independent work runs (glmnlp.glm.parallel). ``--address``
    without the ray backend (``--backend ray``, else ``$GLMNLP_BACKEND``) is a usage error before the command runs:
    it was ignored by work that runs in this process, and refused later (status 1) by work that does not. The
    environment's settings the options leave unset are checked before it runs too (:func:`check_environment`).
    ``jobs_help``: the whole help of ``--jobs`` for a command whose workers do more to say (``jobs_note`` is
    then unused). ``environment_jobs_warned=False``: a ``$GLMNLP_JOBS`` above the cores is the command's to warn of,
    where it reads it (``glmnlp parse`` reads it only where workers may run: not for TEXT arguments)."""
    command = fn

    @functools.wraps(command)
    def checked(*args: Any, **kwargs: Any) -> Any:
        check_address(kwargs.get("backend"), kwargs.get("address"))
        check_environment(kwargs.get("jobs"), kwargs.get("backend"))
        if kwargs.get("jobs") is not None or environment_jobs_warned:
            warn_of_jobs(kwargs.get("jobs"), kwargs.get("backend"))
        with quiet_ray(kwargs.get("quiet", False)):
            return command(*args, **kwargs)

    fn = checked
    fn = click.option(
        "--address", default=None, metavar="HOST:PORT",
        help="Ray cluster to join (with --backend ray; default: $GLMNLP_ADDRESS, else Ray's $RAY_ADDRESS, else start a "
             "local Ray instance).",
    )(fn)
    fn = click.option(
        "--backend", type=click.Choice(["local", "ray"]), default=None,
        help="Run parallel work on local processes or on Ray (pip install 'glmnlp[ray]'). "
        "Default: $GLMNLP_BACKEND, else local.",
    )(fn)
    fn = click.option(
        "--jobs", "-j", type=click.IntRange(min=0, max=MAX_JOBS), default=None,
        help=jobs_help or f"Workers (0 = all cores; 1 = in this process). {jobs_note} Default: $GLMNLP_JOBS, else "
        "all cores.",
    )(fn)
    return fn


def _iterative_mixing_options(fn: Callable[..., Any], shards_default: int | None, shards_help: str,
                              jobs_note: str = "The result does not depend on it.") -> Callable[..., Any]:
    """:func:`parallel_options` plus ``--shards`` and ``--mixing`` (iterative parameter mixing). ``--mixing`` with one
    shard (``--shards 1``, or the default 1) is a usage error: there is nothing to mix, and the model was the same
    bits with or without it (docs/cli.md: an option with no effect with the others given is refused)."""
    command = fn

    @functools.wraps(command)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("shards") == 1 and given_options("mixing"):
            raise click.UsageError("--mixing mixes the weights of several shards; not with one (--shards 1)")
        return command(*args, **kwargs)

    fn = checked
    fn = click.option(
        "--mixing", type=click.Choice(["uniform", "updates"]), default="uniform", show_default=True,
        help="How shard weights are mixed after each epoch (with more than one shard).",
    )(fn)
    fn = click.option(
        "--shards", type=click.IntRange(min=1), default=shards_default, show_default=shards_default is not None,
        help="Train by iterative parameter mixing over this many shards (1 = the serial perceptron). " + shards_help,
    )(fn)
    return parallel_options(fn, jobs_note)


def training_parallel_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--shards`` (default 1: the serial perceptron) and ``--mixing``, plus :func:`parallel_options`."""
    return _iterative_mixing_options(fn, 1, "The model depends on it, not on --jobs.")


def parser_parallel_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`training_parallel_options` for the parser: ``--shards`` defaults to one shard per worker.

    The parser's passes are its training time (the tagger's take seconds), and two shards match the
    serial perceptron's dev F1 on the proxy treebank (benchmarks/results/scaling.md: +0.09 after 2
    passes, +0.21 after 8) at half the wall time, so by default the passes use every worker. The
    model then depends on the number of shards, which the model file records.
    """
    return _iterative_mixing_options(
        fn, None, "Default: one per worker (--jobs), so the passes use every core. The model depends on the "
        "number of shards (recorded in the model), not on where they run.",
        "With --shards given the result does not depend on it; without, it sets the number of shards.",
    )


def weight_list(text: str, option: str, *, zero_means_none: bool = False) -> tuple[float, ...]:
    """``"5,10,20"`` -> (5.0, 10.0, 20.0), every value in (0, 1e300], the weights a model file may hold
    (:data:`glmnlp.parser.term.MAX_WEIGHT`: ``1e301`` passed here and failed after the training, as it was saved).

    With ``zero_means_none`` a single ``0`` gives ``()`` (e.g. "no generative model").
    """
    from glmnlp.parser.term import MAX_WEIGHT

    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated numbers, got {text!r}", param_hint=option) from None
    if zero_means_none and values == (0.0,):
        return ()
    if any(not 0 < v <= MAX_WEIGHT for v in values):  # NaN too
        extra = " (or a single 0)" if zero_means_none else ""
        raise click.BadParameter(f"weights must be numbers in (0, {MAX_WEIGHT:g}]{extra}, got {text!r}",
                                 param_hint=option)
    if len(set(values)) < len(values):  # each candidate is a training run: "10,10" trained the same one twice
        twice = next(f"{v:g}" for v in values if values.count(v) > 1)
        raise click.BadParameter(f"the weight {twice} is given twice, got {text!r}", param_hint=option)
    return values


def check_tagset(known: set[str], tag_lists: list[Any], path: str, column: str | None, role: str,
                 owner: str, given: bool = True) -> None:
    """A test (or dev) file whose tags are mostly not ``known`` (another tagset, another CoNLL-U column: a UPOS tagger
    scored on XPOS; ``tag_lists``: each sentence's tags, or None) is an error naming them, as ``glmnlp parse
    --tagger`` refuses another tagset: it scored 0.00% with status 0, where docs/cli.md says a file without anything
    to score is an error, not 0% accuracy."""
    from glmnlp.errors import InputError

    tokens = [t for tags in tag_lists for t in tags or ()]
    unknown = [t for t in tokens if t not in known]
    if tokens and 2 * len(unknown) > len(tokens):
        if column is None:  # not a CoNLL-U file: one tag per word
            hint = f" ({owner}'s tags are another tagset)"
        elif given:
            hint = f" ({owner}'s tags are another tagset, or another column than --tag-column {column})"
        else:
            hint = (f" ({owner}'s tags are another tagset, or another column than {column.upper()}, the one read: "
                    "--tag-column chooses)")
        raise InputError(f"{len(unknown):,} of the {len(tokens):,} {role} tokens have tags {owner} does not have: "
                         f"{some_of(sorted(set(unknown)), 8)}{hint}", source=path)
