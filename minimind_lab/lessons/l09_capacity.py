"""How much a tiny MiniMind holds, in bits, with and without its MLP (lesson 09).

A fact table: subjects named by two tokens (a first and a last name), a few relations, and for
each (subject, relation) an attribute drawn uniformly from ``|A|`` tokens, so the table holds
``facts · log2|A|`` bits. A fact is the sequence ``first last relation`` whose next token is the
attribute. Models: one or two MiniMind2 blocks (``ml.MiniMindForCausalLM``) in six kinds
(``ARCHITECTURES``) and two hidden sizes; copies of one kind and size (learning rates, seeds)
train side by side as one batch (``torch.func.vmap`` over their stacked weights), each with its
own gradient, its own data order and its own Adam at its own rate.
``run_group`` trains a list of (learning rate, seed) copies and returns bits and accuracy at each
exposure checkpoint; ``run_tuned_group`` scans the rates on seed 0 and trains the other seeds at
the best; ``run_sweep`` runs every group; ``python -m minimind_lab.lessons.l09_capacity sweep``
writes the stored record (``data/l09_capacity_sweep.json``) that the notebook, the widget and the
figures read, and ``sweep --arithmetic native`` the same sweep under the CPU's own kernels
(``data/l09_capacity_sweep_native.json``), on which the lesson's claims must hold too.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import Manager
from pathlib import Path
from queue import Queue
from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.func import functional_call, stack_module_state, vmap

from .._checks import check_positive_int
from .._progress import Progress
from ..ffn import PlainFFN
from ..i18n import tr_noop
from ..i18n.table import table_text, text_table
from ..minimind import MiniMindConfig
from ..model import MiniMindForCausalLM, check_token_ids
from ..runtime import reproducible_cpu, seeded
from ..train import Adam
from ._copies import check_seeds

__all__ = [
    "ARCHITECTURES",
    "ARCHITECTURE_LABELS",
    "BLOCKS",
    "NATIVE_SWEEP_PATH",
    "CopyAdam",
    "FINDING_ARCHITECTURES",
    "Finding",
    "PAPER_FINDINGS",
    "SETUP",
    "SWEEP_PATH",
    "Checkpoint",
    "FactTable",
    "GroupResult",
    "LastToken",
    "Point",
    "Setup",
    "build_model",
    "fact_table",
    "best_lrs_of",
    "extend_sweep",
    "binding_sizes",
    "compare_with_paper",
    "best_rate",
    "load_sweep",
    "mean_bits_per_param",
    "model_config",
    "next_rate",
    "name_interaction",
    "parameter_split",
    "rate_scan",
    "run_group",
    "run_rated_group",
    "run_tuned_group",
    "run_sweep",
    "stored_bits",
    "table_text",
    "text_table",
    "train_step",
    "trained_model",
    "sweep_jobs",
    "sweep_points",
    "sweep_records",
    "write_sweep",
]

#: The six kinds of model the sweep compares: four of one MiniMind2 block, two of two blocks.
ARCHITECTURES = ("full", "no_mlp", "no_mlp_equal", "plain_equal", "full_x2", "no_mlp_x2")
#: How many blocks each kind has (``no_mlp_equal`` adds attention-only blocks on top of this).
BLOCKS = {"full": 1, "no_mlp": 1, "no_mlp_equal": 1, "plain_equal": 1, "full_x2": 2, "no_mlp_x2": 2}


class _Labels(Mapping[str, str]):
    """Each architecture's name for tables, legends and the widget: ``labels[arch]`` is the
    name in the current language (``minimind_lab.i18n``); the English is the catalogue key."""

    def __init__(self, english: dict[str, str]) -> None:
        self._english = dict(english)

    def __getitem__(self, architecture: str) -> str:
        return table_text(self._english[architecture])

    def __iter__(self) -> Iterator[str]:
        return iter(self._english)

    def __len__(self) -> int:
        return len(self._english)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


#: Each kind's name in tables, legends and the widget; ``ARCHITECTURE_LABELS[arch]`` is in the
#: current language (English as written here, the catalogue's Chinese in a Chinese lesson).
ARCHITECTURE_LABELS: Mapping[str, str] = _Labels(
    {
        "full": tr_noop("MiniMind2 block (SwiGLU MLP)"),
        "no_mlp": tr_noop("no MLP (removed)"),
        "no_mlp_equal": tr_noop("no MLP, more attention blocks (equal params)"),
        "plain_equal": tr_noop("plain SiLU MLP (equal params)"),
        "full_x2": tr_noop("two MiniMind2 blocks (SwiGLU MLPs)"),
        "no_mlp_x2": tr_noop("two blocks, no MLPs (removed)"),
    }
)
SWEEP_PATH = Path(__file__).resolve().parent / "data" / "l09_capacity_sweep.json"
#: The same sweep made under the CPU's own vector kernels (the arithmetic of JupyterLab).
NATIVE_SWEEP_PATH = SWEEP_PATH.with_name("l09_capacity_sweep_native.json")
#: vmap runs attention's fused kernel once per copy (no batching rule yet) and warns each time.
_VMAP_ATTENTION_WARNING = "There is a performance drop because we have not yet implemented"


@dataclass(frozen=True)
class Setup:
    """Lesson 09's table, models, training and seeds, read by the notebook, widget and figures.

    The table: ``first_names × last_names`` possible subjects of which ``subjects`` are drawn,
    ``relations`` attributes each, every attribute uniform over ``attributes`` tokens, drawn with
    ``table_seed``; ``other_table_seed`` draws a second table, on which ``other_table_groups``
    are trained again. Training: Adam at a constant rate, batches of ``batch_size`` facts, every
    fact once per pass, so after ``e`` passes each fact has been seen ``e`` times (its
    exposures). Each (architecture, size) is trained at every rate of ``lrs`` with seed
    ``seeds[0]``; while the best of them is the highest (lowest) rate tried, the next rate up
    (down) ``lr_ladder`` is tried too; the rate that holds the most bits at ``exposures`` is its
    best, and the other seeds train at that rate. A seed draws the weights and the order of the
    facts in every pass.
    """

    first_names: int = 32
    last_names: int = 32
    subjects: int = 512
    relations: int = 4
    attributes: int = 128
    table_seed: int = 0
    other_table_seed: int = 1
    hidden_sizes: tuple[int, ...] = (8, 12)
    num_heads: int = 2
    architectures: tuple[str, ...] = ARCHITECTURES
    other_table_groups: tuple[tuple[str, int], ...] = (("full", 8), ("no_mlp", 8))
    lrs: tuple[float, ...] = (3e-3, 1e-2, 3e-2)
    lr_ladder: tuple[float, ...] = (1e-3, 3e-3, 1e-2, 3e-2, 1e-1)
    seeds: tuple[int, ...] = (0, 1, 2)
    exposures: int = 1000
    checkpoints: tuple[int, ...] = (1, 3, 10, 30, 100, 300, 1000)
    batch_size: int = 1024
    workers: int = 2
    live_hidden_size: int = 8
    live_architectures: tuple[str, ...] = ("full", "no_mlp")
    live_exposures: int = 100


SETUP = Setup()


@dataclass(frozen=True)
class FactTable:
    """The facts as token ids.

    ``inputs``: ``(F, 3)`` long, rows ``first last relation``; ``targets``: ``(F,)`` long, the
    attribute token; ``vocab_size``: first names, last names, relations, then attributes.
    """

    inputs: Tensor
    targets: Tensor
    vocab_size: int
    num_attributes: int

    @property
    def num_facts(self) -> int:
        """How many facts (rows)."""
        return self.inputs.shape[0]

    @property
    def bits(self) -> float:
        """What the table holds: ``facts · log2|A|`` bits (attributes uniform, independent)."""
        return self.num_facts * math.log2(self.num_attributes)


def fact_table(setup: Setup = SETUP, table_seed: int | None = None) -> FactTable:
    """The table ``setup`` describes, drawn with ``table_seed`` (default ``setup.table_seed``;
    the same table on every call with the same seed).

    Subjects are distinct (first, last) pairs; a name appears in many subjects, so neither token
    alone tells the attribute. Shapes: ``inputs (S·R, 3)``, ``targets (S·R,)``.
    """
    s = setup
    pairs = s.first_names * s.last_names
    if not 1 <= s.subjects <= pairs:
        raise ValueError(f"subjects must be in [1, {pairs}] (first × last names), got {s.subjects}")
    for name in ("relations", "attributes"):
        check_positive_int(name, getattr(s, name))
    seed = s.table_seed if table_seed is None else table_seed
    generator = torch.Generator().manual_seed(seed)
    chosen = torch.randperm(pairs, generator=generator)[: s.subjects]  # (S,)
    first = chosen // s.last_names  # (S,)
    last = s.first_names + chosen % s.last_names  # (S,)
    relation_base = s.first_names + s.last_names
    attribute_base = relation_base + s.relations
    answers = torch.randint(s.attributes, (s.subjects, s.relations), generator=generator)
    rel = torch.arange(s.relations)  # (R,)
    inputs = torch.stack(
        [
            first[:, None].expand(-1, s.relations),
            last[:, None].expand(-1, s.relations),
            (relation_base + rel)[None, :].expand(s.subjects, -1),
        ],
        dim=-1,
    ).reshape(-1, 3)  # (S·R, 3)
    targets = (attribute_base + answers).reshape(-1)  # (S·R,)
    return FactTable(inputs, targets, attribute_base + s.attributes, s.attributes)


def stored_bits(
    logits: Tensor, targets: Tensor, num_attributes: int, floor: bool = False
) -> Tensor:
    """Bits a model holds about the facts: ``Σ_f (log2|A| − CE_f)``, CE in bits.

    ``logits``: ``(*, F, vocab)`` at the answer position; ``targets``: ``(F,)``. ``CE_f`` is the
    model's cross-entropy on fact ``f`` over its whole vocabulary, in bits; a fact the model
    knows no better than a uniform guess among the ``|A|`` attributes counts 0, one it is sure of
    counts ``log2|A|``, and one it knows worse than that guess counts below 0: it costs bits, as
    in Allen-Zhu & Li's bound, which sums the loss over the facts. ``floor=True`` floors each
    fact at 0 first (``Σ_f max(0, ·)``): larger, and not a lower bound; kept only to compare.
    Returns ``(*)`` (float, the logits' dtype).
    """
    if logits.shape[-2] != targets.shape[0]:
        raise ValueError(
            f"logits hold {logits.shape[-2]} facts but targets {targets.shape[0]}; they must match"
        )
    num_attributes = check_positive_int("num_attributes", num_attributes)
    log_probs = logits.log_softmax(dim=-1)  # (*, F, vocab)
    index = targets.expand(*logits.shape[:-1]).unsqueeze(-1)  # (*, F, 1)
    ce_bits = -log_probs.gather(-1, index).squeeze(-1) / math.log(2)  # (*, F)
    per_fact = math.log2(num_attributes) - ce_bits  # (*, F)
    return (per_fact.clamp(min=0) if floor else per_fact).sum(dim=-1)


def model_config(
    architecture: str, hidden_size: int, vocab_size: int, setup: Setup = SETUP
) -> MiniMindConfig:
    """The ``MiniMindConfig`` of one model: one MiniMind2 block, ``setup.num_heads`` heads.

    ``full``: the block as MiniMind2 builds it (SwiGLU, width by the 8/3 rule rounded up to 64);
    ``full_x2`` and ``no_mlp_x2``: two such blocks, with and without their MLPs;
    ``no_mlp``: the same block with its MLP removed; ``no_mlp_equal``: blocks without MLP, as
    many as buy back the MLP's parameters (the nearest whole number; MiniMind2 fixes each head
    at ``hidden_size // heads``, so depth is the one knob that keeps the embedding and the heads
    as they are); ``plain_equal``: same config as ``full`` (``build_model`` swaps
    in the plain MLP).
    """
    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {architecture!r}; expected one of {ARCHITECTURES}")
    h = check_positive_int("hidden_size", hidden_size)
    heads = setup.num_heads
    common = dict(
        hidden_size=h,
        num_hidden_layers=BLOCKS[architecture],
        num_attention_heads=heads,
        num_key_value_heads=heads,
        vocab_size=vocab_size,
        max_position_embeddings=8,
        version="minimind2",
    )
    if architecture in ("full", "plain_equal", "full_x2"):
        return MiniMindConfig(**common)
    if architecture in ("no_mlp", "no_mlp_x2"):
        return MiniMindConfig(**common, use_mlp=False)
    full = MiniMindConfig(**common)
    mlp = 3 * h * full.derived_intermediate_size() + h  # weights and post_attention_layernorm
    attention = 2 * h * h + 2 * h * heads * (h // heads) + h  # q, o; k, v; input_layernorm
    layers = 1 + round(mlp / attention)  # attention-only blocks that buy back the MLP
    return MiniMindConfig(**{**common, "num_hidden_layers": layers}, use_mlp=False)


def build_model(
    architecture: str, hidden_size: int, vocab_size: int, seed: int, setup: Setup = SETUP
) -> MiniMindForCausalLM:
    """One model, its weights drawn under ``seed``; ``(B, T)`` ids → ``(B, T, vocab)`` logits.

    ``plain_equal`` replaces the block's ``FeedForward`` (``3·h·m``) with a plain SiLU MLP of
    width ``3m/2`` (``2·h·3m/2``, equal parameters).
    """
    config = model_config(architecture, hidden_size, vocab_size, setup)
    with seeded(seed):
        model = MiniMindForCausalLM(config)
        if architecture == "plain_equal":
            m = config.derived_intermediate_size()
            for block in model.model.layers:
                block.mlp = PlainFFN(hidden_size, 3 * m // 2, act="silu")
    return model


def parameter_split(model: nn.Module) -> tuple[int, int]:
    """``(embedding, non-embedding)`` parameter counts; the tied LM head is counted once."""
    total = sum(p.numel() for p in model.parameters())  # parameters() yields a tied one once
    embedding = model.model.embed_tokens.weight.numel()
    return embedding, total - embedding


class LastToken(nn.Module):
    """A causal LM read at its last position only: ids ``(B, T)`` → logits ``(B, vocab)``.

    The LM head is applied to the last position alone (the answer's), which is all the loss
    reads; the block still sees every position.
    """

    def __init__(self, lm: MiniMindForCausalLM) -> None:
        super().__init__()
        self.lm = lm

    def forward(self, input_ids: Tensor) -> Tensor:
        """``input_ids``: ``(B, T)`` → ``(B, vocab)``.

        ``MiniMindModel.forward`` step by step, without its check of the ids (it reads their
        values, which ``vmap`` cannot do when each copy has its own batch): ``run_group`` checks
        the whole table once instead.
        """
        model = self.lm.model
        t = input_ids.shape[-1]
        rope = (model.freqs_cos[:t], model.freqs_sin[:t])  # each (T, head_dim)
        h = model.embed_tokens(input_ids)  # (B, T, h)
        for layer in model.layers:
            h = layer(h, rope)  # (B, T, h)
        return self.lm.lm_head(model.norm(h[:, -1]))  # (B, vocab)


@dataclass(frozen=True)
class Checkpoint:
    """One copy's state after ``exposures`` passes: bits held (``Σ_f (log2|A| − CE_f)``), the
    same floored per fact at 0 (for comparison only), accuracy, mean loss (nats)."""

    exposures: int
    bits: float
    bits_floored: float
    accuracy: float
    loss: float


@dataclass(frozen=True)
class GroupResult:
    """One architecture and size on one table, trained once per copy: ``copies`` holds each
    copy's ``(lr, seed)``, ``checkpoints`` each copy's history; ``best_lr`` is the rate the
    other seeds were trained at (``None`` when no scan chose one); ``state``: the copies'
    trained weights, stacked ``(C, ...)``, when ``run_group`` was asked to keep them
    (``trained_model`` unstacks one)."""

    architecture: str
    hidden_size: int
    table_seed: int
    embedding_params: int
    non_embedding_params: int
    copies: tuple[tuple[float, int], ...]
    checkpoints: tuple[tuple[Checkpoint, ...], ...]  # per copy, per checkpoint
    seconds: float
    cpu_seconds: float
    best_lr: float | None = None
    state: dict[str, Tensor] | None = field(default=None, repr=False, compare=False)


def _evaluate(net: LastToken, params: dict, buffers: dict, table: FactTable) -> list[tuple]:
    """Per copy ``(bits, bits floored, accuracy, loss)`` on every fact (no gradient)."""
    with torch.no_grad(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_VMAP_ATTENTION_WARNING)
        logits = vmap(lambda p, b: functional_call(net, (p, b), (table.inputs,)))(params, buffers)
        bits = stored_bits(logits, table.targets, table.num_attributes)  # (C,)
        floored = stored_bits(logits, table.targets, table.num_attributes, floor=True)  # (C,)
        accuracy = (logits.argmax(-1) == table.targets).float().mean(-1)  # (C,)
        loss = torch.stack([F.cross_entropy(x, table.targets) for x in logits])  # (C,)
    columns = (bits.tolist(), floored.tolist(), accuracy.tolist(), loss.tolist())
    return list(zip(*columns, strict=True))


class CopyAdam(Adam):
    """``ml.Adam`` for stacked copies, each at its own learning rate.

    Every parameter is ``(C, ...)``, one slice per copy; ``lrs`` holds ``C`` rates. The update
    is Adam's, with the step size of copy ``k`` taken from ``lrs[k]``.
    """

    def __init__(self, parameters: Sequence[Tensor], lrs: Sequence[float]) -> None:
        super().__init__(parameters, lr=max(lrs))
        self.lrs = torch.tensor([float(lr) for lr in lrs])  # (C,)

    @torch.no_grad()
    def step(self) -> None:
        """Move every parameter that has a gradient by one Adam step, per copy's rate."""
        b1, b2 = self.beta1, self.beta2
        for i, p in enumerate(self.parameters):
            if p.grad is None:
                continue
            self.steps[i] += 1
            t = float(self.steps[i])
            self.avg[i].lerp_(p.grad, 1 - b1)  # running mean of the gradient
            self.avg_sq[i].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)  # ... of its square
            denom = (self.avg_sq[i].sqrt() / (1 - b2**t) ** 0.5).add_(self.eps)
            step_size = (self.lrs / (1 - b1**t)).to(p.dtype)  # (C,): bias-corrected, per copy
            p.sub_(step_size.view(-1, *[1] * (p.dim() - 1)) * (self.avg[i] / denom))


def train_step(
    batched: Callable[..., Tensor],
    params: dict[str, Tensor],
    buffers: dict[str, Tensor],
    adam: Adam,
    inputs: Tensor,
    targets: Tensor,
) -> None:
    """One Adam step for every copy: ``inputs (C, B, 3)`` facts, ``targets (C, B)`` attributes,
    each copy its own batch.

    ``batched(params, buffers, inputs)`` gives the copies' logits ``(C, B, vocab)``; the loss is
    the sum over copies of each copy's mean cross-entropy, so copy ``k``'s gradient is the one
    it would get alone.
    """
    logits = batched(params, buffers, inputs)  # (C, B, vocab)
    loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="sum")
    adam.zero_grad()
    (loss / targets.shape[1]).backward()  # Σ over copies of each copy's mean loss
    adam.step()


def _check_copies(copies: Sequence[tuple[float, int]]) -> tuple[tuple[float, int], ...]:
    checked = []
    for copy_ in copies:
        if not (isinstance(copy_, (tuple, list)) and len(copy_) == 2):
            raise ValueError(f"each copy must be a (learning rate, seed) pair, got {copy_!r}")
        lr, seed = copy_
        if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not 0 < lr < 1:
            raise ValueError(f"a copy's learning rate must be a number in (0, 1), got {lr!r}")
        (seed,) = check_seeds((seed,))
        checked.append((float(lr), seed))
    if not checked:
        raise ValueError("copies must hold at least one (learning rate, seed) pair, got none")
    return tuple(checked)


def run_group(
    architecture: str,
    hidden_size: int,
    setup: Setup = SETUP,
    copies: Sequence[tuple[float, int]] = ((1e-2, 0),),
    exposures: int | None = None,
    table_seed: int | None = None,
    keep_state: bool = False,
    on_pass: Callable[[int, int], None] | None = None,
) -> GroupResult:
    """Train one copy per ``(lr, seed)`` of ``architecture`` at ``hidden_size`` together.

    The copies' weights are stacked and run by ``torch.func.vmap`` over one ``LastToken`` of the
    model; the loss is the sum of the copies' mean cross-entropies, so each copy's gradient is
    the one it would get alone, and ``CopyAdam`` moves each copy at its own rate. Every pass
    shows each fact once, in an order drawn per pass from the copy's seed (which also draws its
    weights), so two seeds differ in initialisation and in data order. Checkpoints: each of
    ``setup.checkpoints`` up to ``exposures`` (default ``setup.exposures``); the table is drawn
    with ``table_seed`` (default ``setup.table_seed``). ``keep_state``: also return the trained
    weights (``GroupResult.state``). ``on_pass(done, exposures)`` is called after each pass (to
    show progress).
    """
    copies = _check_copies(copies)
    exposures = check_positive_int("exposures", setup.exposures if exposures is None else exposures)
    table_seed = setup.table_seed if table_seed is None else table_seed
    table = fact_table(setup, table_seed)
    models = [build_model(architecture, hidden_size, table.vocab_size, s, setup) for _, s in copies]
    check_token_ids(table.inputs, table.vocab_size, models[0].config.max_position_embeddings)
    embedding, non_embedding = parameter_split(models[0])
    nets = [LastToken(m) for m in models]
    params, buffers = stack_module_state(nets)  # each (C, ...)
    template = copy.deepcopy(nets[0])
    adam = CopyAdam(list(params.values()), [lr for lr, _ in copies])

    def logits_of(p: dict, b: dict, x: Tensor) -> Tensor:
        return functional_call(template, (p, b), (x,))  # (B, vocab)

    batched = vmap(logits_of)
    orders = [torch.Generator().manual_seed(1000 * table_seed + seed + 1) for _, seed in copies]
    marks = [c for c in setup.checkpoints if c <= exposures]
    history: list[list[Checkpoint]] = [[] for _ in copies]
    start, cpu_start = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_VMAP_ATTENTION_WARNING)
        for done in range(1, exposures + 1):
            perms = torch.stack([torch.randperm(table.num_facts, generator=g) for g in orders])
            for first in range(0, table.num_facts, setup.batch_size):
                rows = perms[:, first : first + setup.batch_size]  # (C, B): each copy's batch
                train_step(batched, params, buffers, adam, table.inputs[rows], table.targets[rows])
            if done in marks:
                for k, values in enumerate(_evaluate(template, params, buffers, table)):
                    history[k].append(Checkpoint(done, *values))
            if on_pass is not None:
                on_pass(done, exposures)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return GroupResult(
        architecture,
        hidden_size,
        table_seed,
        embedding,
        non_embedding,
        copies,
        tuple(tuple(h) for h in history),
        seconds,
        cpu,
        state={k: v.detach().clone() for k, v in params.items()} if keep_state else None,
    )


def trained_model(
    result: GroupResult, copy_index: int = 0, setup: Setup = SETUP
) -> MiniMindForCausalLM:
    """Copy ``copy_index`` of a group run with ``keep_state=True``, as a model of its own
    (``(B, T)`` ids → ``(B, T, vocab)`` logits; its weights are copies, not views)."""
    if result.state is None:
        raise ValueError("this group kept no weights; run it with run_group(..., keep_state=True)")
    if not 0 <= copy_index < len(result.copies):
        raise ValueError(f"copy_index must be in [0, {len(result.copies)}), got {copy_index}")
    vocab = fact_table(setup, result.table_seed).vocab_size
    seed = result.copies[copy_index][1]
    model = build_model(result.architecture, result.hidden_size, vocab, seed, setup)
    weights = {k.removeprefix("lm."): v[copy_index].clone() for k, v in result.state.items()}
    missing, unexpected = model.load_state_dict(weights, strict=False)
    if unexpected or set(missing) - {"lm_head.weight"}:  # the LM head is tied: stored once
        raise ValueError(f"stored weights do not fit the model: {missing=}, {unexpected=}")
    return model


def name_interaction(model: MiniMindForCausalLM, setup: Setup = SETUP) -> float:
    """How far a model's answer is from a sum of one part per name, from 0 to 1.

    For every relation, the model reads all ``first_names × last_names`` pairs (drawn or not);
    its logits over the attributes, each row centred, form ``X`` of shape ``(first, last, |A|)``.
    Its best additive fit is ``mean over last + mean over first − grand mean`` (a part that
    depends on the first name alone plus one on the last name alone); the share of ``X``'s
    variance that this fit leaves is returned, averaged over the relations. 0: the answer is
    a sum of what each name says; a table that gives every pair its own random attribute needs
    a share near 1.
    """
    s = setup
    firsts = torch.arange(s.first_names).repeat_interleave(s.last_names)  # (P,)
    lasts = s.first_names + torch.arange(s.last_names).repeat(s.first_names)  # (P,)
    attribute_base = s.first_names + s.last_names + s.relations
    shares = []
    net = LastToken(model).eval()
    with torch.no_grad():
        for r in range(s.relations):
            relation = torch.full_like(firsts, s.first_names + s.last_names + r)
            logits = net(torch.stack([firsts, lasts, relation], dim=-1))  # (P, vocab)
            x = logits[:, attribute_base : attribute_base + s.attributes]  # (P, |A|)
            x = (x - x.mean(-1, keepdim=True)).reshape(s.first_names, s.last_names, -1)
            grand = x.mean((0, 1), keepdim=True)
            additive = x.mean(1, keepdim=True) + x.mean(0, keepdim=True) - grand
            shares.append(((x - additive).pow(2).sum() / (x - grand).pow(2).sum()).item())
    return sum(shares) / len(shares)


def best_rate(result: GroupResult) -> float:
    """The rate whose copy holds the most bits at the last checkpoint (ties: the smaller rate)."""
    final = {lr: h[-1].bits for (lr, _), h in zip(result.copies, result.checkpoints, strict=True)}
    return max(sorted(final), key=lambda lr: final[lr])


def _merged(a: GroupResult, b: GroupResult) -> GroupResult:
    """``a``'s copies followed by ``b``'s (one architecture, size and table)."""
    return dataclasses.replace(
        a,
        copies=a.copies + b.copies,
        checkpoints=a.checkpoints + b.checkpoints,
        seconds=a.seconds + b.seconds,
        cpu_seconds=a.cpu_seconds + b.cpu_seconds,
    )


def next_rate(tried: Sequence[float], best: float, ladder: Sequence[float]) -> float | None:
    """The rate to try next when ``best`` is the highest or lowest of ``tried``: the ladder's
    next one beyond it (``None`` when ``best`` lies inside, or the ladder ends)."""
    if best == max(tried):
        higher = [lr for lr in ladder if lr > best]
        return min(higher) if higher else None
    if best == min(tried):
        lower = [lr for lr in ladder if lr < best]
        return max(lower) if lower else None
    return None


T = TypeVar("T")
#: ``report(stage, done, of)``: how far a group's current stage of training has come.
StageReport = Callable[[str, int, int], None]


def _stage(report: StageReport | None, stage: str) -> Callable[[int, int], None] | None:
    """``run_group``'s ``on_pass`` for one stage of a group, or ``None`` without a report."""
    if report is None:
        return None
    return lambda done, of: report(stage, done, of)


def _rates(copies: Sequence[tuple[float, int]]) -> str:
    return ", ".join(f"{lr:g}" for lr, _ in copies)


def run_tuned_group(
    architecture: str,
    hidden_size: int,
    setup: Setup = SETUP,
    table_seed: int | None = None,
    report: StageReport | None = None,
) -> GroupResult:
    """Scan ``setup.lrs`` on ``setup.seeds[0]``, extend the scan along ``setup.lr_ladder``
    while its best rate is at an end, then train the other seeds at the best rate.

    Returns one ``GroupResult`` holding every copy (the scan's, then the other seeds') with
    ``best_lr`` set; each kind and size is read at its own best rate. ``report(stage, done,
    of)``: progress of each stage (the scan, each ladder step, the other seeds).
    """
    first, *others = setup.seeds
    copies = [(lr, first) for lr in setup.lrs]
    scan = run_group(
        architecture,
        hidden_size,
        setup,
        copies,
        table_seed=table_seed,
        on_pass=_stage(report, f"scan {_rates(copies)}"),
    )
    while (
        lr := next_rate([c[0] for c in scan.copies], best_rate(scan), setup.lr_ladder)
    ) is not None:
        one = run_group(
            architecture,
            hidden_size,
            setup,
            [(lr, first)],
            table_seed=table_seed,
            on_pass=_stage(report, f"scan {lr:g}"),
        )
        scan = _merged(scan, one)
    best = best_rate(scan)
    if not others:
        return dataclasses.replace(scan, best_lr=best)
    rest = run_group(
        architecture,
        hidden_size,
        setup,
        [(best, s) for s in others],
        table_seed=table_seed,
        on_pass=_stage(report, f"seeds {', '.join(map(str, others))} at {best:g}"),
    )
    return dataclasses.replace(
        scan,
        copies=scan.copies + rest.copies,
        checkpoints=scan.checkpoints + rest.checkpoints,
        seconds=scan.seconds + rest.seconds,
        cpu_seconds=scan.cpu_seconds + rest.cpu_seconds,
        best_lr=best,
    )


def run_rated_group(
    architecture: str,
    hidden_size: int,
    setup: Setup = SETUP,
    table_seed: int | None = None,
    lr: float = 1e-2,
    report: StageReport | None = None,
) -> GroupResult:
    """Every seed of ``setup.seeds`` at one rate ``lr`` (no scan): how the sweep is re-made
    under other arithmetic at the rates the stored sweep chose."""
    result = run_group(
        architecture,
        hidden_size,
        setup,
        [(lr, s) for s in setup.seeds],
        table_seed=table_seed,
        on_pass=_stage(report, f"seeds at {lr:g}"),
    )
    return dataclasses.replace(result, best_lr=float(lr))


def _run_tuned_group_one_thread(args: tuple, index: int, events: Queue | None) -> GroupResult:
    """One sweep job in a worker process; its progress goes to ``events`` as ``(index, stage,
    done, of)``."""
    torch.set_num_threads(1)

    def report(stage: str, done: int, of: int) -> None:
        if events is not None:
            events.put((index, stage, done, of))

    if len(args) == 4:
        return run_tuned_group(*args, report=report)
    return run_rated_group(*args, report=report)


def _group_name(job: tuple) -> str:
    """``"full h=8 table 0"`` for a sweep job or an ``extend`` job (the group's stored rows)."""
    if isinstance(job[0], list):
        first = job[0][0]
        job = (first["architecture"], first["hidden_size"], None, first["table_seed"])
    architecture, hidden_size, _, table_seed = job[:4]
    return f"{architecture} h={hidden_size} table {table_seed}"


def _run_with_progress(
    worker: Callable[[tuple, int, Queue | None], T], jobs: Sequence[tuple], workers: int
) -> list[T]:
    """``[worker(job, i, events) for each job]`` in ``workers`` processes, results in job order,
    with an overall bar and one bar per worker (``minimind_lab._progress``)."""
    results: dict[int, T] = {}
    with (
        Manager() as manager,
        ProcessPoolExecutor(max_workers=workers) as pool,
        Progress(len(jobs), "groups", slots=workers) as progress,
    ):
        events = manager.Queue()
        pending = {pool.submit(worker, job, i, events): i for i, job in enumerate(jobs)}
        slot_of: dict[int, int] = {}
        while pending:
            finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            while not events.empty():
                index, stage, done, of = events.get()
                if index not in slot_of:
                    free = set(range(workers)) - set(slot_of.values())
                    slot_of[index] = min(free) if free else 0
                if done == 1:
                    progress.start(
                        slot_of[index], f"{_group_name(jobs[index])}: {stage}", of, "pass"
                    )
                progress.step(slot_of[index], done)
            for future in finished:
                index = pending.pop(future)
                results[index] = result = future.result()
                slot_of.pop(index, None)
                progress.finish(_group_line(result))
    return [results[i] for i in range(len(jobs))]


def _group_line(result: object) -> str:
    if isinstance(result, GroupResult):
        return (
            f"{result.architecture} h={result.hidden_size} table {result.table_seed}: best lr "
            f"{result.best_lr:g}, {result.seconds:.0f} s ({result.cpu_seconds:.0f} s CPU)"
        )
    rows, best, cpu = result  # _extend_group's
    first = rows[0]
    return (
        f"{first['architecture']} h={first['hidden_size']} table {first['table_seed']}: best lr "
        f"{best:g} ({cpu:.0f} s CPU added)"
    )


def sweep_jobs(setup: Setup = SETUP) -> list[tuple]:
    """The sweep's groups as ``(architecture, hidden_size, setup, table_seed)``, slowest first."""
    jobs = [
        (a, h, setup, setup.table_seed) for h in setup.hidden_sizes for a in setup.architectures
    ]
    jobs += [(a, h, setup, setup.other_table_seed) for a, h in setup.other_table_groups]
    cost = {"no_mlp_equal": 4, "full_x2": 2, "no_mlp_x2": 2}
    return sorted(jobs, key=lambda job: -cost.get(job[0], 1) * job[1])


def run_sweep(
    setup: Setup = SETUP,
    best_lrs: Mapping[tuple[str, int, int], float] | None = None,
    architectures: Sequence[str] | None = None,
    table_seeds: Sequence[int] | None = None,
) -> list[GroupResult]:
    """Every group of ``sweep_jobs``, ``setup.workers`` processes of one thread each.

    ``best_lrs``: ``{(architecture, size, table_seed): rate}`` to train every seed at that rate
    instead of scanning (``best_lrs_of(record)`` reads them from a stored sweep);
    ``architectures``, ``table_seeds``: only these kinds and tables (default: all).
    """
    jobs = sweep_jobs(setup)
    if architectures is not None:
        jobs = [job for job in jobs if job[0] in architectures]
    if table_seeds is not None:
        jobs = [job for job in jobs if job[3] in table_seeds]
    if best_lrs is not None:
        jobs = [(a, h, s, t, best_lrs[a, h, t]) for a, h, s, t in jobs]
    return _run_with_progress(_run_tuned_group_one_thread, jobs, setup.workers)


def _extend_group(
    args: tuple, index: int = 0, events: Queue | None = None
) -> tuple[list[dict], float, float]:
    """One stored group's rows after ``run_tuned_group``'s ladder step; ``(rows, best, cpu)``."""
    rows, setup = args
    torch.set_num_threads(1)

    def stage(name: str) -> Callable[[int, int], None] | None:
        if events is None:
            return None
        return lambda done, of: events.put((index, name, done, of))

    first, *others = setup.seeds
    arch, h, table = rows[0]["architecture"], rows[0]["hidden_size"], rows[0]["table_seed"]
    scan_rows = [r for r in rows if r["seed"] == first]
    final = {r["lr"]: r["bits"] for r in scan_rows if r["exposures"] == setup.exposures}
    best, cpu = max(sorted(final), key=final.get), 0.0
    while (lr := next_rate(list(final), best, setup.lr_ladder)) is not None:
        one = run_group(arch, h, setup, [(lr, first)], table_seed=table, on_pass=stage(f"{lr:g}"))
        scan_rows += sweep_records([one])
        final[lr], cpu = one.checkpoints[0][-1].bits, cpu + one.cpu_seconds
        best = max(sorted(final), key=final.get)
    other_rows = [r for r in rows if r["seed"] != first]
    if others and best != rows[0]["best_lr"]:
        rest = run_group(
            arch, h, setup, [(best, s) for s in others], table_seed=table, on_pass=stage("seeds")
        )
        other_rows, cpu = sweep_records([rest]), cpu + rest.cpu_seconds
    new_rows = [{**r, "best_lr": best} for r in scan_rows + other_rows]
    return new_rows, best, cpu


def extend_sweep(record: dict, setup: Setup = SETUP) -> dict:
    """A stored sweep made with a shorter rate scan, brought to what ``run_sweep`` makes now:
    each group whose best rate is at an end of its scan gets the next rates of
    ``setup.lr_ladder`` (seed ``setup.seeds[0]``), and, where the best rate moves, the other
    seeds are trained again at it. Returns the new record (the old one is not changed)."""
    keys = [(g["architecture"], g["hidden_size"], g["table_seed"]) for g in record["groups"]]
    by_group = {
        k: [
            r for r in record["rows"] if (r["architecture"], r["hidden_size"], r["table_seed"]) == k
        ]
        for k in keys
    }
    jobs = [(by_group[k], setup) for k in keys]
    done = _run_with_progress(_extend_group, jobs, setup.workers)
    groups = [
        {**g, "best_lr": best, "cpu_seconds": round(g["cpu_seconds"] + cpu, 1)}
        for g, (_, best, cpu) in zip(record["groups"], done, strict=True)
    ]
    return {
        **record,
        "setup": dataclasses.asdict(setup),
        "cpu_seconds": round(sum(g["cpu_seconds"] for g in groups), 1),
        "groups": groups,
        "rows": [r for rows, _, _ in done for r in rows],
    }


def best_lrs_of(record: dict) -> dict[tuple[str, int, int], float]:
    """The rate each group of a stored sweep chose: ``{(architecture, size, table_seed): lr}``."""
    return {
        (g["architecture"], g["hidden_size"], g["table_seed"]): g["best_lr"]
        for g in record["groups"]
    }


def sweep_records(results: Sequence[GroupResult]) -> list[dict]:
    """One plain dict per (architecture, size, table, rate, seed, checkpoint): the stored rows."""
    rows = []
    for g in results:
        for (lr, seed), history in zip(g.copies, g.checkpoints, strict=True):
            for c in history:
                rows.append(
                    {
                        "architecture": g.architecture,
                        "hidden_size": g.hidden_size,
                        "table_seed": g.table_seed,
                        "embedding_params": g.embedding_params,
                        "non_embedding_params": g.non_embedding_params,
                        "lr": lr,
                        "best_lr": g.best_lr,
                        "seed": seed,
                        "exposures": c.exposures,
                        "bits": round(c.bits, 2),
                        "bits_floored": round(c.bits_floored, 2),
                        "accuracy": round(c.accuracy, 5),
                        "loss": round(c.loss, 5),
                    }
                )
    return rows


def write_sweep(
    results: Sequence[GroupResult],
    setup: Setup,
    seconds: float,
    path: Path = SWEEP_PATH,
    arithmetic: str = "reproducible",
) -> Path:
    """Write the record (settings, table bits, seconds, rows) as JSON, atomically."""
    command = "python -m minimind_lab.lessons.l09_capacity sweep"
    record = {
        "command": command
        + ("" if arithmetic == "reproducible" else f" --arithmetic {arithmetic}"),
        "arithmetic": arithmetic,
        "setup": dataclasses.asdict(setup),
        "table_bits": fact_table(setup).bits,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(sum(g.cpu_seconds for g in results), 1),
        "groups": [
            {
                "architecture": g.architecture,
                "hidden_size": g.hidden_size,
                "table_seed": g.table_seed,
                "best_lr": g.best_lr,
                "seconds": round(g.seconds, 1),
                "cpu_seconds": round(g.cpu_seconds, 1),
            }
            for g in results
        ],
        "torch": torch.__version__,
        "cpus": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "minimind_version": "minimind2",
        "rows": sweep_records(results),
    }
    return _write_record(record, path)


def _write_record(record: dict, path: Path) -> Path:
    """Write ``record`` as JSON at ``path``, atomically (a failed write leaves no file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(record, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path


def load_sweep(path: Path = SWEEP_PATH) -> dict:
    """The stored record: ``{"setup", "table_bits", "seconds", "groups", "rows", ...}``."""
    with open(path) as f:
        return json.load(f)


@dataclass(frozen=True)
class Point:
    """One architecture and size on one table at one exposure count, at the group's best rate,
    over its seeds.

    ``bits``, ``bits_floored`` and ``accuracy``: one value per seed (``seeds``' order).
    """

    architecture: str
    hidden_size: int
    exposures: int
    embedding_params: int
    non_embedding_params: int
    seeds: tuple[int, ...]
    bits: tuple[float, ...]
    accuracy: tuple[float, ...]
    lr: float = 1e-2
    table_seed: int = 0
    bits_floored: tuple[float, ...] = ()

    @property
    def params(self) -> int:
        """All parameters: embedding (tied with the LM head) and the rest."""
        return self.embedding_params + self.non_embedding_params

    def bits_per_param(self, count: str = "total") -> tuple[float, ...]:
        """Bits held per parameter, per seed; ``count``: ``"total"`` or ``"non_embedding"``."""
        if count not in ("total", "non_embedding"):
            raise ValueError(f"count must be 'total' or 'non_embedding', got {count!r}")
        n = self.params if count == "total" else self.non_embedding_params
        return tuple(b / n for b in self.bits)


def sweep_points(rows: Sequence[dict], table_seed: int | None = 0) -> list[Point]:
    """The stored rows at each group's best rate, grouped by (architecture, size, table,
    exposures), seeds in stored order; ``table_seed``: keep only that table (``None``: all)."""
    groups: dict[tuple[str, int, int, int], list[dict]] = {}
    for row in rows:
        table = row.get("table_seed", 0)
        if table_seed is not None and table != table_seed:
            continue
        if row.get("best_lr") is not None and row["lr"] != row["best_lr"]:
            continue  # a scanned rate that lost
        key = (row["architecture"], row["hidden_size"], table, row["exposures"])
        groups.setdefault(key, []).append(row)
    points = []
    for (arch, h, table, e), members in groups.items():
        first = members[0]
        points.append(
            Point(
                arch,
                h,
                e,
                first["embedding_params"],
                first["non_embedding_params"],
                tuple(r["seed"] for r in members),
                tuple(r["bits"] for r in members),
                tuple(r["accuracy"] for r in members),
                first.get("lr", 1e-2),
                table,
                tuple(r.get("bits_floored", r["bits"]) for r in members),
            )
        )
    return points


def rate_scan(rows: Sequence[dict], exposures: int, table_seed: int = 0) -> dict:
    """Bits held by the first seed at each scanned rate: ``{(architecture, size): {lr: bits}}``
    at ``exposures``, from the stored rows of ``table_seed``."""
    first_seed = min(r["seed"] for r in rows)
    scan: dict[tuple[str, int], dict[float, float]] = {}
    for row in rows:
        if row["seed"] != first_seed or row["exposures"] != exposures:
            continue
        if row.get("table_seed", 0) != table_seed:
            continue
        scan.setdefault((row["architecture"], row["hidden_size"]), {})[row["lr"]] = row["bits"]
    return scan


def binding_sizes(
    points: Sequence[Point], architectures: Sequence[str], exposures: int, table_bits: float
) -> list[int]:
    """Hidden sizes at which every seed of every named kind holds under 95 % of the table at
    ``exposures``: there capacity, not the table's size, sets the number."""
    sizes = sorted({p.hidden_size for p in points})
    chosen = [p for p in points if p.exposures == exposures and p.architecture in architectures]
    return [
        h
        for h in sizes
        if {p.architecture for p in chosen if p.hidden_size == h} == set(architectures)
        and all(max(p.bits) < 0.95 * table_bits for p in chosen if p.hidden_size == h)
    ]


def mean_bits_per_param(
    points: Sequence[Point], architecture: str, exposures: int, h: int
) -> float:
    """Bits per parameter (all parameters) of one point, the mean over its seeds."""
    (point,) = [
        p
        for p in points
        if (p.architecture, p.exposures, p.hidden_size) == (architecture, exposures, h)
    ]
    values = point.bits_per_param()
    return sum(values) / len(values)


@dataclass(frozen=True)
class Finding:
    """One of Allen-Zhu & Li's findings beside the toy's numbers.

    ``values``: the toy's number at each size in ``sizes`` (mean over seeds); ``rule``: what
    counts as agreement, fixed before the sweep was read (``low ≤ value ≤ high`` at every
    size, ``low < value`` where the paper says "more than", ``paper`` starting with ">");
    ``agrees``: ``None`` where the paper's finding does not cover models this small, so
    no verdict is drawn.
    """

    finding: str
    paper: str
    sizes: tuple[int, ...]
    values: tuple[float, ...]
    low: float
    high: float
    agrees: bool | None


#: The paper's findings the sweep is read against, with the agreement band of each (read from
#: the paper's words: "about 2" as ±20 %, "at least 1" down to 0.9, "keeps the
#: ratio" as a ratio within 0.8–1.25, "more than 1.5×" as above 1.5), and the quantity compared:
#: (label, paper, kind, divided by, exposures, low, high, in the paper's scope).
PAPER_FINDINGS: tuple[tuple[str, str, str, str | None, int, float, float, bool], ...] = (
    (
        tr_noop("~2 bits/param at 1,000 exposures, 1 block"),
        "≈2",
        "full",
        None,
        1000,
        1.6,
        2.4,
        True,
    ),
    (
        tr_noop("~2 bits/param at 1,000 exposures, 2 blocks"),
        "≈2",
        "full_x2",
        None,
        1000,
        1.6,
        2.4,
        True,
    ),
    (
        tr_noop("≥1 bit/param at 100 exposures, 1 block"),
        "≥1",
        "full",
        None,
        100,
        0.9,
        math.inf,
        True,
    ),
    (
        tr_noop("≥1 bit/param at 100 exposures, 2 blocks"),
        "≥1",
        "full_x2",
        None,
        100,
        0.9,
        math.inf,
        True,
    ),
    (
        tr_noop("removing MLPs keeps the ratio at 1,000, 1 block (full ÷ no MLP)"),
        "≈1",
        "full",
        "no_mlp",
        1000,
        0.8,
        1.25,
        True,
    ),
    (
        tr_noop("removing MLPs keeps the ratio at 1,000, 2 blocks (full ÷ no MLP)"),
        "≈1",
        "full_x2",
        "no_mlp_x2",
        1000,
        0.8,
        1.25,
        True,
    ),
    (
        tr_noop("removing MLPs costs >1.5× at 100, 1 block (full ÷ no MLP)"),
        ">1.5",
        "full",
        "no_mlp",
        100,
        1.5,
        math.inf,
        True,
    ),
    (
        tr_noop("removing MLPs costs >1.5× at 100, 2 blocks (full ÷ no MLP)"),
        ">1.5",
        "full_x2",
        "no_mlp_x2",
        100,
        1.5,
        math.inf,
        True,
    ),
    (
        tr_noop("LLaMA ≈1.3× worse at 100, traced to its gated MLP (plain ÷ gated)"),
        "≈1.3",
        "plain_equal",
        "full",
        100,
        1.15,
        1.45,
        False,
    ),
)


#: The kinds the findings with a verdict read: the sweep re-made under other arithmetic holds
#: these, on the first table.
FINDING_ARCHITECTURES = tuple(
    a for a in ARCHITECTURES if any(a in (f[2], f[3]) for f in PAPER_FINDINGS if f[7])
)


def compare_with_paper(points: Sequence[Point], table_bits: float) -> list[Finding]:
    """Each of ``PAPER_FINDINGS`` read from the sweep's points (one table), at the sizes where
    capacity binds for the kinds it compares; a ratio is of mean bits per parameter."""
    findings = []
    for label, paper, kind, other, exposures, low, high, in_scope in PAPER_FINDINGS:
        kinds = (kind,) if other is None else (kind, other)
        sizes = binding_sizes(points, kinds, exposures, table_bits)
        values = []
        for h in sizes:
            value = mean_bits_per_param(points, kind, exposures, h)
            if other is not None:
                value /= mean_bits_per_param(points, other, exposures, h)
            values.append(value)
        above = paper.startswith(">")  # "more than": above ``low``, not at it
        agrees = (
            all((low < v if above else low <= v) and v <= high for v in values)
            if in_scope and values
            else None
        )
        findings.append(
            Finding(table_text(label), paper, tuple(sizes), tuple(values), low, high, agrees)
        )
    return findings


def main(argv: Sequence[str] | None = None) -> None:
    """``sweep``: run the whole sweep and store it (``extend``: widen the stored sweep's rate scan
    as ``sweep`` now does, without re-making the rest); ``--arithmetic``: ``reproducible`` (the
    settings the tests re-run a point under, the default) or ``native`` (the CPU's own kernels,
    as in JupyterLab, every seed at the rates the stored sweep chose, the kinds of
    ``FINDING_ARCHITECTURES`` on the first table only; written to ``NATIVE_SWEEP_PATH`` unless
    ``--out`` says otherwise)."""
    parser = argparse.ArgumentParser(prog="python -m minimind_lab.lessons.l09_capacity")
    parser.add_argument("command", choices=["sweep", "extend"])
    parser.add_argument("--arithmetic", choices=["reproducible", "native"], default="reproducible")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.arithmetic == "reproducible":
        reproducible_cpu()
    out = args.out or (SWEEP_PATH if args.arithmetic == "reproducible" else NATIVE_SWEEP_PATH)
    if args.command == "extend":  # widen the rate scan of the stored sweep in place
        if args.arithmetic != "reproducible":
            raise SystemExit("extend widens the reproducible sweep only")
        record = extend_sweep(load_sweep(), SETUP)
        _write_record(record, out)
        print(f"{len(record['rows'])} rows → {out}")
        return
    # Under other arithmetic the sweep trains every seed at the rates the stored sweep chose,
    # for the kinds and the table the comparison with the paper reads.
    native = args.arithmetic == "native"
    best = best_lrs_of(load_sweep()) if native else None
    kinds, tables = (FINDING_ARCHITECTURES, (SETUP.table_seed,)) if native else (None, None)
    start = time.perf_counter()
    results = run_sweep(SETUP, best, kinds, tables)
    seconds = time.perf_counter() - start
    path = write_sweep(results, SETUP, seconds, out, args.arithmetic)
    cpu = sum(g.cpu_seconds for g in results)
    print(f"{len(results)} groups in {seconds:.0f} s ({cpu:.0f} s CPU in all) → {path}")


if __name__ == "__main__":
    main()
