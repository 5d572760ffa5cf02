"""``sourced calibrate``: a judge's (or the rules') agreement with human labels."""

from __future__ import annotations

from typing import Optional

import typer

from ..judges.backends import names_text
from ._util import app
from .judge import JUDGE_BASE_URL, JUDGE_CONCURRENCY, JUDGE_FILE, JUDGE_MODEL, JudgeScope, judge_config


@app.command("calibrate")
def calibrate_command(
    gold: str = typer.Argument(..., metavar="GOLD.jsonl", help='Gold claims: {"claim", "sources", "label"} per line.'),
    judge: str = typer.Option(
        "rules",
        "--judge",
        metavar="NAME",
        help=f"{names_text()} (the judge alone), or rules (the pipeline without a judge).",
    ),
    judge_model: Optional[str] = JUDGE_MODEL,
    judge_concurrency: int = JUDGE_CONCURRENCY,
    judge_file: Optional[str] = JUDGE_FILE,
    judge_base_url: Optional[str] = JUDGE_BASE_URL,
    record: Optional[str] = typer.Option(
        None, "--record", metavar="FILE", help="Append the judge's answers here (a file for --judge replay)."
    ),
    tiered: bool = typer.Option(False, "--tiered", help="The rules first, the judge on what they leave unverified."),
    judge_scope: JudgeScope = typer.Option(
        JudgeScope.unverified,
        "--judge-scope",
        help="With --tiered: all also asks the judge about the claims the rules "
        "ground (it may take them down, never up).",
    ),
    meaning: bool = typer.Option(
        True,
        "--meaning/--no-meaning",
        help="With --judge rules or --tiered: the meaning tier after the rules (the default); "
        "--no-meaning: the rules alone.",
    ),
    out: str = typer.Option("calibration.json", "--output", "-o", metavar="OUT", help="Write the results here (JSON)."),
) -> int:
    """Agreement of a judge (or the rules and the meaning tier) with the human labels of GOLD: the
    confusion matrix and the precision of each verdict, printed and written to OUT with the model
    and prompt version. Exit 2 before anything is read when OUT or the --record file is the gold
    file, the --judge-file or each other."""
    from ..evaluation.calibrate import calibrate, gold_digest, read_gold, table
    from .outputs import _check_written

    if judge != "rules":
        cfg = judge_config(judge, judge_model, judge_concurrency, judge_file, record, judge_base_url, judge_scope.value)
    elif judge_base_url is not None:
        raise ValueError("--judge-base-url needs --judge openai")
    if judge_scope != JudgeScope.unverified and not tiered:
        raise ValueError("--judge-scope all needs --tiered (a judge alone is asked about every gold claim)")
    _check_written(out, [("gold file", gold)], judge_file, record, "--record")
    rows = read_gold(gold)
    from .. import api
    from .meaning import meaning_config

    if judge == "rules":
        result = calibrate(rows, nlp=api.load_pipeline(config=meaning_config(meaning)))
    elif tiered:
        result = calibrate(rows, nlp=api.load_pipeline(config={"judge": cfg, **meaning_config(meaning)}))
    else:
        import spacy

        from ..judges.backends import register

        register()  # sourced.judge.*.v1 in spacy.registry.misc

        result = calibrate(rows, judge=spacy.registry.resolve({"j": cfg})["j"])
    result.update(gold=gold, gold_sha1=gold_digest(gold))
    import srsly

    from .whole import whole_file

    if out == "-":
        srsly.write_json(out, result)  # standard output
    else:
        with whole_file(out) as fh:  # the old file, or none, when it cannot be written whole
            fh.write(srsly.json_dumps(result, indent=2))  # as srsly.write_json writes it
    typer.echo(table(result))
    typer.echo(f"written: {out}")
    return 0
