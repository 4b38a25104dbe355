"""The 8/3 budget: parameters of a plain FFN at 4h against a gated one at m, and rounding's cost.

A plain FFN at width ``4h`` holds ``2·h·4h = 8h²`` weights; a gated one at width ``m`` holds
``3·h·m``; they match at ``m = 8h/3``. ``parameter_parity`` counts both on real modules and reads
the crossing off the counts. Real models round the width up to a hardware-friendly multiple (and
Llama 3 scales it first), which costs extra parameters, at most ``multiple_of − 1`` units
(``width_budget``); whether the rounded width runs faster is a property of the hardware, which
``linear_layer_times`` measures and ``timing_verdict`` sums up without printing any timing.
``block_weights`` counts one block's attention and FFN, the trade behind Llama's ×1.3 (fewer
key/value heads in attention, a wider FFN). The ``*_table`` functions lay results out as the
lesson prints them.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import torch

from .._checks import check_positive_int
from ..attention import CausalSelfAttention
from ..ffn import GatedFFN, PlainFFN
from ..i18n import tr, tr_noop
from ..i18n.table import text_table
from ..minimind import MINIMIND2_MODELS
from ..sizing import (
    LLAMA1_RULE,
    LLAMA3_8B_RULE,
    LLAMA3_70B_RULE,
    MINIMIND2_RULE,
    MINIMIND3_RULE,
    WidthRule,
    count_parameters,
    ffn_parameter_count,
    intermediate_size,
)

__all__ = [
    "BlockWeights",
    "LayerTimes",
    "PUBLISHED_WIDTHS",
    "ParameterParity",
    "PublishedWidth",
    "SETUP",
    "Setup",
    "WidthBudget",
    "block_weights",
    "block_weights_table",
    "comparison_table",
    "counted_parameters",
    "linear_layer_times",
    "parameter_parity",
    "published_table",
    "published_width",
    "recomputed_width",
    "rounding_overheads",
    "rounding_table",
    "timing_verdict",
    "width_budget",
    "truth",
]


@dataclass(frozen=True)
class Setup:
    """Lesson 06's sizes and ranges, read by the notebook, the widget and the figure.

    ``parity_*``: the hidden size, widest ratio ``m/h`` and width step of the counted parameter
    lines. ``curve_sizes``: the hidden sizes of the rounding-overhead scan (and the widget's
    slider: ``hidden_range`` = (lowest, highest, step)). ``timing_*``: the up-projection timed at
    the MiniMind2-Small sizes, unrounded ``int(8·512/3) = 1365`` against rounded 1408.
    ``compare_hidden``: the hidden size of the MiniMind2 → minimind-3 table.
    """

    parity_hidden_size: int = 96
    parity_max_ratio: int = 6
    parity_width_step: int = 8
    curve_sizes: tuple[int, ...] = tuple(range(64, 8192 + 1, 64))
    hidden_range: tuple[int, int, int] = (64, 8192, 64)
    multiple_of_choices: tuple[int, ...] = (1, 8, 32, 64, 128, 256, 1024, 4096)
    multiplier_range: tuple[float, float, float] = (0.5, 2.0, 0.05)
    timing_hidden: int = 512
    timing_widths: tuple[int, ...] = (1365, 1408)
    timing_tokens: int = 64
    timing_repeats: int = 5
    compare_hidden: int = 768


SETUP = Setup()

_MINIMIND_SOURCE = (
    "MiniMind README (model table: d_model) and model/model_minimind.py FeedForward: "
    "int(hidden·8/3) rounded up to a multiple of 64"
)
_MINIMIND3_SOURCE = (
    "MiniMind README (minimind-3 mainline: dim=768, n_layers=8) and the current "
    "model/model_minimind.py config: math.ceil(hidden_size * math.pi / 64) * 64"
)
_LLAMA1_SOURCE = (
    "LLaMA paper (Touvron et al. 2023, Table 2: dimension) and params.json (multiple_of 256); "
    "rule in Meta's llama model.py FeedForward; HF config.json intermediate_size"
)
_LLAMA3_SOURCE = (
    "Meta's llama3 params.json (ffn_dim_multiplier 1.3, multiple_of {m}) and "
    "HF config.json intermediate_size"
)


@dataclass(frozen=True)
class PublishedWidth:
    """One model's published FFN width and the ``WidthRule`` that produces it.

    ``published_width`` is the ``intermediate_size`` of the released config; ``source`` says
    where the numbers come from.
    """

    name: str
    hidden: int
    rule: WidthRule
    published_width: int
    source: str


def _minimind2_row(name: str, width: int) -> PublishedWidth:
    hidden, _layers = MINIMIND2_MODELS[name]  # one source of MiniMind2's sizes
    return PublishedWidth(name, hidden, MINIMIND2_RULE, width, _MINIMIND_SOURCE)


#: Published FFN widths: the MiniMind2 family, minimind-3 (π·h), LLaMA-1 (multiple of 256) and
#: Llama 3 (× 1.3), each with the rule that derives it.
PUBLISHED_WIDTHS: tuple[PublishedWidth, ...] = (
    _minimind2_row("MiniMind2-Small", 1408),
    _minimind2_row("MiniMind2-MoE", 1728),
    _minimind2_row("MiniMind2", 2048),
    PublishedWidth("minimind-3", 768, MINIMIND3_RULE, 2432, _MINIMIND3_SOURCE),
    PublishedWidth("LLaMA-1 7B", 4096, LLAMA1_RULE, 11008, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 13B", 5120, LLAMA1_RULE, 13824, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 33B", 6656, LLAMA1_RULE, 17920, _LLAMA1_SOURCE),
    PublishedWidth("LLaMA-1 65B", 8192, LLAMA1_RULE, 22016, _LLAMA1_SOURCE),
    PublishedWidth("Llama 3 8B", 4096, LLAMA3_8B_RULE, 14336, _LLAMA3_SOURCE.format(m=1024)),
    PublishedWidth("Llama 3 70B", 8192, LLAMA3_70B_RULE, 28672, _LLAMA3_SOURCE.format(m=4096)),
)


def recomputed_width(row: PublishedWidth) -> int:
    """The width ``intermediate_size`` derives from ``row``'s hidden size and rule."""
    return intermediate_size(row.hidden, row.rule)


def published_width(name: str) -> PublishedWidth:
    """The row of ``PUBLISHED_WIDTHS`` named ``name``."""
    for row in PUBLISHED_WIDTHS:
        if row.name == name:
            return row
    names = ", ".join(row.name for row in PUBLISHED_WIDTHS)
    raise ValueError(f"unknown model {name!r}; expected one of: {names}")


@dataclass(frozen=True)
class WidthBudget:
    """One hidden size pushed through a width rule, with every parameter count lesson 06 quotes.

    ``unrounded_width``: the rule's width before rounding up (``int(8h/3)`` for MiniMind2, the
    real ``π·h`` for minimind-3); ``width``: after rounding up to ``rule.multiple_of``.
    ``rounding_extra`` counts the gated weights rounding adds (``3·h·(width − unrounded)``);
    ``rounding_overhead`` is that as a fraction of the unrounded gated FFN; ``gated_to_plain``
    compares the gated FFN with the plain one at ``4h``.
    """

    hidden_size: int
    rule: WidthRule
    unrounded_width: float
    width: int
    plain_width: int
    plain_parameters: int
    gated_parameters: int
    rounding_extra: float
    rounding_overhead: float
    gated_to_plain: float


def width_budget(hidden_size: int, rule: WidthRule = MINIMIND2_RULE) -> WidthBudget:
    """The gated width ``rule`` gives ``hidden_size`` and what it costs in weights.

    The plain comparison is always the classic ``4h`` FFN.
    """
    check_positive_int("hidden_size", hidden_size)
    width = intermediate_size(hidden_size, rule)
    unrounded = rule.unrounded(hidden_size)
    gated = ffn_parameter_count(hidden_size, width, gated=True)
    plain = ffn_parameter_count(hidden_size, 4 * hidden_size, gated=False)
    extra = 3 * hidden_size * (width - unrounded)
    return WidthBudget(
        hidden_size=hidden_size,
        rule=rule,
        unrounded_width=unrounded,
        width=width,
        plain_width=4 * hidden_size,
        plain_parameters=plain,
        gated_parameters=gated,
        rounding_extra=extra,
        rounding_overhead=extra / (3 * hidden_size * unrounded),
        gated_to_plain=gated / plain,
    )


def rounding_overheads(
    hidden_sizes: Sequence[int], rule: WidthRule = MINIMIND2_RULE
) -> list[float]:
    """``width_budget(h, rule).rounding_overhead`` for every ``h`` in ``hidden_sizes``."""
    return [width_budget(h, rule).rounding_overhead for h in hidden_sizes]


def counted_parameters(hidden_size: int, width: int, gated: bool) -> int:
    """Parameters of a real ``GatedFFN``/``PlainFFN`` ``hidden_size → width``, counted.

    Built on the meta device (shapes only, no memory, no random numbers drawn) and counted with
    ``count_parameters``, so the count comes from the module, not from a formula.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("width", width)
    if not isinstance(gated, bool):
        raise ValueError(f"gated must be True or False, got {gated!r}")
    with torch.device("meta"):
        module = (GatedFFN if gated else PlainFFN)(hidden_size, width)
    return count_parameters(module)


@dataclass(frozen=True)
class BlockWeights:
    """One block's attention and gated-FFN weights, counted on modules built on the meta device.

    ``attention``: ``CausalSelfAttention(hidden_size, num_heads, num_kv_heads)``, whose ``W_q`` and
    ``W_o`` are ``h × h`` and whose ``W_k``, ``W_v`` are ``h × (num_kv_heads · h/num_heads)``, so
    fewer key/value heads (GQA) make them smaller; ``ffn``: ``GatedFFN(hidden_size, ffn_width)``,
    ``3·h·m``. The norms (vectors of ``h``) are left out.
    """

    hidden_size: int
    num_heads: int
    num_kv_heads: int
    ffn_width: int
    attention: int
    ffn: int

    @property
    def total(self) -> int:
        """Attention plus FFN weights."""
        return self.attention + self.ffn


def block_weights(
    hidden_size: int, num_heads: int, num_kv_heads: int, ffn_width: int
) -> BlockWeights:
    """Count one block's attention (``num_heads`` query heads sharing ``num_kv_heads`` key/value
    heads) and its gated FFN of width ``ffn_width`` on real modules (meta device: shapes only).

    Raises ``ValueError`` for a non-positive size, or heads that do not divide
    (``hidden_size`` by ``num_heads``, ``num_heads`` by ``num_kv_heads``).
    """
    check_positive_int("ffn_width", ffn_width)
    with torch.device("meta"):
        attention = CausalSelfAttention(hidden_size, num_heads, num_kv_heads)
    return BlockWeights(
        hidden_size=hidden_size,
        num_heads=num_heads,
        num_kv_heads=num_kv_heads,
        ffn_width=ffn_width,
        attention=count_parameters(attention),
        ffn=counted_parameters(hidden_size, ffn_width, gated=True),
    )


@dataclass(frozen=True)
class ParameterParity:
    """Counted parameters per ``h²`` against the width ratio ``r = m/h``, plain and gated.

    ``ratios[i] = widths[i] / hidden_size``; ``plain[i]``, ``gated[i]``: parameters of a real
    ``PlainFFN`` / ``GatedFFN`` of that width, divided by ``h²``. ``plain_at_4h``: the plain line
    read at ``m = 4h``; ``crossing``: the ratio where the gated line reaches it (linear
    interpolation between the two counted widths around it). ``models``: per real model,
    ``(name, m/h, gated parameters / 8h²)``.
    """

    hidden_size: int
    widths: tuple[int, ...]
    ratios: tuple[float, ...]
    plain: tuple[float, ...]
    gated: tuple[float, ...]
    plain_at_4h: float
    crossing: float
    models: tuple[tuple[str, float, float], ...]


def parameter_parity(
    rows: Sequence[PublishedWidth] = (),
    hidden_size: int = SETUP.parity_hidden_size,
    max_ratio: int = SETUP.parity_max_ratio,
    width_step: int = SETUP.parity_width_step,
) -> ParameterParity:
    """Count plain and gated FFNs at widths ``m = width_step, 2·width_step, … ≤ max_ratio·h``.

    Reads the plain budget at ``m = 4h`` and the ratio where the gated line crosses it off the
    counted lines; ``rows`` (published widths) are placed on the gated line. Raises
    ``ValueError`` unless ``4h`` is one of the counted widths (``width_step`` must divide ``4h``
    and ``max_ratio`` be at least 4) and the gated line reaches the plain budget.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("max_ratio", max_ratio)
    check_positive_int("width_step", width_step)
    widths = tuple(range(width_step, max_ratio * hidden_size + 1, width_step))
    if 4 * hidden_size not in widths:
        raise ValueError(
            f"4h = {4 * hidden_size} is not a counted width (width_step={width_step}, "
            f"max_ratio={max_ratio}); expected width_step to divide 4h and max_ratio ≥ 4"
        )
    square = hidden_size**2
    plain = tuple(counted_parameters(hidden_size, m, gated=False) / square for m in widths)
    gated = tuple(counted_parameters(hidden_size, m, gated=True) / square for m in widths)
    ratios = tuple(m / hidden_size for m in widths)
    budget = plain[widths.index(4 * hidden_size)]
    crossing = None
    for i in range(len(widths) - 1):
        if gated[i] <= budget <= gated[i + 1]:
            crossing = ratios[i] + (budget - gated[i]) / (gated[i + 1] - gated[i]) * (
                ratios[i + 1] - ratios[i]
            )
            break
    if crossing is None:
        raise ValueError(
            f"the gated line never reaches the plain budget {budget} within m ≤ "
            f"{widths[-1]}; expected a larger max_ratio"
        )
    models = tuple(
        (row.name, row.published_width / row.hidden, 3 * row.published_width / (8 * row.hidden))
        for row in rows
    )
    return ParameterParity(
        hidden_size=hidden_size,
        widths=widths,
        ratios=ratios,
        plain=plain,
        gated=gated,
        plain_at_4h=budget,
        crossing=crossing,
        models=models,
    )


@dataclass(frozen=True)
class LayerTimes:
    """Median wall time of one ``Linear(hidden → width)`` forward per width, from interleaved
    rounds. ``seconds[w]``: median over ``repeats``; ``per_unit[w] = seconds[w] / w``."""

    hidden_size: int
    tokens: int
    repeats: int
    device: str
    seconds: dict[int, float]

    @property
    def per_unit(self) -> dict[int, float]:
        """Seconds per output unit, per width."""
        return {w: t / w for w, t in self.seconds.items()}


def linear_layer_times(
    hidden_size: int = SETUP.timing_hidden,
    widths: Sequence[int] = SETUP.timing_widths,
    tokens: int = SETUP.timing_tokens,
    repeats: int = SETUP.timing_repeats,
    device: torch.device | str | None = None,
) -> LayerTimes:
    """Time ``x @ W.T`` with ``x``: ``(tokens, hidden_size)`` and ``W``: ``(width, hidden)``.

    Each round times every width once, in rotating order, after one warm-up call each; the
    median over ``repeats`` rounds is kept, so a busy machine slows all widths alike. On CUDA the
    device is synchronised around each call. Inputs come from a private generator (the global
    RNG is untouched). Timings vary between machines and runs: compare widths, not numbers.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("tokens", tokens)
    check_positive_int("repeats", repeats)
    if not widths:
        raise ValueError("widths is empty; expected at least one width")
    for width in widths:
        check_positive_int("width", width)
    target = torch.device("cpu") if device is None else torch.device(device)
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(tokens, hidden_size, generator=generator).to(target)
    weights = {
        w: torch.randn(w, hidden_size, generator=generator).to(target)
        for w in dict.fromkeys(widths)
    }

    def once(width: int) -> float:
        if target.type == "cuda":
            torch.cuda.synchronize(target)
        start = time.perf_counter()
        torch.nn.functional.linear(x, weights[width])
        if target.type == "cuda":
            torch.cuda.synchronize(target)
        return time.perf_counter() - start

    order = list(weights)
    for width in order:
        once(width)  # warm-up: first calls pay for allocation and kernel choice
    samples: dict[int, list[float]] = {w: [] for w in order}
    for round_index in range(repeats):
        shift = round_index % len(order)
        for width in order[shift:] + order[:shift]:
            samples[width].append(once(width))
    return LayerTimes(
        hidden_size=hidden_size,
        tokens=tokens,
        repeats=repeats,
        device=str(target),
        seconds={w: statistics.median(v) for w, v in samples.items()},
    )


def timing_verdict(
    runs: Sequence[LayerTimes], rounded: int, unrounded: int, tolerance: float = 0.1
) -> str:
    """Whether width ``rounded`` costs less time per unit than ``unrounded``, over several runs.

    ``runs``: results of ``linear_layer_times`` that timed both widths. Each run gives the ratio
    ``per_unit[rounded] / per_unit[unrounded]``; the verdict names an effect only when every run
    shows it by more than ``tolerance`` (a fraction, e.g. 0.1 for 10 %). The sentence names the
    device in capitals (``CPU``) and holds no timing, so it reads the same on machines whose
    numbers differ. Raises ``ValueError`` for no
    runs, a width a run did not time, or a tolerance outside ``(0, 1)``.
    """
    if not runs:
        raise ValueError("runs is empty; expected at least one LayerTimes")
    if not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be a fraction between 0 and 1, got {tolerance!r}")
    for run in runs:
        missing = [w for w in (rounded, unrounded) if w not in run.seconds]
        if missing:
            raise ValueError(f"a run did not time width(s) {missing}; it timed {list(run.seconds)}")
    ratios = [run.per_unit[rounded] / run.per_unit[unrounded] for run in runs]
    device, n = runs[0].device.upper(), len(runs)  # "cpu" → "CPU", "cuda:0" → "CUDA:0"
    if n > 1:
        where = tr("on {device}, {n} runs", device=device, n=n)
    else:
        where = tr("on {device}, {n} run", device=device, n=n)
    fields = {"where": where, "rounded": rounded, "unrounded": unrounded, "tolerance": tolerance}
    if all(r < 1 - tolerance for r in ratios):
        return tr(
            "{where}: {rounded} wide costs less time per unit than {unrounded} wide by more than "
            "{tolerance:.0%} in every run: the rounding pays here",
            **fields,
        )
    if all(r > 1 + tolerance for r in ratios):
        return tr(
            "{where}: {rounded} wide costs more time per unit than {unrounded} wide by more than "
            "{tolerance:.0%} in every run: the rounding does not pay here",
            **fields,
        )
    return tr(
        "{where}: no difference of more than {tolerance:.0%} in time per unit between {rounded} "
        "and {unrounded} wide that every run agrees on: no measurable effect of the rounding here",
        **fields,
    )


# ---- tables, as the lesson prints them ---------------------------------------------------------


def rounding_table(hidden_sizes: Sequence[int], rule: WidthRule = MINIMIND2_RULE) -> str:
    """One line per hidden size: the exact width ``h·ratio`` (× the multiplier, if any), the
    rule's width before rounding (``int(8h/3)`` for MiniMind2), after rounding up, and the
    units, gated weights and overhead the rounding adds (from ``width_budget``)."""
    header = [
        "h",
        tr("exact"),
        tr("unrounded"),
        tr("rounded"),
        tr("+units"),
        tr("+weights"),
        tr("overhead"),
    ]
    rows = []
    for hidden in hidden_sizes:
        b = width_budget(hidden, rule)
        exact = hidden * rule.ratio * (rule.ffn_dim_multiplier or 1)
        unrounded = b.unrounded_width
        rows.append(
            [
                str(hidden),
                f"{exact:.2f}",
                str(unrounded) if isinstance(unrounded, int) else f"{unrounded:.2f}",
                str(b.width),
                f"{b.width - unrounded:g}",
                f"{b.rounding_extra:,.0f}",
                f"{b.rounding_overhead:.2%}",
            ]
        )
    return text_table(header, rows)


def published_table(rows: Sequence[PublishedWidth] = PUBLISHED_WIDTHS) -> str:
    """One line per published model: its hidden size, rule (multiple, multiplier, ratio), the
    published and the recomputed width, ``m/h`` and the gated weights over the plain ``8h²``."""
    header = [
        tr("model"),
        "h",
        tr("multiple of"),
        "×",
        tr("ratio"),
        tr("published"),
        tr("recomputed"),
        "m/h",
        "3hm/8h²",
    ]
    lines = []
    for row in rows:
        rule, width = row.rule, recomputed_width(row)
        lines.append(
            [
                row.name,
                str(row.hidden),
                str(rule.multiple_of),
                "" if rule.ffn_dim_multiplier is None else f"{rule.ffn_dim_multiplier:g}",
                "π"
                if rule.ratio == math.pi
                else "8/3"
                if rule.ratio == 8 / 3
                else f"{rule.ratio:g}",
                str(row.published_width),
                str(width),
                f"{width / row.hidden:.3f}",
                f"{3 * width / (8 * row.hidden):.4f}",
            ]
        )
    return text_table(header, lines)


#: The rows of ``ml.version_comparison``, marked here so the table prints them translated.
_ASPECTS = (
    tr_noop("FFN width m"),
    tr_noop("FFN width / hidden"),
    tr_noop("FFN dropout after down_proj"),
    tr_noop("q/k RMSNorm per head"),
    tr_noop("rms_norm_eps"),
    tr_noop("key/value heads (default)"),
    tr_noop("MoE routed experts"),
    tr_noop("MoE experts per token"),
    tr_noop("MoE shared experts"),
    tr_noop("MoE rescales top-k weights"),
    tr_noop("MoE parameters, total"),
    tr_noop("MoE parameters, active per token"),
)
#: The MoE rescaling rule's codes, in words.
_RESCALING = {"if_top_k_gt_1": tr_noop("only if k > 1"), "always": tr_noop("always")}
_TRUTH = {True: tr_noop("True"), False: tr_noop("False")}


def truth(value: bool) -> str:
    """A yes/no fact as printed: ``"True"``/``"False"`` in English, 是/否 in Chinese."""
    return tr(_TRUTH[bool(value)])


def comparison_rows(
    comparison: Mapping[str, tuple[object, object]], aspects: Sequence[str] | None = None
) -> list[list[str]]:
    """Rows of ``ml.version_comparison``'s result for ``text_table``: the aspect's label in the
    reader's language, then MiniMind2's value and minimind-3's (a yes/no as ``truth`` prints it,
    the MoE rescaling rule's code in words). ``aspects``: only these rows, in this order (lessons
    07 and 10 show parts of the table); raises ``ValueError`` naming those ``comparison`` lacks.
    """
    if not isinstance(comparison, Mapping):
        raise ValueError(
            f"comparison must be the dict ml.version_comparison returns, got "
            f"{type(comparison).__name__}"
        )
    chosen = list(comparison) if aspects is None else list(aspects)
    missing = [aspect for aspect in chosen if aspect not in comparison]
    if missing:
        raise ValueError(
            f"comparison lacks {missing}; pass the dict ml.version_comparison(hidden_size) returns"
        )

    def shown(value: object) -> str:
        if isinstance(value, bool):
            return truth(value)
        return (
            tr(_RESCALING[value]) if isinstance(value, str) and value in _RESCALING else str(value)
        )

    return [
        [tr(aspect) if aspect in _ASPECTS else aspect, *(shown(v) for v in comparison[aspect])]
        for aspect in chosen
    ]


def comparison_table(comparison: Mapping[str, tuple[object, object]]) -> str:
    """``ml.version_comparison``'s result, one aspect a line: MiniMind2's value, then
    minimind-3's (``comparison_rows``), padded by display width."""
    return text_table(["", "MiniMind2", "minimind-3"], comparison_rows(comparison))


def block_weights_table(blocks: Mapping[str, BlockWeights]) -> str:
    """One line per labelled block: key/value heads, FFN width, and attention, FFN and block
    weights in units of ``h²`` (two decimals)."""
    header = [
        "",
        tr("kv heads"),
        tr("FFN width"),
        tr("attention/h²"),
        tr("FFN/h²"),
        tr("block/h²"),
    ]
    rows = []
    for label, b in blocks.items():
        square = b.hidden_size**2
        rows.append(
            [
                label,
                f"{b.num_kv_heads}/{b.num_heads}",
                str(b.ffn_width),
                f"{b.attention / square:.2f}",
                f"{b.ffn / square:.2f}",
                f"{b.total / square:.2f}",
            ]
        )
    return text_table(header, rows)
