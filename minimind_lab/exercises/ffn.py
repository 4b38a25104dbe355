"""Lessons 04 and 05's build-it pieces: the plain FFN's forward pass and SwiGLU's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from ..ffn import GatedFFN, PlainFFN
from ..i18n import tr
from ._compare import (
    checker,
    compare_tensor,
    fresh_rng,
    require_function,
    run_learner,
    success,
)

M = TypeVar("M", bound=nn.Module)

#: ``fn(ffn, x)``: a module and ``(*, hidden_size)`` inputs → ``(*, hidden_size)``.
ForwardFn = Callable[[nn.Module, Tensor], Tensor]


def _no_bias(layer: nn.Linear, x: Tensor) -> Tensor:
    return F.linear(x, layer.weight)


def _call_without_forward(fn: ForwardFn, ffn: nn.Module, x: Tensor, case: str) -> Tensor:
    """Run ``fn(ffn, x)`` and refuse an answer that runs the module's own ``forward``, however
    it is reached (``ffn(x)``, ``ffn.forward(x)``, ``type(ffn).forward(ffn, x)``)."""
    forward = type(ffn).forward
    parts = (
        "ffn.gate_proj, ffn.up_proj, ffn.down_proj"
        if isinstance(ffn, GatedFFN)
        else "ffn.up_proj, ffn.act_fn, ffn.down_proj, ffn.dropout"
    )
    message = tr(
        "your code runs the module's own forward (ffn(x), ffn.forward(x) or "
        "{kind}.forward(ffn, x)); write the forward pass from its parts ({parts})",
        kind=type(ffn).__name__,
        parts=parts,
    )
    return run_learner(fn, case, ffn, x.clone(), names=("ffn", "x"), forbidden={forward: message})


def _nan_cause() -> str:
    return tr(
        "the forward pass needs no division and no exp of its own: look for a tensor made with "
        "torch.empty, or a division"
    )


def _plain_cases() -> dict[str, tuple[PlainFFN, Tensor]]:
    g = torch.Generator().manual_seed(404)
    with fresh_rng(404):
        return {
            tr("PlainFFN(8, 32, 'gelu'), x of shape (5, 8)"): (
                PlainFFN(8, 32, "gelu").eval(),
                torch.randn(5, 8, generator=g),
            ),
            tr("PlainFFN(8, 16, 'relu', bias=True), x of shape (2, 3, 8)"): (
                PlainFFN(8, 16, "relu", bias=True).eval(),
                torch.randn(2, 3, 8, generator=g),
            ),
            tr("PlainFFN(6, 12, 'silu', bias=True) in float64, x of shape (4, 6)"): (
                PlainFFN(6, 12, "silu", bias=True).double().eval(),
                torch.randn(4, 6, generator=g, dtype=torch.float64),
            ),
            tr("PlainFFN(8, 32, 'gelu', dropout=0.5) in training mode, x of shape (4, 8)"): (
                PlainFFN(8, 32, "gelu", dropout=0.5).train(),
                torch.randn(4, 8, generator=g),
            ),
            tr("PlainFFN(8, 32, 'gelu', dropout=0.2) in training mode, x of shape (4, 8)"): (
                PlainFFN(8, 32, "gelu", dropout=0.2).train(),
                torch.randn(4, 8, generator=g),
            ),
            tr("PlainFFN(8, 32, 'gelu', dropout=0.3) in eval mode, x of shape (4, 8)"): (
                PlainFFN(8, 32, "gelu", dropout=0.3).eval(),
                torch.randn(4, 8, generator=g),
            ),
        }


def _with_activation(
    act: Callable[[Tensor], Tensor], ffn: PlainFFN, x: Tensor
) -> Callable[[], Tensor]:
    return lambda: ffn.dropout(ffn.down_proj(act(ffn.up_proj(x))))


def _plain_mistakes(ffn: PlainFFN, x: Tensor) -> dict[str, Callable[[], Tensor]]:
    up, down, act, drop = ffn.up_proj, ffn.down_proj, ffn.act_fn, ffn.dropout
    p = drop.p
    mistakes = {
        tr("the activation is applied after down_proj instead of between the two layers"): lambda: (
            drop(act(down(up(x))))
        ),
        tr("no activation: down_proj(up_proj(x)) is one linear map (lesson 02)"): lambda: drop(
            down(up(x))
        ),
        tr("the activation is applied twice, between the layers and after down_proj"): lambda: drop(
            act(down(act(up(x))))
        ),
        tr(
            "bias missing: F.linear with the weight alone drops up_proj's and down_proj's bias"
        ): lambda: drop(_no_bias(down, act(_no_bias(up, x)))),
        tr(
            "tanh approximation of GELU used where the exact erf one is expected "
            "(ffn.act_fn is nn.GELU())"
        ): lambda: drop(down(F.gelu(up(x), approximate="tanh"))),
        tr("dropout missing: in training mode ffn.dropout acts on down_proj's output"): lambda: (
            down(act(up(x)))
        ),
        tr("dropout in the wrong place: on the hidden units instead of on down_proj's output"): (
            lambda: down(drop(act(up(x))))
        ),
        tr(
            "dropout applied in eval mode: F.dropout defaults to training=True; use ffn.dropout, "
            "which follows ffn.train() and ffn.eval() (or pass training=ffn.training)"
        ): lambda: F.dropout(down(act(up(x))), p, training=True),
        tr(
            "the dropout probability is fixed at 0.5; this module's is {p} (use ffn.dropout, or "
            "ffn.dropout.p)",
            p=p,
        ): lambda: F.dropout(down(act(up(x))), 0.5, training=ffn.training),
    }
    if isinstance(act, nn.ReLU):
        mistakes[
            tr(
                "ReLU written as clamp(max=0), which keeps the negative part; ReLU is "
                "clamp(min=0), or call ffn.act_fn"
            )
        ] = _with_activation(lambda h: h.clamp(max=0), ffn, x)
    for name, other in (("GELU", F.gelu), ("ReLU", F.relu), ("SiLU", F.silu)):
        own = type(act).__name__
        mistakes[
            tr(
                "{name} used whatever the module's activation is; call ffn.act_fn ({own} here)",
                name=name,
                own=own,
            )
        ] = _with_activation(other, ffn, x)
    return mistakes


def _compare_forward(
    fn: ForwardFn,
    cases: Mapping[str, tuple[M, Tensor]],
    mistakes: Callable[[M, Tensor], dict[str, Callable[[], Tensor]]],
) -> None:
    for i, (case, (ffn, x)) in enumerate(cases.items()):
        with fresh_rng(i):  # the same dropout mask for the learner, the reference and mistakes
            got = _call_without_forward(fn, ffn, x, case)
        with fresh_rng(i), torch.no_grad():
            expected = ffn(x)
        wrong = {
            key: (lambda compute=compute, i=i: _seeded(compute, i))
            for key, compute in mistakes(ffn, x).items()
        }
        compare_tensor(got, expected, case=case, wrong_versions=wrong, nan_cause=_nan_cause())


def _seeded(compute: Callable[[], Tensor], seed: int) -> Tensor:
    with fresh_rng(seed), torch.no_grad():
        return compute()


@checker
def check_plain_ffn_forward(fn: ForwardFn) -> None:
    """Check ``fn(ffn, x)`` against ``PlainFFN.forward``; raise ``ExerciseError`` if off.

    ``fn`` gets a ``PlainFFN`` and ``x`` of shape ``(*, hidden_size)`` and returns
    ``(*, hidden_size)``, built from ``ffn.up_proj``, ``ffn.act_fn``, ``ffn.down_proj`` and
    ``ffn.dropout``: running the module's own forward (``ffn(x)``, ``ffn.forward(x)``, ...) is
    refused, and so is a function that changes ``x`` or the module. Cases: GELU without bias,
    ReLU and SiLU with bias, float64, dropout in training mode (p = 0.5 and 0.2) and in eval
    mode (p = 0.3). Prints one line when every case matches.
    """
    require_function("fn", fn, tr("a function fn(ffn, x) computing a PlainFFN's forward pass"))
    cases = _plain_cases()
    _compare_forward(fn, cases, _plain_mistakes)
    success(tr("your forward pass matches PlainFFN.forward on {n} cases.", n=len(cases)))


def _gated_cases() -> dict[str, tuple[GatedFFN, Tensor]]:
    g = torch.Generator().manual_seed(505)
    with fresh_rng(505):
        return {
            tr("GatedFFN(8, 24, 'silu'), x of shape (5, 8)"): (
                GatedFFN(8, 24, "silu").eval(),
                torch.randn(5, 8, generator=g),
            ),
            tr("GatedFFN(6, 16, 'silu', bias=True), x of shape (2, 3, 6)"): (
                GatedFFN(6, 16, "silu", bias=True).eval(),
                torch.randn(2, 3, 6, generator=g),
            ),
            tr("GatedFFN(8, 24, 'silu') in float64, x of shape (4, 8)"): (
                GatedFFN(8, 24, "silu").double().eval(),
                torch.randn(4, 8, generator=g, dtype=torch.float64),
            ),
        }


def _gated_mistakes(ffn: GatedFFN, x: Tensor) -> dict[str, Callable[[], Tensor]]:
    gate, up, down = ffn.gate_proj, ffn.up_proj, ffn.down_proj
    return {
        tr("SiLU applied to the up branch instead of the gate"): lambda: down(
            gate(x) * F.silu(up(x))
        ),
        tr("sigmoid on the gate: that is GLU; SwiGLU's gate is SiLU(x) = x·σ(x)"): lambda: down(
            torch.sigmoid(gate(x)) * up(x)
        ),
        tr("GELU on the gate: that is GEGLU; SwiGLU's gate is SiLU"): lambda: down(
            F.gelu(gate(x)) * up(x)
        ),
        tr(
            "GELU's tanh form on the gate (approximate='tanh'): that is GEGLU, with GELU's tanh "
            "approximation; SwiGLU's gate is SiLU"
        ): lambda: down(F.gelu(gate(x), approximate="tanh") * up(x)),
        tr("no activation on the gate: that is the bilinear variant"): lambda: down(
            gate(x) * up(x)
        ),
        tr("SiLU on both branches; only the gate gets it"): lambda: down(
            F.silu(gate(x)) * F.silu(up(x))
        ),
        tr("the branches are added; SwiGLU multiplies them element-wise (逐元素相乘)"): lambda: (
            down(F.silu(gate(x)) + up(x))
        ),
        tr("SiLU applied after the product; it belongs on the gate branch alone"): lambda: down(
            F.silu(gate(x) * up(x))
        ),
        tr("the up branch is missing: down(SiLU(gate(x))) is a plain FFN"): lambda: down(
            F.silu(gate(x))
        ),
        tr("bias missing: F.linear with the weight alone drops the projections' bias"): lambda: (
            _no_bias(down, F.silu(_no_bias(gate, x)) * _no_bias(up, x))
        ),
    }


@checker
def check_swiglu(fn: ForwardFn) -> None:
    """Check ``fn(ffn, x)`` against SwiGLU, ``down(SiLU(gate(x)) * up(x))``; ``ExerciseError``.

    ``fn`` gets a ``GatedFFN`` with ``act="silu"`` and ``x`` of shape ``(*, hidden_size)`` and
    returns ``(*, hidden_size)`` from ``ffn.gate_proj``, ``ffn.up_proj`` and ``ffn.down_proj``:
    running the module's own forward is refused, and so is a function that changes ``x`` or the
    module. Cases: without and with bias, float64. Prints one line when every case matches.
    """
    require_function(
        "fn", fn, tr("a function fn(ffn, x) computing SwiGLU from a GatedFFN's layers")
    )
    cases = _gated_cases()
    _compare_forward(fn, cases, _gated_mistakes)
    success(tr("your SwiGLU matches the reference on {n} cases.", n=len(cases)))
