"""Tokens of a few kinds, what an MLP's hidden layer does with them, and a router (lesson 10).

The stand-in hidden states are clusters, so any grouping by kind seen downstream may only be
inherited from the inputs. Every measure here is therefore taken twice: on the raw inputs (the
control) and on what a module made of them, and the lesson claims only the difference.
``AUX_LOSS_COEF`` holds the weight each MiniMind version gives its MoE load-balancing loss.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from .._checks import check_positive_int
from ..i18n import get_language, tr_noop
from ..i18n.table import text_table
from ..minimind import FeedForward, MiniMindConfig
from ..moe import MoEFeedForward
from ..runtime import seeded
from .l06_sizing import comparison_rows, truth

__all__ = [
    "AUX_LOSS_COEF",
    "MOE_ASPECTS",
    "SETUP",
    "KindSplit",
    "SeedResult",
    "Setup",
    "Spread",
    "chance_overlap",
    "clustered_tokens",
    "gated_features",
    "kind_experiment",
    "kind_overlap",
    "moe_comparison_table",
    "routing_agreement",
    "token_kinds",
    "top_features",
    "top_only_change",
    "top_share",
    "parameter_count_text",
    "truth",
]

#: The weight of the MoE load-balancing (auxiliary) loss in MiniMind's own code, added to the
#: language-model loss in training (MiniMind2's trainers: ``loss = logits_loss + res.aux_loss``;
#: minimind-3's: ``loss = res.loss + res.aux_loss``). MiniMind2:
#: ``aux_loss_alpha = 0.01`` (``MoEGate``, per sequence: ``seq_aux = True``); minimind-3:
#: ``router_aux_loss_coef = 5e-4`` (``MOEFeedForward``: ``E · coef · Σ_e load_e · mean score_e``
#: over the batch). Read in jingyaogong/minimind, ``model/model_minimind.py``.
AUX_LOSS_COEF: dict[str, float] = {"minimind2": 0.01, "minimind3": 5e-4}

#: The rows of ``ml.version_comparison`` that lesson 10's table shows (the FFN width and the MoE
#: layer), marked so the table prints them in the reader's language.
MOE_ASPECTS: tuple[str, ...] = (
    tr_noop("FFN width m"),
    tr_noop("MoE routed experts"),
    tr_noop("MoE experts per token"),
    tr_noop("MoE shared experts"),
    tr_noop("MoE rescales top-k weights"),
    tr_noop("MoE parameters, total"),
    tr_noop("MoE parameters, active per token"),
)


def moe_comparison_table(comparison: Mapping[str, tuple[object, object]], hidden_size: int) -> str:
    """The FFN width and MoE rows of ``ml.version_comparison(hidden_size)``: MiniMind2's value,
    then minimind-3's, with labels and the rescaling rule in words in the reader's language,
    padded by display width."""
    check_positive_int("hidden_size", hidden_size)
    rows = comparison_rows(comparison, MOE_ASPECTS)
    return text_table([f"h = {hidden_size}", "MiniMind2", "minimind-3"], rows)


def parameter_count_text(count: int) -> str:
    """A parameter count as a sentence prints it, in the reader's number units: millions with two
    decimals in English (``"9.95 M"``), whole 万 (ten thousands) in Chinese (``"约 995 万"``)."""
    check_positive_int("count", count)
    if get_language() == "zh":  # the catalogue keeps a text's fields; this changes the unit
        return f"约 {count / 1e4:,.0f} 万"
    return f"{count / 1e6:.2f} M"


@dataclass(frozen=True)
class Setup:
    """Lesson 10's batch, mixture and seeds, read by the notebook, the widget and the figure.

    ``num_experts``/``top_k``/``num_shared_experts`` are MiniMind2's MoE defaults (4 routed
    experts, 2 per token, 1 shared); ``top_fraction`` is the share of a token's features counted
    as its "top" features; ``seeds`` are the repeats of the kind experiment (``seed`` is the one
    drawn in detail).
    """

    hidden_size: int = 32
    tokens_per_kind: int = 8
    kinds: str = "ABC"
    num_experts: int = 4
    top_k: int = 2
    num_shared_experts: int = 1
    seed: int = 0
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    top_fraction: float = 0.125


SETUP = Setup()


def clustered_tokens(
    hidden_size: int = 32,
    tokens_per_kind: int = 8,
    kinds: str = "ABC",
    seed: int = 0,
    spread: float = 0.5,
) -> tuple[torch.Tensor, list[str]]:
    """Tokens of ``len(kinds)`` kinds: ``(len(kinds)·tokens_per_kind, hidden_size)`` and labels.

    Each kind is a random centre (standard deviation 2) plus Gaussian noise of std ``spread``;
    labels read ``"A0", "A1", ..., "C7"`` in the same order as the rows. CPU, float32.
    """
    check_positive_int("hidden_size", hidden_size)
    check_positive_int("tokens_per_kind", tokens_per_kind)
    if not isinstance(kinds, str) or not kinds:
        raise ValueError(f"kinds must name at least one kind, got {kinds!r}")
    if not spread >= 0:
        raise ValueError(f"spread must be ≥ 0, got {spread!r}")
    g = torch.Generator().manual_seed(seed)
    centres = 2.0 * torch.randn(len(kinds), hidden_size, generator=g)
    noise = spread * torch.randn(len(kinds), tokens_per_kind, hidden_size, generator=g)
    x = (centres[:, None, :] + noise).reshape(-1, hidden_size)  # (kinds·tokens, h)
    labels = [f"{kind}{i}" for kind in kinds for i in range(tokens_per_kind)]
    return x, labels


def token_kinds(labels: Sequence[str]) -> list[str]:
    """The kind of each label: ``"A3"`` → ``"A"`` (the label without its trailing digits)."""
    kinds = [str(label).rstrip("0123456789") for label in labels]
    if any(not kind for kind in kinds):
        raise ValueError(f"every label must start with its kind, like 'A0'; got {list(labels)}")
    return kinds


def gated_features(ffn: FeedForward, x: Tensor) -> Tensor:
    """The MLP's hidden layer for ``x``: ``act(gate_proj(x)) · up_proj(x)``, ``(*, m)``, no grad.

    This is the tensor ``down_proj`` reads (lesson 07's ``down_proj:in``).
    """
    if not isinstance(ffn, FeedForward):
        raise ValueError(f"ffn must be a FeedForward, got {type(ffn).__name__}")
    with torch.no_grad():
        return ffn.act_fn(ffn.gate_proj(x)) * ffn.up_proj(x)


def top_features(features: Tensor, fraction: float) -> list[frozenset[int]]:
    """For each row of ``features`` ``(N, F)``, its ``⌈fraction·F⌉`` largest features by size."""
    if not isinstance(features, Tensor) or features.dim() != 2:
        shape = tuple(features.shape) if isinstance(features, Tensor) else type(features).__name__
        raise ValueError(f"features must be a (tokens, features) tensor, got {shape}")
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)):
        raise ValueError(f"fraction must be a number in (0, 1], got {fraction!r}")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    count = math.ceil(fraction * features.shape[1])
    indices = features.detach().abs().topk(count, dim=-1).indices  # (N, count)
    return [frozenset(row.tolist()) for row in indices]


def top_share(features: Tensor, fraction: float) -> Tensor:
    """Share of each row's squared norm held by its ``⌈fraction·F⌉`` largest entries: ``(N,)``.

    ``features``: ``(N, F)``. An even spread over the F entries gives ``fraction`` (about); all of
    the norm in the top entries gives 1.
    """
    count = len(next(iter(top_features(features, fraction))))  # validates; ⌈fraction·F⌉
    energy = features.detach().pow(2)  # (N, F)
    return energy.topk(count, dim=-1).values.sum(dim=-1) / energy.sum(dim=-1)


def top_only_change(ffn: FeedForward, x: Tensor, fraction: float) -> Tensor:
    """How much ``ffn``'s output moves when each token keeps only its top hidden units: ``(N,)``.

    The hidden layer ``gated_features(ffn, x)`` ``(N, m)`` is zeroed outside each row's
    ``⌈fraction·m⌉`` largest entries (by size) before ``down_proj``; the result is
    ``‖y_top − y‖ / ‖y‖`` per token, with ``y`` the full output. 0: the other units change nothing.
    """
    hidden = gated_features(ffn, x)  # (N, m), validates ffn
    count = len(next(iter(top_features(hidden, fraction))))
    keep = torch.zeros_like(hidden).scatter(-1, hidden.abs().topk(count, dim=-1).indices, 1.0)
    with torch.no_grad():
        full, top = ffn.down_proj(hidden), ffn.down_proj(hidden * keep)  # (N, h)
    return (top - full).norm(dim=-1) / full.norm(dim=-1)


@dataclass(frozen=True)
class Spread:
    """The smallest, mean and largest of a set of per-token values."""

    low: float
    mean: float
    high: float

    @classmethod
    def of(cls, values: Tensor) -> Spread:
        """``values``: a 1-D tensor (one value per token)."""
        return cls(values.min().item(), values.mean().item(), values.max().item())


def chance_overlap(n_features: int, fraction: float) -> float:
    """Expected Jaccard overlap of two independent random sets of ``⌈fraction·n_features⌉``.

    The baseline for ``kind_overlap``: what top-feature sets would share if they had nothing to
    do with the tokens. Exact, from the hypergeometric distribution of the shared count.
    """
    check_positive_int("n_features", n_features)
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)):
        raise ValueError(f"fraction must be a number in (0, 1], got {fraction!r}")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    k, n = math.ceil(fraction * n_features), n_features
    return sum(
        math.comb(k, i) * math.comb(n - k, k - i) / math.comb(n, k) * i / (2 * k - i)
        for i in range(k + 1)
    )


@dataclass(frozen=True)
class KindSplit:
    """A pairwise score averaged over token pairs of one kind and over pairs of different kinds."""

    same: float
    different: float


def _split_by_kind(kinds: Sequence[str], score: Callable[[int, int], float]) -> KindSplit:
    same: list[float] = []
    different: list[float] = []
    for i in range(len(kinds)):
        for j in range(i + 1, len(kinds)):
            (same if kinds[i] == kinds[j] else different).append(score(i, j))
    if not same or not different:
        raise ValueError(
            f"need at least two tokens of one kind and two kinds, got kinds {list(kinds)}"
        )
    return KindSplit(sum(same) / len(same), sum(different) / len(different))


def kind_overlap(features: Tensor, kinds: Sequence[str], fraction: float) -> KindSplit:
    """Mean Jaccard overlap of the top-feature sets (``top_features``), same kind vs different.

    Jaccard overlap of two sets: shared members divided by members of either (1: the same set,
    0: disjoint). ``features``: ``(N, F)``; ``kinds``: ``N`` kind names, one per row.
    """
    tops = top_features(features, fraction)  # validates features and fraction
    if len(kinds) != len(tops):
        raise ValueError(f"kinds has {len(kinds)} entries; expected one per row ({len(tops)})")
    return _split_by_kind(kinds, lambda i, j: len(tops[i] & tops[j]) / len(tops[i] | tops[j]))


def routing_agreement(first_choice: Tensor, kinds: Sequence[str]) -> KindSplit:
    """Share of token pairs sent to the same first-choice expert: same kind vs different kinds.

    ``first_choice``: ``(N,)`` expert indices (``routing.experts[..., 0]`` flattened).
    """
    if not isinstance(first_choice, Tensor) or first_choice.dim() != 1:
        raise ValueError("first_choice must be a 1-D tensor of expert indices, one per token")
    if len(kinds) != first_choice.shape[0]:
        raise ValueError(
            f"kinds has {len(kinds)} entries; expected one per token ({first_choice.shape[0]})"
        )
    picks = first_choice.tolist()
    return _split_by_kind(kinds, lambda i, j: float(picks[i] == picks[j]))


@dataclass(frozen=True)
class SeedResult:
    """One seed of the kind experiment, on the raw inputs (the control) and an untrained MLP.

    ``raw``/``hidden``: top-feature overlap by kind; ``raw_share``/``hidden_share``: the share of
    each token's squared norm in its top features (``top_share``); ``top_only``: how far the MLP's
    output moves when each token keeps only its top hidden units (``top_only_change``);
    ``routing``: first-choice agreement of an untrained router.
    """

    seed: int
    raw: KindSplit
    hidden: KindSplit
    routing: KindSplit
    raw_share: Spread
    hidden_share: Spread
    top_only: Spread


def kind_experiment(setup: Setup = SETUP) -> list[SeedResult]:
    """For each of ``setup.seeds``: new clustered tokens, a new MLP and a new router, measured.

    Per seed ``s``: ``clustered_tokens(..., seed=s)``; ``FeedForward`` (MiniMind2, the setup's
    hidden size) built under ``seeded(s)``, its ``gated_features`` compared by ``kind_overlap``
    with the raw tokens; ``MoEFeedForward(num_experts, top_k)`` built under ``seeded(s)``, its
    first choices compared by ``routing_agreement``; the top features' share of each token's
    squared norm (``top_share``) on both, and ``top_only_change`` of the MLP. The notebook computes
    the first seed by hand.
    """
    if not isinstance(setup, Setup):
        raise ValueError(f"setup must be a lesson-10 Setup, got {type(setup).__name__}")
    if not setup.seeds:
        raise ValueError("setup.seeds is empty; expected at least one seed")
    results = []
    for seed in setup.seeds:
        x, labels = clustered_tokens(
            setup.hidden_size, setup.tokens_per_kind, setup.kinds, seed=seed
        )
        kinds = token_kinds(labels)
        with seeded(seed):
            ffn = FeedForward(MiniMindConfig(hidden_size=setup.hidden_size)).eval()
        with seeded(seed):
            config = MiniMindConfig(hidden_size=setup.hidden_size)
            moe = MoEFeedForward(config, setup.num_experts, setup.top_k).eval()
        with torch.no_grad():
            first_choice = moe.route(x).experts[:, 0]
        hidden = gated_features(ffn, x)
        results.append(
            SeedResult(
                seed=seed,
                raw=kind_overlap(x, kinds, setup.top_fraction),
                hidden=kind_overlap(hidden, kinds, setup.top_fraction),
                routing=routing_agreement(first_choice, kinds),
                raw_share=Spread.of(top_share(x, setup.top_fraction)),
                hidden_share=Spread.of(top_share(hidden, setup.top_fraction)),
                top_only=Spread.of(top_only_change(ffn, x, setup.top_fraction)),
            )
        )
    return results
