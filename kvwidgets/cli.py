"""`kvwidgets` on the command line: the same numbers as the widgets, for a terminal.

Every figure comes from kvwidgets' calculation functions; this module only reads
arguments, calls them and words (or JSON-encodes) what they return. It adds no
arithmetic of its own, so a number printed here is the number a widget shows for the
same inputs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, is_dataclass

from .api import as_model, fewest_gpus, sglang_kv_report, users_that_fit, vllm_kv_report, vllm_start_check
from .core import GPUS, KVWidgetsError, fmt_bytes
from .core.dtypes import DTYPE_BITS, dtype_name
from .core.gpus import get_gpu

PROG = "kvwidgets"

MODEL_HELP = (
    "a preset name (see 'kvwidgets models'), a path to a config.json or a folder holding one, "
    "or a Hugging Face repo id (read from the local cache when offline)"
)

DESCRIPTION = """\
Size an LLM's KV cache from a terminal.

The KV cache holds one key and one value vector per layer for every token a
conversation has seen. Its size per token comes from the model's config; how many
conversations fit is what the GPU's memory has left once the weights are loaded,
divided by one conversation's cache.

commands:
  bytes    how many bytes one token (and one conversation) of cache takes
  fit      how many conversations of a given length fit on some GPUs
  start    whether vLLM starts at a --max-model-len, and what to change if not
  gpus     the fewest GPUs that hold N conversations of C tokens, and why fewer do not
  models   the model presets and GPUs kvwidgets knows by name

Run 'kvwidgets COMMAND --help' for each command's arguments and what its numbers mean.
"""

BYTES_DESCRIPTION = """\
Bytes of KV cache per token, and for one conversation of --context tokens.

A full-attention layer stores 2 (K and V) x KV heads x head dim numbers per token; a
sliding-window layer stops growing at its window; an MLA layer stores one latent; a
recurrent layer a fixed state. The per-token figure is the long-context rate: what each
further token adds once every window is full.
"""

FIT_DESCRIPTION = """\
How many conversations of --context tokens fit at once.

The series' arithmetic: usable memory (memory x --utilization, over --gpus GPUs) minus
the weights (parameters x bytes per parameter), divided by one conversation's cache,
rounded down. With --engine vllm, also what vLLM would log at start-up for
--max-model-len = --context: its token pool and its 'maximum concurrency'. With
--engine sglang, what SGLang would log: its pool of token slots, sized from the free
memory after the weights and its mem_fraction_static, so the two engines give
different token counts for the same model and GPU.
"""

START_DESCRIPTION = """\
Whether vLLM starts with this --max-model-len.

vLLM refuses to start when one request of --max-model-len tokens does not fit in the
cache memory left after the weights. This prints what it would log, or the error and
the changes that would let it start. Exit status: 0 when it starts, 1 when it would
refuse, 2 for arguments kvwidgets cannot use.
"""

GPUS_DESCRIPTION = """\
The fewest GPUs that hold --conversations conversations of --context tokens at once.

Deployments are tried from one GPU up: tensor parallel groups (each layer split over
the group) copied as data-parallel replicas (each its own requests and cache), with
data-parallel attention and expert parallelism for mixture-of-experts models. Each
smaller deployment is listed with the reason it falls short: the weights do not load,
or the cache holds fewer conversations, or one GPU is full before the others.
"""

EPILOG_FIT = """\
examples:
  kvwidgets fit llama-3.1-8b --gpu H100 --context 8192
  kvwidgets fit llama-3.1-70b --gpu H200 --gpus 2 --context 32768 --kv-dtype fp8
  kvwidgets fit llama-3.1-8b --gpu H100 --context 8192 --engine vllm --json
"""


class CliError(Exception):
    """A user-facing error naming the argument at fault."""


def _positive_int(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} takes a whole number of tokens, such as 8192 for 8K, got {text!r}"
            ) from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name} must be at least 1, got {value}")
        return value

    return parse


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a fraction such as 0.9, got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1] (0.9 keeps 10% free), got {value}")
    return value


def _checked(flag: str, check: Callable[[str], object]) -> Callable[[str], str]:
    """An argparse type that runs kvwidgets' own check, so its message names the flag."""

    def parse(text: str) -> str:
        try:
            check(text)
        except KVWidgetsError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        return text

    return parse


def _add_model(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", metavar="MODEL", help=MODEL_HELP)


def _add_kv_dtype(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--kv-dtype",
        default="bf16",
        type=_checked("--kv-dtype", lambda t: dtype_name(t, "--kv-dtype")),
        metavar="DTYPE",
        help=f"the cache's number format, one of {', '.join(DTYPE_BITS)} (default bf16; fp8 halves it)",
    )


def _add_gpu(p: argparse.ArgumentParser, *, count: bool = True) -> None:
    p.add_argument(
        "--gpu",
        required=True,
        type=_checked("--gpu", get_gpu),
        metavar="GPU",
        help=f"the GPU, by name or alias (one of {', '.join(GPUS)}; 'H100' means H100-SXM)",
    )
    if count:
        p.add_argument(
            "--gpus",
            type=_positive_int("--gpus"),
            default=1,
            metavar="N",
            help="how many GPUs share the model by tensor parallelism (default 1)",
        )
    p.add_argument(
        "--weight-dtype",
        default="bf16",
        type=_checked("--weight-dtype", lambda t: dtype_name(t, "--weight-dtype")),
        metavar="DTYPE",
        help="the weights' number format (default bf16: 2 bytes per parameter; fp8 1, int4 half)",
    )
    p.add_argument(
        "--utilization",
        type=_fraction,
        default=0.9,
        metavar="U",
        help="the share of GPU memory the server may use (default 0.9, vLLM's --gpu-memory-utilization)",
    )


def _add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of sentences")


def build_parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_bytes_command(sub)
    _add_fit_command(sub)
    _add_start_command(sub)
    _add_gpus_command(sub)
    _add_models_command(sub)
    return top


def _add_bytes_command(sub) -> None:
    """`kvwidgets bytes`: bytes of cache per token (and per conversation)."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "bytes", help="bytes of cache per token", description=BYTES_DESCRIPTION, formatter_class=raw
    )
    _add_model(p)
    _add_kv_dtype(p)
    p.add_argument(
        "--context",
        type=_positive_int("--context"),
        default=None,
        metavar="TOKENS",
        help="also size one conversation of this many tokens",
    )
    _add_json(p)
    p.set_defaults(run=run_bytes)


def _add_fit_command(sub) -> None:
    """`kvwidgets fit`: conversations that fit on the GPUs."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "fit",
        help="conversations that fit",
        description=FIT_DESCRIPTION,
        epilog=EPILOG_FIT,
        formatter_class=raw,
    )
    _add_model(p)
    _add_gpu(p)
    p.add_argument(
        "--context",
        type=_positive_int("--context"),
        required=True,
        metavar="TOKENS",
        help="tokens in each conversation (prompt and reply)",
    )
    _add_kv_dtype(p)
    p.add_argument(
        "--mem-fraction-static",
        type=_fraction,
        default=None,
        metavar="F",
        help="SGLang's --mem-fraction-static (default: SGLang's own choice from the GPU's memory and --gpus)",
    )
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="also what this serving engine would log at start-up",
    )
    _add_json(p)
    p.set_defaults(run=run_fit)


def _add_start_command(sub) -> None:
    """`kvwidgets start`: whether vLLM starts with this max-model-len."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("start", help="does vLLM start?", description=START_DESCRIPTION, formatter_class=raw)
    _add_model(p)
    _add_gpu(p)
    p.add_argument(
        "--max-model-len",
        type=_positive_int("--max-model-len"),
        default=None,
        metavar="TOKENS",
        help="vLLM's --max-model-len (default: the model's own maximum context, as vLLM's is)",
    )
    _add_kv_dtype(p)
    _add_json(p)
    p.set_defaults(run=run_start)


def _add_gpus_command(sub) -> None:
    """`kvwidgets gpus`: fewest GPUs that hold a number of conversations."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "gpus", help="fewest GPUs for a target", description=GPUS_DESCRIPTION, formatter_class=raw
    )
    _add_model(p)
    _add_gpu(p, count=False)
    p.add_argument(
        "--conversations",
        type=_positive_int("--conversations"),
        required=True,
        metavar="N",
        help="conversations that must be held at once",
    )
    p.add_argument(
        "--context",
        type=_positive_int("--context"),
        required=True,
        metavar="TOKENS",
        help="tokens in each conversation",
    )
    _add_kv_dtype(p)
    _add_json(p)
    p.set_defaults(run=run_gpus)


def _add_models_command(sub) -> None:
    """`kvwidgets models`: the presets and GPUs known by name."""
    p = sub.add_parser("models", help="presets and GPUs known by name")
    _add_json(p)
    p.set_defaults(run=run_models)


ENGINES = ("vllm", "sglang")  # the --engine choices; ENGINE_SECTIONS says what each prints


def _plain(value):
    """A dataclass (or anything nested in one) as JSON-ready values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in asdict(value).items()}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _model(args: argparse.Namespace):
    """The MODEL argument loaded, or an error that says it was MODEL that could not be read."""
    try:
        return as_model(args.model)
    except KVWidgetsError as err:
        raise CliError(f"MODEL {args.model!r}: {err}") from None


def run_bytes(args: argparse.Namespace) -> tuple[dict, list[str]]:
    model = _model(args)
    per_token = model.kv_bytes_per_token(args.kv_dtype)
    data: dict = {
        "model": model.name,
        "kv_dtype": args.kv_dtype,
        "kv_bytes_per_token": per_token,
        "layers": model.describe(),
        "max_context": model.max_context,
    }
    lines = [
        model.describe(),
        f"Each further token adds {per_token:,} B ({fmt_bytes(per_token)}) of {args.kv_dtype} cache.",
    ]
    if args.context is not None:
        one = model.kv_bytes(args.context, args.kv_dtype)
        data["context"] = args.context
        data["kv_bytes_one_conversation"] = one
        lines.append(f"One conversation of {args.context:,} tokens holds {one:,} B ({one / 1e9:,.2f} GB).")
        warning = model.context_warning(args.context)
        if warning:
            data["warnings"] = [warning]
            lines.append(f"Warning: {warning}")
    return data, lines


def run_fit(args: argparse.Namespace) -> tuple[dict, list[str]]:
    model = _model(args)
    fit = users_that_fit(
        model,
        args.gpu,
        args.context,
        num_gpus=args.gpus,
        weight_dtype=args.weight_dtype,
        kv_dtype=args.kv_dtype,
        utilization=args.utilization,
    )
    data = {"model": model.name, "fit": _plain(fit), "message": fit.message}
    gpus = f"{args.gpus} x {fit.gpu}" if args.gpus > 1 else fit.gpu
    lines = [
        f"{model.name} on {gpus}, {args.weight_dtype} weights, {args.kv_dtype} cache:",
        fit.message,
        f"  usable memory {fit.usable_bytes / 1e9:,.1f} GB - weights {fit.weights_bytes / 1e9:,.1f} GB "
        f"= {fit.kv_budget_bytes / 1e9:,.1f} GB for the cache; "
        f"one conversation takes {fit.kv_per_user_bytes / 1e9:,.2f} GB.",
    ]
    lines += [f"Warning: {w}" for w in fit.warnings]
    if args.engine is not None:
        key, section, more = ENGINE_SECTIONS[args.engine](args, model)
        data[key] = section
        lines += ["", *more]
    return data, lines


def _vllm_section(args: argparse.Namespace, model) -> tuple[str, dict, list[str]]:
    """What vLLM would log for --max-model-len = --context."""
    report = vllm_kv_report(
        model,
        args.gpu,
        max_model_len=args.context,
        kv_dtype=args.kv_dtype,
        num_gpus=args.gpus,
        weight_dtype=args.weight_dtype,
        utilization=args.utilization,
    )
    lines = [f"vLLM {report.vllm_version} would log (predicted, per GPU):", report.log_lines(memory=True)]
    if not report.starts:
        lines.append("and would refuse to start: see 'kvwidgets start'.")
    return "vllm", report.as_dict(), lines


def _sglang_section(args: argparse.Namespace, model) -> tuple[str, dict, list[str]]:
    """What SGLang would log: its pool of token slots for these GPUs."""
    report = sglang_kv_report(
        model,
        args.gpu,
        num_gpus=args.gpus,
        kv_dtype=args.kv_dtype,
        weight_dtype=args.weight_dtype,
        context_length=args.context,
        mem_fraction_static=args.mem_fraction_static,
    )
    return (
        "sglang",
        report.as_dict(),
        [f"SGLang {report.sglang_version} would log (predicted, per GPU):", report.log_lines()],
    )


ENGINE_SECTIONS = {"vllm": _vllm_section, "sglang": _sglang_section}


def run_start(args: argparse.Namespace) -> tuple[dict, list[str]]:
    model = _model(args)
    check = vllm_start_check(
        model,
        args.gpu,
        max_model_len=args.max_model_len,
        kv_dtype=args.kv_dtype,
        num_gpus=args.gpus,
        weight_dtype=args.weight_dtype,
        utilization=args.utilization,
    )
    report = check.report
    data = {"model": model.name, **check.as_dict()}
    if check.starts:
        lines = [
            f"vLLM {report.vllm_version} starts: one request of {check.max_model_len:,} tokens fits.",
            "It would log (predicted, per GPU):",
            report.log_lines(memory=True),
        ]
        return data, lines
    lines = [
        f"vLLM {report.vllm_version} would refuse to start. Its error (predicted):",
        f"  {check.error}",
        "",
        "What would let it start (each change on its own):",
    ]
    for fix in check.fixes:
        value = f"{fix.flag} {fix.value}" if fix.value is not None else f"{fix.flag}: no value does"
        lines.append(f"  {value}: {fix.why}")
    return data, lines


def run_gpus(args: argparse.Namespace) -> tuple[dict, list[str]]:
    model = _model(args)
    found = fewest_gpus(
        model,
        args.gpu,
        args.conversations,
        args.context,
        kv_dtype=args.kv_dtype,
        weight_dtype=args.weight_dtype,
        utilization=args.utilization,
    )
    data = {"model": model.name, **found.as_dict()}
    lines = [found.message, "", "Smaller deployments, the best of each size, and why each falls short:"]
    enough = found.answer.deployment.num_gpus if found.answer is not None else None
    best = {}
    for attempt in found.tried:
        n = attempt.deployment.num_gpus
        if enough is not None and n >= enough:
            continue
        if n not in best or attempt.conversations > best[n].conversations:
            best[n] = attempt
    lines += [f"  {best[n].deployment.describe()}: {best[n].reason}" for n in sorted(best)]
    return data, lines


def run_models(args: argparse.Namespace) -> tuple[dict, list[str]]:
    from .configs import list_presets

    presets = list_presets()
    data = {"presets": presets, "gpus": {name: _plain(g) for name, g in GPUS.items()}}
    lines = ["Model presets: " + ", ".join(presets), "GPUs: " + ", ".join(GPUS)]
    return data, lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        data, lines = args.run(args)
    except (CliError, KVWidgetsError) as err:
        parser.exit(2, f"{PROG} {args.command}: error: {err}\n")
    try:
        print(json.dumps(data, indent=2, default=str) if args.json else "\n".join(lines))
    except BrokenPipeError:  # piped into head: the reader has what it wanted
        sys.stderr.close()
    # 'start' answers a yes/no question: a refusal exits 1, so a script can test it.
    return 0 if data.get("starts", True) else 1


if __name__ == "__main__":  # pragma: no cover - python -m kvwidgets.cli
    sys.exit(main())
