"""The judge's part of the command line: the ``--judge*`` options of ``check``, ``cite`` and
``batch``, the pipeline they select, and the ``sourced calibrate`` command.

Nothing here touches the network unless ``--judge anthropic`` is given; with it and no
credentials, the command stops (exit 2, one line) before reading any input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

BACKENDS = ("anthropic", "replay", "callable")

JUDGE = typer.Option(None, "--judge", metavar="NAME",
                     help="Ask a judge about the claims the rules leave unverified: anthropic, replay or callable.")
JUDGE_MODEL = typer.Option(None, "--judge-model", metavar="MODEL",
                           help='The judge model (anthropic); for callable, the function "package.module:function".')
JUDGE_CONCURRENCY = typer.Option(4, "--judge-concurrency", metavar="N", help="Judge requests in flight at once.")
JUDGE_FILE = typer.Option(None, "--judge-file", metavar="FILE", help="Recorded answers (JSONL) for --judge replay.")
JUDGE_RECORD = typer.Option(None, "--judge-record", metavar="FILE",
                            help="Append the judge's answers here, in the --judge-file format.")


def judge_config(name: str, model: Optional[str] = None, concurrency: int = 4, file: Optional[str] = None,
                 record: Optional[str] = None) -> dict:
    """The ``sourced_verify`` ``judge`` config entry (``{"@misc": "sourced.judge.NAME.v1", ...}``)
    for the options, checked first (see :func:`check_options`)."""
    check_options(name, model, concurrency, file)
    cfg: dict[str, Any] = {"@misc": f"sourced.judge.{name}.v1"}
    if name == "replay":
        cfg["path"] = file
    elif name == "callable":
        cfg.update(function=model, concurrency=concurrency)
    else:
        cfg.update(concurrency=concurrency, **({"model": model} if model else {}))
    if record:
        cfg["record"] = record
    return cfg


def check_options(name: str, model: Optional[str], concurrency: int, file: Optional[str]) -> None:
    """Refuse judge options that cannot work, before any work.

    Raises:
        ValueError: an unknown backend; replay without a readable ``--judge-file``; callable
            without a function; a concurrency below 1; anthropic without its SDK or credentials.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown judge {name!r}: choose one of {', '.join(BACKENDS)}")
    if concurrency < 1:
        raise ValueError(f"--judge-concurrency must be at least 1, got {concurrency}")
    if name == "replay" and (not file or not Path(file).is_file()):
        raise ValueError("--judge replay needs --judge-file FILE, an existing recorded answers file"
                         + (f" (no such file: {file})" if file else ""))
    if name == "callable" and not model:
        raise ValueError('--judge callable needs --judge-model "package.module:function"')
    if name == "anthropic":
        from ..judges.backends.anthropic import JudgeUnavailable, preflight

        try:
            preflight()
        except JudgeUnavailable as err:
            raise ValueError(str(err)) from None


def pipeline(name: Optional[str], model: Optional[str] = None, concurrency: int = 4, file: Optional[str] = None,
             record: Optional[str] = None, meaning: bool = True) -> Any:
    """The pipeline for ``--judge NAME`` and ``--meaning/--no-meaning`` (None without a judge
    and with the meaning tier: the default pipeline applies).

    Raises:
        ValueError: as :func:`check_options`, or a judge config the backend refuses.
    """
    from .meaning import meaning_config

    if name is None:
        if file or record:
            raise ValueError("--judge-file and --judge-record need --judge NAME")
        if meaning:
            return None
    import sourced_nlp

    judged = {"judge": judge_config(name, model, concurrency, file, record)} if name is not None else {}
    return sourced_nlp.load_pipeline(config={**judged, **meaning_config(meaning)})


def calibrate_command(
    gold: str = typer.Argument(..., metavar="GOLD.jsonl", help='Gold claims: {"claim", "sources", "label"} per line.'),
    judge: str = typer.Option("rules", "--judge", metavar="NAME",
                              help="anthropic, replay or callable (the judge alone), or rules (the pipeline without a judge)."),
    judge_model: Optional[str] = JUDGE_MODEL,
    judge_concurrency: int = JUDGE_CONCURRENCY,
    judge_file: Optional[str] = JUDGE_FILE,
    record: Optional[str] = typer.Option(None, "--record", metavar="FILE",
                                         help="Append the judge's answers here (a file for --judge replay)."),
    tiered: bool = typer.Option(False, "--tiered", help="The rules first, the judge on what they leave unverified."),
    meaning: bool = typer.Option(True, "--meaning/--no-meaning",
                                 help="With --judge rules or --tiered: the meaning tier after the rules (the default); "
                                      "--no-meaning: the rules alone."),
    out: str = typer.Option("calibration.json", "--output", "-o", metavar="OUT", help="Write the results here (JSON)."),
) -> int:
    """Agreement of a judge (or the rules and the meaning tier) with the human labels of GOLD: the
    confusion matrix and the precision of each verdict, printed and written to OUT with the model
    and prompt version. Exit 2 before anything is read when OUT or the --record file is the gold
    file, the --judge-file or each other."""
    from ..evaluation.calibrate import calibrate, gold_digest, read_gold, table

    from .outputs import _check_written

    if judge != "rules":
        cfg = judge_config(judge, judge_model, judge_concurrency, judge_file, record)
    _check_written(out, [("gold file", gold)], judge_file, record, "--record")
    rows = read_gold(gold)
    import sourced_nlp

    from .meaning import meaning_config

    if judge == "rules":
        result = calibrate(rows, nlp=sourced_nlp.load_pipeline(config=meaning_config(meaning)))
    elif tiered:
        result = calibrate(rows, nlp=sourced_nlp.load_pipeline(config={"judge": cfg, **meaning_config(meaning)}))
    else:
        import spacy

        from ..judges import backends
        from ..judges.backends import anthropic as claude  # noqa: F401  (they register sourced.judge.*.v1)

        result = calibrate(rows, judge=spacy.registry.resolve({"j": cfg})["j"])
    result.update(gold=gold, gold_sha1=gold_digest(gold))
    import srsly

    srsly.write_json(out, result)
    typer.echo(table(result))
    typer.echo(f"written: {out}")
    return 0
