"""A single-value option given twice is a usage error, in every command (:func:`refuse_repeated_options`).

click keeps the last value of an option given twice: ``parser train --train a.trees --train b.trees`` trained on
b.trees alone, ``parse -i a.txt -i b.txt`` parsed b.txt, with status 0 and no word of the first. Our choices:

* **Checked once, for the whole command tree**, where each command parses its arguments (:func:`checked_parse`
  wraps its ``parse_args``): click's own parser lists every occurrence of a parameter in the order given, so one
  rule covers every option of every command, the ones added later included, and no option carries a check of its
  own. It runs before any value is converted, so the message is the same whatever the values (a missing file
  given second was ``cannot read file``).
* **Only single-value options**: options that take a value and are not ``multiple=True``. A repeatable option
  (``grammar table1 --train``, ``train-default --extra-test``) collects its values as documented, and a flag given
  twice (``-q -q``) means what it means once, so both are left alone. ``evalb -p``, repeatable in click's sense to
  say why it is given once (evalb.c adds several parameter files up), keeps its own message.
* The message names the option as ``--help`` does (``-i/--input is given twice``), status 2 with the command's
  usage line, as click's other usage errors.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import click

__all__ = ["refuse_repeated_options", "repeated_option"]


def _single_value(param: click.Parameter) -> bool:
    """Whether ``param`` is an option whose repeat would silently replace its earlier value."""
    return isinstance(param, click.Option) and not (param.multiple or param.is_flag or param.count)


def repeated_option(command: click.Command, ctx: click.Context, args: list[str]) -> str | None:
    """The message for the first single-value option of ``command`` given more than once in ``args``, or None.

    ``args`` are parsed by the command's own click parser (nothing is converted or called back there); arguments
    it cannot parse are left to the real parse, which reports them as it always did."""
    try:
        _opts, _rest, order = command.make_parser(ctx).parse_args(args=list(args))
    except click.UsageError:
        return None
    helper = command.get_help_option(ctx)
    if helper is not None and any(param.name == helper.name for param in order):
        return None  # help asked for, which click gives before any value is looked at (parse --help -i a -i b)
    counts = Counter(param for param in order if _single_value(param))
    for param in order:  # the first one repeated, in the order given
        if counts[param] > 1:
            times = "twice" if counts[param] == 2 else f"{counts[param]} times"
            names = sorted(param.opts, key=lambda name: len(name) - len(name.lstrip("-")))  # -i/--input, as --help
            return f"{'/'.join(names)} is given {times}"
    return None


def checked_parse(command: click.Command) -> Callable[[click.Context, list[str]], list[str]]:
    """``command.parse_args``, refusing a single-value option given twice (:func:`repeated_option`) first."""
    parse = command.parse_args

    def parse_args(ctx: click.Context, args: list[str]) -> list[str]:
        # (not while the shell completes a word: click parses the line so, and reports nothing)
        if not ctx.resilient_parsing and (message := repeated_option(command, ctx, args)) is not None:
            raise click.UsageError(message, ctx)
        return parse(ctx, args)

    return parse_args


def refuse_repeated_options(command: click.Command) -> None:
    """Make ``command``, and every command of it if it is a group, refuse a single-value option given twice."""
    if getattr(command, "_repeats_refused", False):
        return
    setattr(command, "parse_args", checked_parse(command))
    setattr(command, "_repeats_refused", True)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            refuse_repeated_options(sub)
