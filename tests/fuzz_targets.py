"""Fuzz targets shared by ``tests/test_fuzz.py`` (bounded, in CI) and ``benchmarks/fuzz.py`` (longer runs).

Each target takes one input and returns an :class:`Outcome`:

``ok``
    the input was handled and every output read back (glmnlp's tree reader, ``glmnlp evalb``,
    the json/CoNLL-U readers);
``rejected``
    a clean refusal: a :class:`~glmnlp.errors.GlmnlpError` (exit status 1 and one ``error:`` line
    on the command line);
``crash``
    any other exception, an exit status other than 0/1, or a refusal that is not one line;
``unreadable``
    exit status 0 but an output glmnlp cannot read back.

Targets: :func:`parse_cli` (``glmnlp parse`` in every input mode and output format, run in-process
with the model loaded once), :func:`tree_text` (the bracket reader, the writer's round trip and
EVALB on what was read) and :func:`model_dir` (``glmnlp.load`` of a damaged model directory,
then one parse if it loads).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import sys
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glmnlp.errors import GlmnlpError

MODES: dict[str, list[str]] = {"text": [], "lines": ["--lines"], "tokens": ["--tokenized"], "tagged": ["--tagged"]}
FORMATS = ("brackets", "pretty", "json", "conllu")

#: hand-picked seeds the mutators start from (one per input mode, plus odd cases)
SEEDS: list[bytes] = [
    b"The old man saw the dog with a telescope. It barked.\n",
    b"He said ( hello ) to f(x) .\n",
    b"hi/UH a)b/( ./.\n",
    b"Time/VB flies/NNS like/IN an/DT arrow/NN ./.\n",
    b"\"Yes,\" she said -- (quietly) [really] {no} ... isn't it?\n\nNew paragraph here.\n",
    b"1/2/CD cup/NN \xc3\xa9t\xc3\xa9/FW ./.\n",
    b"a\tb\r\nc  d\n\n\n",
]


def _last_frames() -> str:
    """The innermost frame and the exception line of the exception being handled."""
    lines = traceback.format_exc().strip().splitlines()
    return "\n".join(lines[-3:])


@dataclass(frozen=True)
class Outcome:
    status: str  # ok | rejected | crash | unreadable
    detail: str = ""


# -- glmnlp parse ----------------------------------------------------------------------------------


@contextlib.contextmanager
def cached_pipelines() -> Iterator[None]:
    """Load each (model, tagger, lines, multitag) pipeline once for all the in-process ``glmnlp parse`` runs."""
    from glmnlp.cli import parse_cmd

    original = parse_cmd._load_pipeline
    cache: dict[tuple[Any, ...], Any] = {}

    def load(*args: Any) -> Any:
        if args not in cache:
            cache[args] = original(*args)
        return cache[args]

    parse_cmd._load_pipeline = load  # type: ignore[assignment]
    try:
        yield
    finally:
        parse_cmd._load_pipeline = original  # type: ignore[assignment]


def _run_main(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    from glmnlp.cli import main

    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    try:
        rc = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return rc, out.getvalue(), err.getvalue()


def _readable(fmt: str, nbest: int, out: str) -> str | None:
    """None if ``out`` reads back; else the reason."""
    from glmnlp.text.document import Document
    from glmnlp.treebank.formats import read_conllu
    from glmnlp.treebank.trees import escape_brackets, parse_tree, read_trees, to_bracket

    try:
        trees = []
        if fmt == "brackets" and nbest == 1:
            trees = [parse_tree(line) for line in out.splitlines()]
        elif fmt == "brackets":
            for line in out.splitlines():
                if line:
                    score, tab, tree = line.partition("\t")
                    if not tab:
                        return f"n-best line without a score: {line!r}"
                    float(score)
                    trees.append(parse_tree(tree))
        elif fmt == "pretty":
            trees = list(read_trees(out))
        elif fmt == "json":
            for line in out.splitlines():
                data = json.loads(line)
                doc = Document.from_dict(data)
                for sent, raw in zip(doc.sentences, data["sentences"], strict=True):
                    if sent.tree is not None:
                        trees.append(sent.tree)
                        # a token's tag is written as its tagset writes it (a given "(" tag as "(", STTS "$("),
                        # the tree's as trees spell it ("-LRB-", "$-LRB-"): the same tag
                        if sent.tree.tags() != [escape_brackets(t.tag) for t in sent.tokens]:
                            return "json tokens' tags differ from the tree's"
                    for item in raw.get("nbest", []):
                        trees.append(parse_tree(item["tree"]))
        elif fmt == "conllu":
            if out.strip():
                read_conllu(io.StringIO(out))
        if trees:
            text = "".join(to_bracket(t) + "\n" for t in trees)
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "t"
                path.write_text(text, encoding="utf-8")
                rc, report, err = _run_main(["evalb", str(path), str(path)], b"")
                if rc != 0:
                    return f"glmnlp evalb refused the output: {err.strip()}"
                if f"Number of sentence        = {len(trees):6d}" not in report:
                    return "glmnlp evalb did not count every tree"
    except (GlmnlpError, ValueError, KeyError, TypeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def parse_cli(data: bytes, mode: str, fmt: str, nbest: int = 1, model: str | None = None) -> Outcome:
    """``glmnlp parse [mode] -f FMT [--nbest K] < data``: clean refusal or output that reads back."""
    argv = ["parse", "-q", "-f", fmt, *MODES[mode]]
    if nbest > 1:
        argv += ["--nbest", str(nbest)]
    if model is not None:
        argv += ["-m", model]
    try:
        rc, out, err = _run_main(argv, data)
    except Exception:  # noqa: BLE001 (anything escaping main() is a crash)
        return Outcome("crash", _last_frames())
    if rc == 1:
        lines = err.splitlines()
        if len(lines) == 1 and lines[0].startswith("error: "):
            return Outcome("rejected", lines[0])
        return Outcome("crash", f"status 1 with stderr {err!r}")
    if rc != 0:
        return Outcome("crash", f"exit status {rc}; stderr {err!r}")
    reason = _readable(fmt, nbest, out)
    return Outcome("ok") if reason is None else Outcome("unreadable", f"{reason}; output {out[:300]!r}")


def mutate(seed: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    """Apply (kind, position, byte) edits: 0 replace, 1 insert, 2 delete, 3 duplicate a slice."""
    data = bytearray(seed)
    for kind, pos, value in edits:
        if not data:
            data.append(value)
            continue
        pos %= len(data)
        if kind == 0:
            data[pos] = value
        elif kind == 1:
            data.insert(pos, value)
        elif kind == 2:
            del data[pos]
        else:
            data[pos:pos] = data[pos : pos + 1 + value % 16]
    return bytes(data)


# -- trees ------------------------------------------------------------------------------------------


def tree_text(text: str) -> Outcome:
    """Bracket text through the reader; what it reads is written, read again and scored by EVALB."""
    from glmnlp.errors import TreeSyntaxError
    from glmnlp.treebank.evalb import score_trees
    from glmnlp.treebank.trees import parse_tree, read_trees, to_bracket

    try:
        trees = list(read_trees(text))
    except TreeSyntaxError as exc:
        return Outcome("rejected", str(exc))
    except Exception:  # noqa: BLE001
        return Outcome("crash", _last_frames())
    try:
        for tree in trees:
            again = parse_tree(to_bracket(tree))
            if again != tree:
                return Outcome("unreadable", f"round trip changed {to_bracket(tree)!r}")
        if trees:
            try:
                score_trees(trees, trees)
            except GlmnlpError:
                pass  # e.g. an unlabelled tree EVALB cannot score: a clean refusal
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "t"
                path.write_text("".join(to_bracket(t) + "\n" for t in trees), encoding="utf-8")
                rc, _out, err = _run_main(["evalb", str(path), str(path)], b"")
                if rc not in (0, 1) or (rc == 1 and not err.startswith("error: ")):
                    return Outcome("crash", f"glmnlp evalb: status {rc}, stderr {err!r}")
    except Exception:  # noqa: BLE001
        return Outcome("crash", _last_frames())
    return Outcome("ok")


# -- model directories ------------------------------------------------------------------------------


def tiny_pipeline_dir(out: Path, *, generative: bool = False) -> Path:
    """A small pipeline model (tagger/ + parser/ + MODEL.json) trained on a few sample trees; with
    ``generative`` the parser is a combined model carrying a generative sub-model (as the default model)."""
    from glmnlp.text.default_model import DefaultRecipe, train_default

    if not (out / "MODEL.json").is_file():
        train_default(out, DefaultRecipe(max_train=40, max_dev=5, max_test=3, parser_epochs=1, tagger_epochs=1,
                                         generative_weights=(10.0,) if generative else (), generative_folds=2))
    return out


def _json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for k, item in enumerate(value[:8]):
            paths += _json_paths(item, (*prefix, k))
    return paths


JSON_VALUES: list[Any] = [None, True, False, 0, -1, 1, 40, 2**40, -(2**63), 1e308, float("nan"), 0.5, "", "x",
                          "NN", [], [0], [[0]], {}, {"a": 1}, [99999]]


def damage_model(model: Path, choice: int, which: int, value: int) -> str:
    """Damage one file of the model directory ``model`` in place; returns what was done."""
    files = sorted(p for p in model.rglob("*") if p.is_file())
    target = files[which % len(files)]
    if target.suffix == ".json":
        try:
            doc = json.loads(target.read_text(encoding="utf-8"))
        except ValueError:
            doc = None
        if doc is not None and choice % 4 != 3:
            paths = _json_paths(doc)
            path = paths[value % len(paths)]
            new = JSON_VALUES[(value // max(1, len(paths))) % len(JSON_VALUES)]
            if not path:
                doc = new
            else:
                node = doc
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = new
            target.write_text(json.dumps(doc), encoding="utf-8")
            _fix_checksums(model)
            return f"{target.relative_to(model)}: {list(path)} = {new!r}"
        data = target.read_bytes()
        target.write_bytes(data[: value % max(1, len(data))])
        return f"{target.relative_to(model)}: truncated to {value % max(1, len(data))} bytes"
    data = bytearray(target.read_bytes())
    if choice % 3 == 0:
        target.unlink()
        return f"{target.relative_to(model)}: deleted"
    pos = value % max(1, len(data))
    if data:
        data[pos] ^= 1 + choice % 255
    target.write_bytes(bytes(data))
    if choice % 2:  # make the checksum agree so the damage reaches the array checks
        meta = target.parent / "metadata.json"
        try:
            header = json.loads(meta.read_text(encoding="utf-8"))
            header["weights_sha256"] = hashlib.sha256(bytes(data)).hexdigest()
            meta.write_text(json.dumps(header), encoding="utf-8")
        except (OSError, ValueError, TypeError):
            pass
    return f"{target.relative_to(model)}: byte {pos} flipped" + (" (checksum updated)" if choice % 2 else "")


def _fix_checksums(model: Path) -> None:
    """Keep the weights checksums consistent so metadata damage is not caught by the checksum alone."""
    for meta in model.rglob("metadata.json"):
        try:
            header = json.loads(meta.read_text(encoding="utf-8"))
            weights = meta.parent / "weights.npz"
            if isinstance(header, dict) and weights.is_file():
                header["weights_sha256"] = hashlib.sha256(weights.read_bytes()).hexdigest()
                meta.write_text(json.dumps(header), encoding="utf-8")
        except (OSError, ValueError, TypeError):
            pass


def model_dir(source: Path, choice: int, which: int, value: int, work: Path) -> Outcome:
    """Copy ``source``, damage one file, ``glmnlp.load`` it and parse one sentence if it loads."""
    import glmnlp

    model = work / "damaged"
    shutil.rmtree(model, ignore_errors=True)
    shutil.copytree(source, model)
    what = damage_model(model, choice, which, value)
    try:
        nlp = glmnlp.load(model)
    except GlmnlpError as exc:
        if "\n" in str(exc):
            return Outcome("crash", f"{what}: multi-line error {exc}")
        return Outcome("rejected", f"{what}: {exc}")
    except Exception:  # noqa: BLE001
        return Outcome("crash", f"{what}: {_last_frames()}")
    try:
        nlp("The dog barked.")
    except Exception:  # noqa: BLE001
        return Outcome("crash", f"{what}: loaded, then parsing failed: {_last_frames()}")
    return Outcome("ok", what)


def tally(outcomes: list[Outcome]) -> dict[str, int]:
    counts = {"ok": 0, "rejected": 0, "crash": 0, "unreadable": 0}
    for o in outcomes:
        counts[o.status] += 1
    return counts


__all__ = ["FORMATS", "MODES", "Outcome", "SEEDS", "cached_pipelines", "damage_model", "model_dir", "mutate",
           "parse_cli", "tally", "tiny_pipeline_dir", "tree_text"]
