"""Lesson 07's build-it piece: MiniMind's ``FeedForward``, built from a ``MiniMindConfig``."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..i18n import tr, tr_noop
from ..minimind import FeedForward, MiniMindConfig
from ._compare import (
    ExerciseError,
    Forbidden,
    checker,
    compare_tensor,
    fresh_rng,
    require_function,
    run_learner,
    success,
)

#: ``factory(config)`` → an ``nn.Module``: a class such as ``MyFeedForward`` or a function.
FeedForwardFactory = Callable[[MiniMindConfig], nn.Module]

_KEYS = {"gate_proj.weight", "up_proj.weight", "down_proj.weight"}


def _cases() -> dict[str, tuple[MiniMindConfig, bool]]:
    """Each config the checker tries, with whether the module runs in training mode."""
    return {
        tr_noop("MiniMindConfig(hidden_size=64) (MiniMind2)"): (
            MiniMindConfig(hidden_size=64),
            False,
        ),
        tr_noop("MiniMindConfig(hidden_size=96, version='minimind3')"): (
            MiniMindConfig(hidden_size=96, version="minimind3"),
            False,
        ),
        tr_noop(
            "MiniMindConfig(hidden_size=163, num_attention_heads=1, num_key_value_heads=1, "
            "version='minimind3') (h·π = 512.07, so rounding up gives 576)"
        ): (
            MiniMindConfig(
                hidden_size=163, num_attention_heads=1, num_key_value_heads=1, version="minimind3"
            ),
            False,
        ),
        tr_noop("MiniMindConfig(hidden_size=64, intermediate_size=100)"): (
            MiniMindConfig(hidden_size=64, intermediate_size=100),
            False,
        ),
        tr_noop("MiniMindConfig(hidden_size=32, hidden_act='gelu')"): (
            MiniMindConfig(hidden_size=32, hidden_act="gelu"),
            False,
        ),
        tr_noop("MiniMindConfig(hidden_size=32, dropout=0.5) (MiniMind2), training mode"): (
            MiniMindConfig(hidden_size=32, dropout=0.5),
            True,
        ),
        tr_noop("MiniMindConfig(hidden_size=32, dropout=0.2) (MiniMind2), training mode"): (
            MiniMindConfig(hidden_size=32, dropout=0.2),
            True,
        ),
        tr_noop("MiniMindConfig(hidden_size=32, dropout=0.3) (MiniMind2), eval mode"): (
            MiniMindConfig(hidden_size=32, dropout=0.3),
            False,
        ),
        tr_noop(
            "MiniMindConfig(hidden_size=32, dropout=0.5, version='minimind3'), training mode"
        ): (MiniMindConfig(hidden_size=32, dropout=0.5, version="minimind3"), True),
    }


def _width_mistake(config: MiniMindConfig, got: int) -> str:
    h = config.hidden_size
    known = {
        int(8 * h / 3): tr_noop("int(8h/3) without rounding up to a multiple of 64"),
        64 * math.floor(8 * h / 3 / 64): tr_noop(
            "8h/3 truncated to a multiple of 64 (should round up)"
        ),
        64 * math.ceil(math.pi * h / 64): tr_noop("minimind-3's π rule"),
        64 * math.ceil(int(8 * h / 3) / 64): tr_noop("MiniMind2's 8/3 rule"),
        64 * math.ceil(int(math.pi * h) / 64): tr_noop(
            "h·π cut to an int before rounding up; minimind-3 rounds the real product up"
        ),
        4 * h: tr_noop("4h, the original Transformer's width"),
    }
    if config.intermediate_size is not None:
        return tr(
            "width {got}, but the config sets intermediate_size={given}: "
            "a given width is used as it is, and only a missing one is derived",
            got=got,
            given=config.intermediate_size,
        )
    reason = known.get(got, tr_noop("a width the config does not give"))
    expected = config.derived_intermediate_size()
    return tr(
        "width {got} ({reason}); {version} gives {expected}: derive it with "
        "ml.intermediate_size(config.hidden_size, config.spec.width_rule)",
        got=got,
        reason=tr(reason),
        version=config.version,
        expected=expected,
    )


def _check_parameters(
    module: nn.Module, reference: FeedForward, config: MiniMindConfig, case: str
) -> None:
    ours = {k: tuple(v.shape) for k, v in module.state_dict().items()}
    theirs = {k: tuple(v.shape) for k, v in reference.state_dict().items()}
    biases = sorted(k for k in ours if k.endswith(".bias"))
    if biases:
        raise ExerciseError(
            tr(
                "{case}: bias present ({biases}); MiniMind's three projections are "
                "nn.Linear(..., bias=False)",
                case=case,
                biases=", ".join(biases),
            )
        )
    if set(ours) != _KEYS:
        raise ExerciseError(
            tr(
                "{case}: your module's parameters are {ours}; expected "
                "{keys} (MiniMind's names, so its checkpoints load unchanged)",
                case=case,
                ours=sorted(ours),
                keys=sorted(_KEYS),
            )
        )
    if ours != theirs:
        m = ours["gate_proj.weight"][0]
        expected_m = theirs["gate_proj.weight"][0]
        if m != expected_m:
            raise ExerciseError(f"{case}: {_width_mistake(config, m)}")
        raise ExerciseError(
            tr(
                "{case}: parameter shapes {ours}, expected {theirs}",
                case=case,
                ours=ours,
                theirs=theirs,
            )
        )


def _mistakes(
    ref: FeedForward, config: MiniMindConfig, x: Tensor, seed: int
) -> dict[str, Callable[[], Tensor]]:
    gate, up, down, drop = ref.gate_proj, ref.up_proj, ref.down_proj, ref.dropout

    def seeded(compute: Callable[[], Tensor]) -> Callable[[], Tensor]:
        def run() -> Tensor:
            with fresh_rng(seed), torch.no_grad():
                return compute()

        return run

    def body() -> Tensor:
        return down(ref.act_fn(gate(x)) * up(x))

    mistakes = {
        tr("SiLU applied to the up branch instead of the gate"): seeded(
            lambda: drop(down(gate(x) * ref.act_fn(up(x))))
        ),
        tr("config.hidden_act ignored: SiLU used where the config asks for another activation"): (
            seeded(lambda: drop(down(F.silu(gate(x)) * up(x))))
        ),
        tr(
            "tanh approximation of GELU used where hidden_act='gelu' asks for the exact erf one "
            "(ml.get_activation(config.hidden_act) gives it)"
        ): seeded(lambda: drop(down(F.gelu(gate(x), approximate="tanh") * up(x)))),
        tr("no gate: a plain FFN, down(act(up(x)))"): seeded(lambda: drop(down(ref.act_fn(up(x))))),
        tr("dropout missing: MiniMind2 applies nn.Dropout(config.dropout) after down_proj"): seeded(
            body
        ),
    }
    if config.spec.ffn_dropout:
        mistakes[
            tr(
                "dropout applied in eval mode: F.dropout defaults to training=True; use "
                "nn.Dropout(config.dropout), which follows module.train() and module.eval()"
            )
        ] = seeded(lambda: F.dropout(body(), config.dropout, training=True))
        mistakes[
            tr(
                "the dropout probability is fixed at 0.5; use config.dropout ({p} here)",
                p=config.dropout,
            )
        ] = seeded(lambda: F.dropout(body(), 0.5, training=ref.training))
    else:
        mistakes[
            tr(
                "dropout applied, but minimind-3's FeedForward has none (config.spec.ffn_dropout "
                "is False)"
            )
        ] = seeded(lambda: F.dropout(body(), config.dropout, training=ref.training))
    return mistakes


def _forbidden() -> Forbidden:
    return dict.fromkeys(
        (FeedForward.__init__, FeedForward.forward),
        tr(
            "your module is (or runs) ml.FeedForward, the package's own answer; build the "
            "module yourself: an nn.Module with gate_proj, up_proj, down_proj, act_fn and "
            "dropout, and its forward"
        ),
    )


@checker
def check_feedforward(factory: FeedForwardFactory) -> None:
    """Check ``factory(config)`` against ``ml.FeedForward(config)``; ``ExerciseError`` if off.

    ``factory``: a class (or function) taking a ``MiniMindConfig`` and returning an
    ``nn.Module`` whose forward maps ``(*, hidden_size)`` → ``(*, hidden_size)``; pass the class
    itself, ``check_feedforward(MyFeedForward)``. For each of nine configs (MiniMind2 and
    minimind-3 widths, among them h = 163 where π·h must be rounded up before any cut to an int,
    a given width, GELU, dropout at p = 0.5 and 0.2 in training mode and at p = 0.3 in eval mode,
    minimind-3 with a dropout setting it ignores) the checker compares the parameter names and
    shapes, copies the reference's weights into the module and compares the outputs. A module
    that is, or runs, ``ml.FeedForward`` is refused (``ml.intermediate_size`` and
    ``ml.get_activation`` are fine), and so is a forward that changes its input. Prints one line
    when every config matches.
    """
    require_function(
        "factory", factory, tr("a class or function taking a MiniMindConfig"), classes=True
    )
    cases = _cases()
    g = torch.Generator().manual_seed(707)
    for i, (key, (config, training)) in enumerate(cases.items()):
        case = tr(key)
        with fresh_rng(700 + i):
            module = run_learner(
                factory, case, copy.deepcopy(config), names=("config",), forbidden=_forbidden()
            )
            reference = FeedForward(copy.deepcopy(config))
        if not isinstance(module, nn.Module):
            raise ExerciseError(
                tr(
                    "{case}: your factory returned a {kind}, expected an nn.Module",
                    case=case,
                    kind=type(module).__name__,
                )
            )
        _check_parameters(module, reference, config, case)
        module.load_state_dict(reference.state_dict())
        module.train(training)
        reference.train(training)
        x = torch.randn(2, 5, config.hidden_size, generator=g)
        with fresh_rng(i):
            got = run_learner(module, case, x.clone(), names=("x",), forbidden=_forbidden())
        with fresh_rng(i), torch.no_grad():
            expected = reference(x)
        compare_tensor(
            got,
            expected,
            case=case,
            wrong_versions=_mistakes(reference, config, x, i),
            nan_cause=tr(
                "the forward pass needs no division and no exp of its own: look for a tensor "
                "made with torch.empty, or a division"
            ),
        )
    success(tr("your FeedForward matches ml.FeedForward on {n} configs.", n=len(cases)))
