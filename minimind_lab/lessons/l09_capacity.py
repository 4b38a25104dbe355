"""How much a tiny MiniMind holds, in bits, with and without its MLP (lesson 09).

A fact table: subjects named by two tokens (a first and a last name), a few relations, and for
each (subject, relation) an attribute drawn uniformly from ``|A|`` tokens, so the table holds
``facts · log2|A|`` bits. A fact is the sequence ``first last relation`` whose next token is the
attribute. Models: one MiniMind2 block (``ml.MiniMindForCausalLM``) in four kinds
(``ARCHITECTURES``) and several hidden sizes; copies (seeds) of one kind and size train side by
side as one batch (``torch.func.vmap`` over their stacked weights), each with its own gradient
and its own Adam.
``run_group`` returns bits and accuracy at each exposure checkpoint; ``run_sweep`` runs every
group; ``python -m minimind_lab.lessons.l09_capacity sweep`` writes the stored record
(``data/l09_capacity_sweep.json``) that the notebook, the widget and the figures read.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import os
import re
import tempfile
import time
import unicodedata
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.func import functional_call, stack_module_state, vmap

from .._checks import check_positive_int
from ..ffn import PlainFFN
from ..i18n import tr, tr_noop
from ..minimind import MiniMindConfig
from ..model import MiniMindForCausalLM
from ..runtime import reproducible_cpu, seeded
from ..train import Adam
from ._copies import check_seeds

__all__ = [
    "ARCHITECTURES",
    "ARCHITECTURE_LABELS",
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
    "load_sweep",
    "model_config",
    "parameter_split",
    "run_group",
    "run_sweep",
    "stored_bits",
    "train_step",
    "sweep_points",
    "sweep_records",
    "write_sweep",
]

#: The four kinds of model the sweep compares, each one MiniMind2 block deep.
ARCHITECTURES = ("full", "no_mlp", "no_mlp_equal", "plain_equal")


class _TableLabel(str):
    """A translated label whose format width counts a wide (CJK, full-width) character as the
    two columns a monospace table gives it, so ``f"{label:<44}"`` still lines up in Chinese."""

    def __format__(self, spec: str) -> str:
        wide = sum(unicodedata.east_asian_width(c) in "WF" for c in self)
        found = re.fullmatch(r"(.?[<>^])?(\d+)", spec)
        if wide and found:
            spec = f"{found[1] or ''}{max(0, int(found[2]) - wide)}"
        return format(str(self), spec)


class _Labels(Mapping[str, str]):
    """Each architecture's name for tables, legends and the widget: ``labels[arch]`` is the
    name in the current language (``minimind_lab.i18n``); the English is the catalogue key."""

    def __init__(self, english: dict[str, str]) -> None:
        self._english = dict(english)

    def __getitem__(self, architecture: str) -> str:
        text = tr(self._english[architecture])
        return text if text == self._english[architecture] else _TableLabel(text)

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
    }
)
SWEEP_PATH = Path(__file__).resolve().parent / "data" / "l09_capacity_sweep.json"
#: vmap runs attention's fused kernel once per copy (no batching rule yet) and warns each time.
_VMAP_ATTENTION_WARNING = "There is a performance drop because we have not yet implemented"


@dataclass(frozen=True)
class Setup:
    """Lesson 09's table, models, training and seeds, read by the notebook, widget and figures.

    The table: ``first_names × last_names`` possible subjects of which ``subjects`` are drawn,
    ``relations`` attributes each, every attribute uniform over ``attributes`` tokens.
    Training: Adam at a constant ``lr``, batches of ``batch_size`` facts, every fact once per
    pass, so after ``e`` passes each fact has been seen ``e`` times (its exposures).
    """

    first_names: int = 32
    last_names: int = 32
    subjects: int = 512
    relations: int = 4
    attributes: int = 128
    table_seed: int = 0
    hidden_sizes: tuple[int, ...] = (8, 12, 16)
    num_heads: int = 2
    architectures: tuple[str, ...] = ARCHITECTURES
    seeds: tuple[int, ...] = (0, 1)
    exposures: int = 1000
    checkpoints: tuple[int, ...] = (1, 3, 10, 30, 100, 300, 1000)
    batch_size: int = 1024
    lr: float = 1e-2
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


def fact_table(setup: Setup = SETUP) -> FactTable:
    """The table ``setup`` describes, drawn with ``setup.table_seed`` (the same on every call).

    Subjects are distinct (first, last) pairs; a name appears in many subjects, so neither token
    alone tells the attribute. Shapes: ``inputs (S·R, 3)``, ``targets (S·R,)``.
    """
    s = setup
    pairs = s.first_names * s.last_names
    if not 1 <= s.subjects <= pairs:
        raise ValueError(f"subjects must be in [1, {pairs}] (first × last names), got {s.subjects}")
    for name in ("relations", "attributes"):
        check_positive_int(name, getattr(s, name))
    generator = torch.Generator().manual_seed(s.table_seed)
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


def stored_bits(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    """Bits a model holds about the facts: ``Σ_f max(0, log2|A| − CE_f)``, CE in bits.

    ``logits``: ``(*, F, vocab)`` at the answer position; ``targets``: ``(F,)``. ``CE_f`` is the
    model's cross-entropy on fact ``f`` over its whole vocabulary, in bits; a fact the model
    knows no better than a uniform guess among the ``|A|`` attributes counts 0, one it is sure of
    counts ``log2|A|``. Returns ``(*)`` (float, the logits' dtype).
    """
    if logits.shape[-2] != targets.shape[0]:
        raise ValueError(
            f"logits hold {logits.shape[-2]} facts but targets {targets.shape[0]}; they must match"
        )
    num_attributes = check_positive_int("num_attributes", num_attributes)
    log_probs = logits.log_softmax(dim=-1)  # (*, F, vocab)
    index = targets.expand(*logits.shape[:-1]).unsqueeze(-1)  # (*, F, 1)
    ce_bits = -log_probs.gather(-1, index).squeeze(-1) / math.log(2)  # (*, F)
    return (math.log2(num_attributes) - ce_bits).clamp(min=0).sum(dim=-1)


def model_config(
    architecture: str, hidden_size: int, vocab_size: int, setup: Setup = SETUP
) -> MiniMindConfig:
    """The ``MiniMindConfig`` of one model: one MiniMind2 block, ``setup.num_heads`` heads.

    ``full``: the block as MiniMind2 builds it (SwiGLU, width by the 8/3 rule rounded up to 64);
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
        num_hidden_layers=1,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        vocab_size=vocab_size,
        max_position_embeddings=8,
        version="minimind2",
    )
    if architecture in ("full", "plain_equal"):
        return MiniMindConfig(**common)
    if architecture == "no_mlp":
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
        """``input_ids``: ``(B, T)`` → ``(B, vocab)``."""
        hidden = self.lm.model(input_ids)[:, -1]  # (B, h)
        return self.lm.lm_head(hidden)  # (B, vocab)


@dataclass(frozen=True)
class Checkpoint:
    """One copy's state after ``exposures`` passes: bits held, accuracy, mean loss (nats)."""

    exposures: int
    bits: float
    accuracy: float
    loss: float


@dataclass(frozen=True)
class GroupResult:
    """One architecture and size, trained once per seed: parameters, seconds, checkpoints."""

    architecture: str
    hidden_size: int
    embedding_params: int
    non_embedding_params: int
    seeds: tuple[int, ...]
    checkpoints: tuple[tuple[Checkpoint, ...], ...]  # per seed, per checkpoint
    seconds: float
    cpu_seconds: float


def _evaluate(net: LastToken, params: dict, buffers: dict, table: FactTable) -> list[tuple]:
    """Per copy ``(bits, accuracy, loss)`` on every fact (no gradient)."""
    with torch.no_grad(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_VMAP_ATTENTION_WARNING)
        logits = vmap(lambda p, b: functional_call(net, (p, b), (table.inputs,)))(params, buffers)
        bits = stored_bits(logits, table.targets, table.num_attributes)  # (C,)
        accuracy = (logits.argmax(-1) == table.targets).float().mean(-1)  # (C,)
        loss = torch.stack([F.cross_entropy(x, table.targets) for x in logits])  # (C,)
    return list(zip(bits.tolist(), accuracy.tolist(), loss.tolist(), strict=True))


def train_step(
    batched: Callable[..., Tensor],
    params: dict[str, Tensor],
    buffers: dict[str, Tensor],
    adam: Adam,
    inputs: Tensor,
    targets: Tensor,
) -> None:
    """One Adam step for every copy: ``inputs (B, 3)`` facts, ``targets (B,)`` attributes.

    ``batched(params, buffers, inputs)`` gives the copies' logits ``(C, B, vocab)``; the loss is
    the sum over copies of each copy's mean cross-entropy, so copy ``k``'s gradient is the one
    it would get alone.
    """
    logits = batched(params, buffers, inputs)  # (C, B, vocab)
    copies = logits.shape[0]
    loss = F.cross_entropy(logits.flatten(0, 1), targets.repeat(copies), reduction="sum")
    adam.zero_grad()
    (loss / len(targets)).backward()  # Σ over copies of each copy's mean loss
    adam.step()


def run_group(
    architecture: str,
    hidden_size: int,
    setup: Setup = SETUP,
    seeds: Sequence[int] | None = None,
    exposures: int | None = None,
) -> GroupResult:
    """Train one copy per seed of ``architecture`` at ``hidden_size`` together; measure them.

    The copies' weights are stacked and run by ``torch.func.vmap`` over one ``LastToken`` of the
    model; the loss is the sum of the copies' mean cross-entropies, so each copy's gradient is
    the one it would get alone, and Adam updates each number on its own. Every pass shows each
    fact once, in an order drawn per pass (shared by the copies; the seed draws the weights).
    Checkpoints: each of ``setup.checkpoints`` up to ``exposures`` (default
    ``setup.exposures``).
    """
    seeds = check_seeds(setup.seeds if seeds is None else seeds)
    exposures = check_positive_int("exposures", setup.exposures if exposures is None else exposures)
    table = fact_table(setup)
    models = [build_model(architecture, hidden_size, table.vocab_size, s, setup) for s in seeds]
    embedding, non_embedding = parameter_split(models[0])
    nets = [LastToken(m) for m in models]
    params, buffers = stack_module_state(nets)  # each (C, ...)
    template = copy.deepcopy(nets[0])
    adam = Adam(list(params.values()), lr=setup.lr)

    def logits_of(p: dict, b: dict, x: Tensor) -> Tensor:
        return functional_call(template, (p, b), (x,))  # (B, vocab)

    batched = vmap(logits_of, in_dims=(0, 0, None))
    order = torch.Generator().manual_seed(setup.table_seed + 1)
    marks = [c for c in setup.checkpoints if c <= exposures]
    history: list[list[Checkpoint]] = [[] for _ in seeds]
    start, cpu_start = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_VMAP_ATTENTION_WARNING)
        for done in range(1, exposures + 1):
            perm = torch.randperm(table.num_facts, generator=order)  # this pass's order
            for first in range(0, table.num_facts, setup.batch_size):
                rows = perm[first : first + setup.batch_size]
                train_step(batched, params, buffers, adam, table.inputs[rows], table.targets[rows])
            if done in marks:
                for k, (bits, acc, loss) in enumerate(_evaluate(template, params, buffers, table)):
                    history[k].append(Checkpoint(done, bits, acc, loss))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return GroupResult(
        architecture,
        hidden_size,
        embedding,
        non_embedding,
        seeds,
        tuple(tuple(h) for h in history),
        seconds,
        cpu,
    )


def _run_group_one_thread(args: tuple) -> GroupResult:
    torch.set_num_threads(1)
    result = run_group(*args)
    print(
        f"{result.architecture} h={result.hidden_size}: {result.seconds:.0f} s "
        f"({result.cpu_seconds:.0f} s CPU)",
        flush=True,
    )
    return result


def run_sweep(setup: Setup = SETUP) -> list[GroupResult]:
    """Every (architecture, hidden size) group, ``setup.workers`` processes of one thread each."""
    jobs = [(a, h, setup) for h in setup.hidden_sizes for a in setup.architectures]
    jobs.sort(key=lambda job: -job[1])  # the largest first: the two workers end closer together
    with ProcessPoolExecutor(max_workers=setup.workers) as pool:
        return list(pool.map(_run_group_one_thread, jobs))


def sweep_records(results: Sequence[GroupResult]) -> list[dict]:
    """One plain dict per (architecture, size, seed, checkpoint): the stored rows."""
    rows = []
    for g in results:
        for seed, history in zip(g.seeds, g.checkpoints, strict=True):
            for c in history:
                rows.append(
                    {
                        "architecture": g.architecture,
                        "hidden_size": g.hidden_size,
                        "embedding_params": g.embedding_params,
                        "non_embedding_params": g.non_embedding_params,
                        "seed": seed,
                        "exposures": c.exposures,
                        "bits": round(c.bits, 2),
                        "accuracy": round(c.accuracy, 5),
                        "loss": round(c.loss, 5),
                    }
                )
    return rows


def write_sweep(
    results: Sequence[GroupResult], setup: Setup, seconds: float, path: Path = SWEEP_PATH
) -> Path:
    """Write the record (settings, table bits, seconds, rows) as JSON, atomically."""
    record = {
        "command": "python -m minimind_lab.lessons.l09_capacity sweep",
        "setup": dataclasses.asdict(setup),
        "table_bits": fact_table(setup).bits,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(sum(g.cpu_seconds for g in results), 1),
        "groups": [
            {
                "architecture": g.architecture,
                "hidden_size": g.hidden_size,
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
    """The stored record: ``{"setup", "table_bits", "seconds", "rows", ...}``."""
    with open(path) as f:
        return json.load(f)


@dataclass(frozen=True)
class Point:
    """One architecture and size at one exposure count, over its seeds.

    ``bits`` and ``accuracy``: one value per seed (``seeds``' order).
    """

    architecture: str
    hidden_size: int
    exposures: int
    embedding_params: int
    non_embedding_params: int
    seeds: tuple[int, ...]
    bits: tuple[float, ...]
    accuracy: tuple[float, ...]

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


def sweep_points(rows: Sequence[dict]) -> list[Point]:
    """The stored rows grouped by (architecture, size, exposures), seeds in stored order."""
    groups: dict[tuple[str, int, int], list[dict]] = {}
    for row in rows:
        key = (row["architecture"], row["hidden_size"], row["exposures"])
        groups.setdefault(key, []).append(row)
    points = []
    for (arch, h, e), members in groups.items():
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
            )
        )
    return points


def main(argv: Sequence[str] | None = None) -> None:
    """``sweep``: run the whole sweep under the reproducible settings and store it."""
    parser = argparse.ArgumentParser(prog="python -m minimind_lab.lessons.l09_capacity")
    parser.add_argument("command", choices=["sweep"])
    parser.add_argument("--out", type=Path, default=SWEEP_PATH)
    args = parser.parse_args(argv)
    reproducible_cpu()  # the settings the tests re-run a point under
    start = time.perf_counter()
    results = run_sweep(SETUP)
    seconds = time.perf_counter() - start
    path = write_sweep(results, SETUP, seconds, args.out)
    cpu = sum(g.cpu_seconds for g in results)
    print(f"{len(results)} groups in {seconds:.0f} s ({cpu:.0f} s CPU in all) → {path}")


if __name__ == "__main__":
    main()
