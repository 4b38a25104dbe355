"""The build-it checkers: each passes correct answers written several ways and names each known
wrong version, each misuse of the checker and each broken promise (no module call, no autograd,
no package piece, inputs left unchanged)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import Tensor, nn

import minimind_lab as ml
from minimind_lab.exercises import (
    ExerciseError,
    check_activation_derivative,
    check_causal_attention_weights,
    check_collapse,
    check_fact_bits,
    check_feedforward,
    check_patching_hook,
    check_plain_ffn_forward,
    check_swiglu,
    check_top_k_routing,
    check_width_rule,
)
from minimind_lab.exercises.attention import causal_attention_weights
from minimind_lab.exercises.capacity import fact_bits
from minimind_lab.exercises.collapse import collapse_two
from minimind_lab.exercises.routing import top_k_routing
from minimind_lab.i18n import language
from minimind_lab.lessons.registry import LESSONS


def rejects(check: Callable[..., None], piece: object, *words: str, **kwargs: object) -> str:
    """Run ``check`` on a wrong ``piece``; its message must contain every one of ``words``."""
    with pytest.raises(ExerciseError) as info:
        check(piece, **kwargs)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def refuses_argument(check: Callable[..., None], piece: object, *words: str) -> str:
    """``check`` refuses ``piece`` as an argument (``ValueError``) with every one of ``words``."""
    with pytest.raises(ValueError) as info:
        check(piece)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def passes(check: Callable[..., None], piece: object, capsys, **kwargs: object) -> None:
    check(piece, **kwargs)
    out = capsys.readouterr().out
    assert out.startswith("Correct:") and out.count("\n") == 1, out


CHECKERS = [
    check_activation_derivative,
    check_causal_attention_weights,
    check_collapse,
    check_fact_bits,
    check_feedforward,
    check_patching_hook,
    check_plain_ffn_forward,
    check_swiglu,
    check_top_k_routing,
    check_width_rule,
]


@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("bad", [3, "fn", None])
def test_a_checker_refuses_what_is_not_callable(check, bad) -> None:
    with pytest.raises(ValueError, match=f"got {bad!r}"):
        check(bad)


def test_checkers_refuse_unknown_options() -> None:
    with pytest.raises(ValueError, match="'softplus'"):
        check_activation_derivative(torch.sigmoid, name="softplus")
    with pytest.raises(ValueError, match="'llama'"):
        check_width_rule(lambda h: h, version="llama")
    with pytest.raises(ValueError, match="renormalize"):
        check_top_k_routing(route, renormalize="yes")


def test_a_checker_leaves_the_callers_rng_alone(capsys) -> None:
    torch.manual_seed(0)
    state = torch.get_rng_state()
    check_plain_ffn_forward(plain_forward)
    check_feedforward(MyFeedForward)
    check_causal_attention_weights(masked_weights)
    assert torch.equal(torch.get_rng_state(), state)


def test_an_exception_in_the_learners_code_names_the_case() -> None:
    def broken(q: Tensor, k: Tensor) -> Tensor:
        raise RuntimeError("shapes do not match")

    rejects(check_causal_attention_weights, broken, "one position", "RuntimeError", "shapes do")


def _not_written(*args: object, **kwargs: object) -> object:
    raise NotImplementedError


@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
def test_an_unwritten_piece_is_reported_as_not_written_yet(check, capsys) -> None:
    """A work cell runs as given: its body raises NotImplementedError, its checker says so."""
    check(_not_written)
    assert capsys.readouterr().out.startswith("Not written yet: replace the line that raises")


def test_an_unwritten_forward_or_hook_is_reported_as_not_written_yet(capsys) -> None:
    class Unwritten(nn.Module):
        def __init__(self, config: ml.MiniMindConfig) -> None:
            super().__init__()
            raise NotImplementedError

        def forward(self, x: Tensor) -> Tensor:
            raise NotImplementedError

    check_feedforward(Unwritten)
    check_patching_hook(lambda clean, position: _not_written)
    assert capsys.readouterr().out.count("Not written yet") == 2


def test_a_message_reads_in_chinese_too() -> None:
    def inplace(q: Tensor, k: Tensor) -> Tensor:
        q /= math.sqrt(q.shape[-1])
        return masked_weights(q * math.sqrt(q.shape[-1]), k)

    with language("zh"):
        message = rejects(check_causal_attention_weights, inplace, "原地改动了输入 q")
    assert "in place" not in message


# --- lesson 01: causal attention weights ----------------------------------------------------


def masked_weights(q: Tensor, k: Tensor) -> Tensor:
    """The notebook's answer: a boolean mask of the future, -inf before the softmax."""
    t, d = q.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    future = torch.ones(t, t, dtype=torch.bool).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf")).softmax(dim=-1)


def additive_mask_weights(q: Tensor, k: Tensor) -> Tensor:
    d, t = q.shape[-1], q.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    mask = torch.full((t, t), float("-inf"), dtype=q.dtype).triu(1)
    return torch.softmax(scores + mask, dim=-1)


def sdpa_weights(q: Tensor, k: Tensor) -> Tensor:
    """Attention applied to the identity matrix as values gives the weights themselves."""
    t = q.shape[-2]
    eye = torch.eye(t, dtype=q.dtype).expand(*q.shape[:-1], t)
    return F.scaled_dot_product_attention(q, k, eye, is_causal=True)


def einsum_weights(q: Tensor, k: Tensor) -> Tensor:
    scores = torch.einsum("...id,...jd->...ij", q, k) * q.shape[-1] ** -0.5
    keep = torch.tril(torch.ones_like(scores, dtype=torch.bool))
    scores = torch.where(keep, scores, torch.finfo(q.dtype).min)
    return (
        (scores - scores.amax(-1, keepdim=True)).exp()
        * keep
        / (((scores - scores.amax(-1, keepdim=True)).exp() * keep).sum(-1, keepdim=True))
    )


@pytest.mark.parametrize(
    "answer", [masked_weights, additive_mask_weights, sdpa_weights, einsum_weights]
)
def test_attention_passes_answers_written_four_ways(answer, capsys) -> None:
    passes(check_causal_attention_weights, answer, capsys)


def _scores(q: Tensor, k: Tensor) -> Tensor:
    return q @ k.transpose(-2, -1)


def _scaled(q: Tensor, k: Tensor) -> Tensor:
    return _scores(q, k) / math.sqrt(q.shape[-1])


def _tril(q: Tensor) -> Tensor:
    t = q.shape[-2]
    return torch.ones(t, t, dtype=torch.bool).tril()


def _renormalised(q: Tensor, k: Tensor) -> Tensor:
    kept = _scaled(q, k).softmax(-1) * _tril(q)
    return kept / kept.sum(-1, keepdim=True)


def _naive_exp(q: Tensor, k: Tensor) -> Tensor:
    e = _scaled(q, k).masked_fill(~_tril(q), float("-inf")).exp()
    return e / e.sum(-1, keepdim=True)


def _exp_times_mask(q: Tensor, k: Tensor) -> Tensor:
    e = _scaled(q, k).exp() * _tril(q)
    return e / e.sum(-1, keepdim=True)


def _divides_q_in_place(q: Tensor, k: Tensor) -> Tensor:
    q /= math.sqrt(q.shape[-1])
    return _scores(q, k).masked_fill(~_tril(q), float("-inf")).softmax(-1)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (
            lambda q, k: _scores(q, k).masked_fill(~_tril(q), float("-inf")).softmax(-1),
            ("not divided by √d",),
        ),
        (
            lambda q, k: (
                (_scores(q, k) / q.shape[-1]).masked_fill(~_tril(q), -math.inf).softmax(-1)
            ),
            ("divided by d where",),
        ),
        (
            lambda q, k: (
                (_scores(q, k) / math.sqrt(q.shape[-2]))
                .masked_fill(~_tril(q), float("-inf"))
                .softmax(-1)
            ),
            ("divided by √T", "the scale is √d"),
        ),
        (
            lambda q, k: masked_weights(k, q),
            ("k·qᵀ",),
        ),
        (lambda q, k: _scaled(q, k).softmax(-1), ("no causal mask",)),
        (
            lambda q, k: _scaled(q, k).masked_fill(~_tril(q).T, float("-inf")).softmax(-1),
            ("wrong way round",),
        ),
        (
            lambda q, k: _scaled(q, k).masked_fill(~_tril(q).tril(-1), float("-inf")).softmax(-1),
            ("hides the diagonal", "row 0"),
        ),
        (
            lambda q, k: _scaled(q, k).masked_fill(~_tril(q), float("-inf")).softmax(-2),
            ("wrong dimension",),
        ),
        (
            lambda q, k: _scaled(q, k).masked_fill(~_tril(q), float("-inf")).softmax(0),
            ("a batch of heads", "dim 0"),
        ),
        (lambda q, k: _scaled(q, k).softmax(-1) * _tril(q), ("after the softmax",)),
        (_renormalised, ("large scores", "renormalised", "0/0 = NaN")),
        (
            lambda q, k: _scaled(q, k).masked_fill(~_tril(q), 0.0).softmax(-1),
            ("set to 0, not -inf",),
        ),
        (_naive_exp, ("large scores", "without subtracting each row's maximum")),
        (_exp_times_mask, ("large scores", "NaN or infinity", "all -inf", "overflows")),
        (_divides_q_in_place, ("changed its input q in place", "q /=")),
        (lambda q, k: masked_weights(q.float(), k.float()), ("float64", "dtype should follow")),
        (lambda q, k: masked_weights(q, k)[..., 0], ("shape",)),
        (causal_attention_weights, ("checker's own reference",)),
    ],
)
def test_attention_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_causal_attention_weights, wrong, *words)


def test_attention_draws_enough_large_cases_to_catch_a_late_renormalisation() -> None:
    """The renormalised softmax is right wherever no row underflows: the first draws may pass,
    the check still finds the NaN on one of its draws."""
    message = rejects(check_causal_attention_weights, _renormalised, "renormalised")
    assert re.search(r"draw \d of 5", message), message


# --- lesson 02: linear collapse ---------------------------------------------------------------


def _wb(layer: nn.Linear) -> tuple[Tensor, Tensor]:
    bias = layer.bias if layer.bias is not None else torch.zeros(layer.out_features)
    return layer.weight, bias.to(layer.weight.dtype)


def collapse_pair(first: nn.Linear, second: nn.Linear) -> tuple[Tensor, Tensor]:
    """The notebook's answer: a (weight, bias) pair."""
    (w1, b1), (w2, b2) = _wb(first), _wb(second)
    return w2 @ w1, w2 @ b1 + b2


def collapse_to_a_layer(first: nn.Linear, second: nn.Linear) -> nn.Linear:
    layer = nn.Linear(first.in_features, second.out_features, dtype=first.weight.dtype)
    weight, bias = collapse_pair(first, second)
    layer.weight.copy_(weight)
    layer.bias.copy_(bias)
    return layer


def collapse_by_probing(first: nn.Linear, second: nn.Linear) -> tuple[Tensor, Tensor]:
    """Run the two layers on 0 and on the unit vectors: the map's bias and its columns."""
    eye = torch.eye(first.in_features, dtype=first.weight.dtype)
    zero = torch.zeros(1, first.in_features, dtype=first.weight.dtype)
    bias = second(first(zero))[0]
    return (second(first(eye)) - bias).T, bias


@pytest.mark.parametrize("answer", [collapse_pair, collapse_to_a_layer, collapse_by_probing])
def test_collapse_passes_answers_written_three_ways(answer, capsys) -> None:
    passes(check_collapse, answer, capsys)


def _doubles_the_weight(a: nn.Linear, b: nn.Linear) -> tuple[Tensor, Tensor]:
    a.weight.data.mul_(2)
    return collapse_pair(a, b)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda a, b: (a.weight @ b.weight, collapse_pair(a, b)[1]), ("wrong order",)),
        (lambda a, b: (collapse_pair(a, b)[0].T, collapse_pair(a, b)[1]), ("transposed",)),
        (lambda a, b: (collapse_pair(a, b)[0], _wb(a)[1] + _wb(b)[1]), ("b1 + b2",)),
        (lambda a, b: (collapse_pair(a, b)[0], _wb(b)[1]), ("W2·b1 is missing",)),
        (lambda a, b: (collapse_pair(a, b)[0], b.weight @ _wb(a)[1]), ("b2 is missing",)),
        (lambda a, b: (collapse_pair(a, b)[0], None), ("no bias",)),
        (lambda a, b: (b.weight @ a.weight, b.weight @ a.bias + b.bias), ("without a bias",)),
        (lambda a, b: b.weight @ a.weight, ("returned a Tensor",)),
        (_doubles_the_weight, ("changed the weights of first in place",)),
        (lambda a, b: ml.collapse_linear([a, b]), ("ml.collapse_linear",)),
        (collapse_two, ("ml.collapse_linear",)),
    ],
)
def test_collapse_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_collapse, wrong, *words)


# --- lesson 03: an activation's derivative ----------------------------------------------------


def gelu_slope(x: Tensor) -> Tensor:
    """The notebook's answer: the product rule on x·Φ(x)."""
    cdf = 0.5 * (1 + torch.erf(x / math.sqrt(2)))
    return cdf + x * torch.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def gelu_slope_erfc(x: Tensor) -> Tensor:
    return 0.5 * torch.erfc(-x / math.sqrt(2)) + x * torch.exp(-0.5 * x**2) * (2 * math.pi) ** -0.5


def gelu_slope_ndtr(x: Tensor) -> Tensor:
    density = torch.exp(torch.distributions.Normal(0.0, 1.0).log_prob(x.double())).to(x.dtype)
    return torch.special.ndtr(x) + x * density


def _tanh_gelu_slope(x: Tensor) -> Tensor:
    c = math.sqrt(2 / math.pi)
    t = torch.tanh(c * (x + 0.044715 * x**3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x)


def _silu_slope(x: Tensor) -> Tensor:
    s = torch.sigmoid(x)
    return s + x * s * (1 - s)


HAND_WRITTEN = {
    "gelu": [gelu_slope, gelu_slope_erfc, gelu_slope_ndtr],
    "gelu_pytorch_tanh": [_tanh_gelu_slope],
    "silu": [_silu_slope, lambda x: torch.sigmoid(x) * (1 + x * torch.sigmoid(-x))],
    "swish": [_silu_slope],
    "relu": [
        lambda x: (x > 0).to(x.dtype),
        lambda x: torch.heaviside(x, torch.zeros((), dtype=x.dtype)),
        lambda x: torch.where(x > 0, 1.0, 0.0).to(x.dtype),
    ],
    "sigmoid": [
        lambda x: torch.sigmoid(x) * (1 - torch.sigmoid(x)),
        lambda x: torch.sigmoid(x) * torch.sigmoid(-x),
        lambda x: 0.25 / torch.cosh(x / 2) ** 2,
    ],
    "tanh": [
        lambda x: 1 - torch.tanh(x) ** 2,
        lambda x: 1 / torch.cosh(x) ** 2,
        lambda x: 4 * torch.sigmoid(2 * x) * torch.sigmoid(-2 * x),
    ],
    "identity": [torch.ones_like, lambda x: x * 0 + 1, lambda x: torch.full_like(x, 1.0)],
}


def test_every_activation_has_a_hand_written_slope() -> None:
    assert set(HAND_WRITTEN) == set(ml.ACTIVATION_NAMES)


@pytest.mark.parametrize(
    ("name", "slope"),
    [(name, slope) for name, slopes in HAND_WRITTEN.items() for slope in slopes],
)
def test_derivatives_written_by_hand_pass(name, slope, capsys) -> None:
    passes(check_activation_derivative, slope, capsys, name=name)


def _autograd(x: Tensor) -> Tensor:
    x = x.detach().requires_grad_()
    (grad,) = torch.autograd.grad(F.gelu(x).sum(), x)
    return grad


def _backward(x: Tensor) -> Tensor:
    x = x.detach().requires_grad_()
    F.gelu(x).sum().backward()
    assert x.grad is not None
    return x.grad


def _func_grad(x: Tensor) -> Tensor:
    return torch.func.grad(lambda t: F.gelu(t).sum())(x)


def _clamps_in_place(x: Tensor) -> Tensor:
    return (x.clamp_(min=0) > 0).to(x.dtype)


@pytest.mark.parametrize(
    ("name", "wrong", "words"),
    [
        ("gelu", lambda x: 0.5 * (1 + torch.erf(x / math.sqrt(2))), ("x·φ(x) is missing",)),
        (
            "gelu",
            _tanh_gelu_slope,
            ("tanh approximation of GELU used where the exact erf one is expected",),
        ),
        ("gelu", F.gelu, ("the activation itself",)),
        (
            "gelu",
            lambda x: x * torch.exp(-x * x / 2) / math.sqrt(2 * math.pi),
            ("Φ(x) is missing",),
        ),
        (
            "gelu",
            lambda x: 0.5 * (1 + torch.erf(x / math.sqrt(2))) + torch.exp(-x * x / 2) / 2.5066283,
            ("Φ(x) + φ(x)",),
        ),
        (
            "gelu",
            lambda x: F.gelu(x) / x + x * torch.exp(-x * x / 2) / math.sqrt(2 * math.pi),
            ("(0 included)", "gelu(x)/x", "0/0 = NaN at x = 0"),
        ),
        (
            "gelu",
            lambda x: 0.5 * (1 + torch.erf(x / math.sqrt(2))) + x * torch.exp(-x * x / 2),
            ("1/√(2π)",),
        ),
        ("gelu", lambda x: _silu_slope(x), ("derivative of silu",)),
        ("gelu", lambda x: gelu_slope(x).flatten(), ("shape",)),
        ("silu", torch.sigmoid, ("σ(x) only",)),
        ("silu", lambda x: torch.sigmoid(x) * (1 - torch.sigmoid(x)), ("derivative of sigmoid",)),
        (
            "silu",
            lambda x: F.silu(x) / x * (1 + x * (1 - torch.sigmoid(x))),
            ("silu(x)/x", "0/0 = NaN at x = 0"),
        ),
        (
            "silu",
            lambda x: torch.where(x == 6, torch.nan, _silu_slope(x)),
            ("NaN or infinity", "division by x"),
        ),
        ("relu", lambda x: (x >= 0).to(x.dtype), ("(0 included)", "at x = 0")),
        ("relu", lambda x: (x > 0).float(), ("float64", "dtype")),
        ("relu", lambda x: x > 0, ("right values", "torch.bool", "dtype should follow")),
        ("relu", lambda x: (x < 0).to(x.dtype), ("clamp(max=0)",)),
        ("relu", _clamps_in_place, ("changed its input x in place",)),
        ("tanh", lambda x: 1 - torch.tanh(x), ("squared",)),
        ("tanh", lambda x: 1 - x * x, ("1 − x²",)),
        ("sigmoid", lambda x: torch.sigmoid(x) * (1 + torch.sigmoid(x)), ("σ(x)(1 + σ(x))",)),
        ("identity", torch.zeros_like, ("slope is 1 everywhere",)),
        ("gelu", _autograd, ("uses autograd", "torch.no_grad()")),
        ("gelu", _backward, ("uses autograd",)),
        ("gelu", _func_grad, ("uses autograd",)),
        ("gelu", lambda x: ml.activation_derivative("gelu", x), ("ml.activation_derivative",)),
    ],
)
def test_derivative_rejects_each_known_mistake(name, wrong, words) -> None:
    message = rejects(check_activation_derivative, wrong, *words, name=name)
    assert "the activation itself" not in message or wrong is F.gelu, message


# --- lesson 04: PlainFFN.forward ---------------------------------------------------------------


def plain_forward(ffn, x: Tensor) -> Tensor:
    """The notebook's answer."""
    return ffn.dropout(ffn.down_proj(ffn.act_fn(ffn.up_proj(x))))


def plain_forward_by_hand(ffn, x: Tensor) -> Tensor:
    """F.linear with each layer's weight and bias, and F.dropout that follows the mode."""
    up, down = ffn.up_proj, ffn.down_proj
    hidden = ffn.act_fn(F.linear(x, up.weight, up.bias))
    out = F.linear(hidden, down.weight, down.bias)
    return F.dropout(out, ffn.dropout.p, training=ffn.training)


def plain_forward_with_matmul(ffn, x: Tensor) -> Tensor:
    hidden = x @ ffn.up_proj.weight.T
    if ffn.up_proj.bias is not None:
        hidden = hidden + ffn.up_proj.bias
    out = ffn.act_fn(hidden) @ ffn.down_proj.weight.T
    if ffn.down_proj.bias is not None:
        out = out + ffn.down_proj.bias
    return ffn.dropout(out)


@pytest.mark.parametrize(
    "answer", [plain_forward, plain_forward_by_hand, plain_forward_with_matmul]
)
def test_plain_forward_passes_answers_written_three_ways(answer, capsys) -> None:
    passes(check_plain_ffn_forward, answer, capsys)


def _relu_as_clamp_max(f, x: Tensor) -> Tensor:
    hidden = f.up_proj(x)
    hidden = hidden.clamp(max=0) if isinstance(f.act_fn, nn.ReLU) else f.act_fn(hidden)
    return f.dropout(f.down_proj(hidden))


def _scales_x_in_place(f, x: Tensor) -> Tensor:
    x.mul_(1.0).add_(0.0)
    x[..., 0] = 0.0
    return plain_forward(f, x)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda f, x: f.dropout(f.act_fn(f.down_proj(f.up_proj(x)))), ("after down_proj",)),
        (lambda f, x: f.dropout(f.down_proj(f.up_proj(x))), ("no activation",)),
        (lambda f, x: f.dropout(f.act_fn(f.down_proj(f.act_fn(f.up_proj(x))))), ("twice",)),
        (
            lambda f, x: f.dropout(
                F.linear(f.act_fn(F.linear(x, f.up_proj.weight)), f.down_proj.weight)
            ),
            ("bias missing",),
        ),
        (
            lambda f, x: f.dropout(f.down_proj(F.gelu(f.up_proj(x), approximate="tanh"))),
            ("tanh approximation of GELU used where the exact erf one is expected",),
        ),
        (lambda f, x: f.dropout(f.down_proj(F.gelu(f.up_proj(x)))), ("GELU used whatever",)),
        (lambda f, x: f.down_proj(f.act_fn(f.up_proj(x))), ("dropout missing",)),
        (lambda f, x: f.down_proj(f.dropout(f.act_fn(f.up_proj(x)))), ("dropout in the wrong",)),
        (
            lambda f, x: F.dropout(f.down_proj(f.act_fn(f.up_proj(x))), f.dropout.p),
            ("dropout=0.3) in eval mode", "dropout applied in eval mode", "training=True"),
        ),
        (
            lambda f, x: F.dropout(f.down_proj(f.act_fn(f.up_proj(x))), 0.5, training=f.training),
            ("dropout=0.2) in training mode", "fixed at 0.5", "0.2"),
        ),
        (_relu_as_clamp_max, ("clamp(max=0)", "clamp(min=0)")),
        (_scales_x_in_place, ("changed its input x in place",)),
        (lambda f, x: f(x), ("runs the module's own forward", "ffn.up_proj")),
        (lambda f, x: f.forward(x), ("runs the module's own forward",)),
        (lambda f, x: type(f).forward(f, x), ("runs the module's own forward",)),
        (lambda f, x: ml.PlainFFN.forward(f, x), ("runs the module's own forward",)),
        (lambda f, x: plain_forward(f, x).float(), ("float64", "dtype")),
    ],
)
def test_plain_forward_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_plain_ffn_forward, wrong, *words)


@pytest.mark.parametrize("check", [check_plain_ffn_forward, check_swiglu])
def test_an_ffn_checker_refuses_a_module_where_a_function_is_asked(check) -> None:
    with ml.seeded(0):
        module = ml.GatedFFN(8, 16)
    refuses_argument(check, module, "an instance of GatedFFN", "pass your function")
    refuses_argument(check, ml.PlainFFN, "module class PlainFFN", "pass your function")


# --- lesson 05: SwiGLU ----------------------------------------------------------------------


def swiglu(ffn, x: Tensor) -> Tensor:
    """The notebook's answer."""
    return ffn.down_proj(F.silu(ffn.gate_proj(x)) * ffn.up_proj(x))


def swiglu_by_sigmoid(ffn, x: Tensor) -> Tensor:
    gate = ffn.gate_proj(x)
    return ffn.down_proj(gate * torch.sigmoid(gate) * ffn.up_proj(x))


def swiglu_with_act_fn(ffn, x: Tensor) -> Tensor:
    return ffn.down_proj(torch.mul(ffn.act_fn(ffn.gate_proj(x)), ffn.up_proj(x)))


@pytest.mark.parametrize("answer", [swiglu, swiglu_by_sigmoid, swiglu_with_act_fn])
def test_swiglu_passes_answers_written_three_ways(answer, capsys) -> None:
    passes(check_swiglu, answer, capsys)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (
            lambda f, x: f.down_proj(f.gate_proj(x) * F.silu(f.up_proj(x))),
            ("SiLU applied to the up branch instead of the gate",),
        ),
        (lambda f, x: f.down_proj(torch.sigmoid(f.gate_proj(x)) * f.up_proj(x)), ("GLU",)),
        (lambda f, x: f.down_proj(F.gelu(f.gate_proj(x)) * f.up_proj(x)), ("GELU on the gate",)),
        (
            lambda f, x: f.down_proj(F.gelu(f.gate_proj(x), approximate="tanh") * f.up_proj(x)),
            ("GELU's tanh form on the gate",),
        ),
        (lambda f, x: f.down_proj(f.gate_proj(x) * f.up_proj(x)), ("bilinear",)),
        (lambda f, x: f.down_proj(F.silu(f.gate_proj(x)) * F.silu(f.up_proj(x))), ("both",)),
        (lambda f, x: f.down_proj(F.silu(f.gate_proj(x)) + f.up_proj(x)), ("added",)),
        (lambda f, x: f.down_proj(F.silu(f.gate_proj(x) * f.up_proj(x))), ("after the product",)),
        (lambda f, x: f.down_proj(F.silu(f.gate_proj(x))), ("up branch is missing",)),
        (
            lambda f, x: F.linear(
                F.silu(F.linear(x, f.gate_proj.weight)) * F.linear(x, f.up_proj.weight),
                f.down_proj.weight,
            ),
            ("bias missing",),
        ),
        (lambda f, x: swiglu(f, x.mul_(1.5)), ("changed its input x in place",)),
        (lambda f, x: f(x), ("runs the module's own forward", "ffn.gate_proj")),
        (lambda f, x: f.forward(x), ("runs the module's own forward",)),
        (lambda f, x: type(f).forward(f, x), ("runs the module's own forward",)),
    ],
)
def test_swiglu_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_swiglu, wrong, *words)


# --- lesson 06: a width rule --------------------------------------------------------------------


def minimind2_width(h: int) -> int:
    return 64 * math.ceil(int(8 * h / 3) / 64)


def minimind3_width(h: int) -> int:
    return math.ceil(h * math.pi / 64) * 64


@pytest.mark.parametrize(
    ("version", "answer"),
    [
        ("minimind2", minimind2_width),
        # Rounding 8h/3 up without int() first never differs: int(8h/3) is a multiple of 64 only
        # where 8h/3 is itself an integer.
        ("minimind2", lambda h: 64 * math.ceil(8 * h / 3 / 64)),
        ("minimind2", lambda h: -(-(8 * h // 3) // 64) * 64),
        ("minimind3", minimind3_width),
        ("minimind3", lambda h: int(64 * np.ceil(h * np.pi / 64))),
        ("minimind3", lambda h: (math.ceil(h * math.pi) + 63) // 64 * 64),
    ],
)
def test_width_rules_written_three_ways_pass(version, answer, capsys) -> None:
    passes(check_width_rule, answer, capsys, version=version)


@pytest.mark.parametrize(
    ("version", "wrong", "words"),
    [
        (
            "minimind2",
            lambda h: 64 * (int(8 * h / 3) // 64),
            ("width truncated where it should round up", "for hidden_size=1 you return 0"),
        ),
        ("minimind2", lambda h: 64 * round(8 * h / 3 / 64), ("nearest",)),
        ("minimind2", lambda h: int(8 * h / 3), ("no rounding",)),
        ("minimind2", lambda h: math.ceil(8 * h / 3), ("not to a multiple of 64",)),
        ("minimind2", minimind3_width, ("minimind-3's π rule",)),
        ("minimind2", lambda h: 256 * math.ceil(int(8 * h / 3) / 256), ("256",)),
        ("minimind2", lambda h: 4 * h, ("4h",)),
        ("minimind2", lambda h: 64 * math.ceil(8 * h / 3 / 64) * 1.0, ("float", "return an int")),
        ("minimind2", ml.intermediate_size, ("ml.intermediate_size",)),
        ("minimind2", lambda h: ml.MINIMIND2_RULE.unrounded(h) // 64 * 64 + 64, ("WidthRule",)),
        ("minimind3", lambda h: 64 * math.floor(h * math.pi / 64), ("truncated where it should",)),
        ("minimind3", minimind2_width, ("MiniMind2's 8/3 rule",)),
        ("minimind3", lambda h: 64 * math.ceil(int(h * math.pi) / 64), ("cut to an int before",)),
        ("minimind3", lambda h: ml.intermediate_size(h, "minimind3"), ("ml.intermediate_size",)),
    ],
)
def test_width_rule_rejects_each_known_mistake(version, wrong, words) -> None:
    rejects(check_width_rule, wrong, *words, version=version)


def test_width_rule_names_an_unknown_mistake_by_its_first_hidden_size() -> None:
    message = rejects(check_width_rule, lambda h: 64 if h == 100 else minimind2_width(h))
    assert "1 of 2048 hidden sizes differ; for hidden_size=100 you return 64" in message


# --- lesson 07: FeedForward from a config ------------------------------------------------------


class MyFeedForward(nn.Module):
    def __init__(
        self,
        config: ml.MiniMindConfig,
        *,
        bias=False,
        width=None,
        act=None,
        gate_branch="gate",
        dropout="version",
    ) -> None:
        super().__init__()
        h = config.hidden_size
        m = width(config) if width else config.derived_intermediate_size()
        self.gate_proj = nn.Linear(h, m, bias=bias)
        self.up_proj = nn.Linear(h, m, bias=bias)
        self.down_proj = nn.Linear(m, h, bias=bias)
        self.act_fn = act or ml.get_activation(config.hidden_act)
        self.gate_branch = gate_branch
        keep = {"version": config.spec.ffn_dropout, "always": True, "never": False}[dropout]
        self.dropout = nn.Dropout(config.dropout) if keep else nn.Identity()

    def forward(self, x: Tensor) -> Tensor:
        if self.gate_branch == "gate":
            mixed = self.act_fn(self.gate_proj(x)) * self.up_proj(x)
        else:
            mixed = self.gate_proj(x) * self.act_fn(self.up_proj(x))
        return self.dropout(self.down_proj(mixed))


class NotebookFeedForward(nn.Module):
    """The notebook's answer."""

    def __init__(self, config: ml.MiniMindConfig) -> None:
        super().__init__()
        h = config.hidden_size
        m = config.intermediate_size or ml.intermediate_size(h, config.spec.width_rule)
        self.gate_proj = nn.Linear(h, m, bias=False)
        self.up_proj = nn.Linear(h, m, bias=False)
        self.down_proj = nn.Linear(m, h, bias=False)
        self.act_fn = ml.get_activation(config.hidden_act)
        use_dropout = config.spec.ffn_dropout
        self.dropout = nn.Dropout(config.dropout) if use_dropout else nn.Identity()

    def forward(self, x: Tensor) -> Tensor:
        return self.dropout(self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x)))


class FunctionalFeedForward(nn.Module):
    """The width by hand, the activation by name and F.dropout that follows the mode."""

    def __init__(self, config: ml.MiniMindConfig, hard_coded_p: float | None = None) -> None:
        super().__init__()
        h = config.hidden_size
        if config.intermediate_size is not None:
            m = config.intermediate_size
        elif config.version == "minimind3":
            m = 64 * math.ceil(h * math.pi / 64)
        else:
            m = 64 * math.ceil(int(8 * h / 3) / 64)
        self.gate_proj, self.up_proj = nn.Linear(h, m, bias=False), nn.Linear(h, m, bias=False)
        self.down_proj = nn.Linear(m, h, bias=False)
        self.act = {"silu": F.silu, "gelu": F.gelu}[config.hidden_act]
        self.p = config.dropout if config.spec.ffn_dropout else 0.0
        if hard_coded_p is not None and self.p > 0:
            self.p = hard_coded_p
        self.always = False

    def forward(self, x: Tensor) -> Tensor:
        out = self.down_proj(self.act(self.gate_proj(x)) * self.up_proj(x))
        return F.dropout(out, self.p, training=self.training or self.always)


def functional_factory(config: ml.MiniMindConfig) -> nn.Module:
    return FunctionalFeedForward(config)


@pytest.mark.parametrize("answer", [NotebookFeedForward, MyFeedForward, functional_factory])
def test_feedforward_passes_answers_written_three_ways(answer, capsys) -> None:
    passes(check_feedforward, answer, capsys)


class Renamed(MyFeedForward):
    def __init__(self, config) -> None:
        super().__init__(config)
        self.w1 = self.gate_proj
        del self.gate_proj


class ScalesItsInput(NotebookFeedForward):
    def forward(self, x: Tensor) -> Tensor:
        x /= 1.0
        x[..., 0] = 0.0
        return super().forward(x)


class WithPackageForward(NotebookFeedForward):
    def forward(self, x: Tensor) -> Tensor:
        return ml.FeedForward.forward(self, x)  # type: ignore[arg-type]


def _pi_cut_to_an_int_first(config: ml.MiniMindConfig) -> int:
    if config.intermediate_size is not None:
        return config.intermediate_size
    ratio = math.pi if config.version == "minimind3" else 8 / 3
    return 64 * math.ceil(int(config.hidden_size * ratio) / 64)


def _always_dropout(config: ml.MiniMindConfig) -> nn.Module:
    module = FunctionalFeedForward(config)
    module.always = True
    return module


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda c: MyFeedForward(c, bias=True), ("bias present",)),
        (
            lambda c: MyFeedForward(c, width=lambda c: int(8 * c.hidden_size / 3)),
            ("without rounding",),
        ),
        (
            lambda c: MyFeedForward(c, width=lambda c: ml.intermediate_size(c.hidden_size)),
            ("minimind3 gives 320", "MiniMind2's 8/3 rule"),
        ),
        (
            lambda c: MyFeedForward(c, width=_pi_cut_to_an_int_first),
            ("hidden_size=163", "width 512", "cut to an int before rounding up", "576"),
        ),
        (
            lambda c: MyFeedForward(
                c, width=lambda c: ml.intermediate_size(c.hidden_size, c.spec.width_rule)
            ),
            ("intermediate_size=100",),
        ),
        (lambda c: MyFeedForward(c, gate_branch="up"), ("SiLU applied to the up branch",)),
        (lambda c: MyFeedForward(c, act=nn.SiLU()), ("hidden_act ignored",)),
        (
            lambda c: MyFeedForward(
                c, act=nn.GELU(approximate="tanh") if c.hidden_act == "gelu" else None
            ),
            ("hidden_act='gelu'", "tanh approximation of GELU"),
        ),
        (lambda c: MyFeedForward(c, dropout="never"), ("dropout missing",)),
        (lambda c: MyFeedForward(c, dropout="always"), ("minimind-3's FeedForward has none",)),
        (_always_dropout, ("eval mode", "dropout applied in eval mode", "training=True")),
        (
            lambda c: FunctionalFeedForward(c, hard_coded_p=0.5),
            ("dropout=0.2", "fixed at 0.5", "config.dropout (0.2 here)"),
        ),
        (ScalesItsInput, ("changed its input x in place",)),
        (Renamed, ("parameters are", "gate_proj.weight")),
        (lambda c: "not a module", ("returned a str",)),
        (ml.FeedForward, ("ml.FeedForward, the package's own answer",)),
        (WithPackageForward, ("ml.FeedForward, the package's own answer",)),
    ],
)
def test_feedforward_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_feedforward, wrong, *words)


def test_feedforward_refuses_an_instance_where_the_class_is_asked() -> None:
    module = NotebookFeedForward(ml.MiniMindConfig(hidden_size=32))
    refuses_argument(
        check_feedforward,
        module,
        "an instance of NotebookFeedForward",
        "pass the class itself (NotebookFeedForward), not NotebookFeedForward(config)",
    )


# --- lesson 08: a patching hook -----------------------------------------------------------------


def make_patch_hook(clean_output: Tensor, position: int):
    """The notebook's answer."""

    def hook(module, args, output):
        patched = output.clone()
        patched[:, position] = clean_output[:, position]
        return patched

    return hook


def in_place_hook(clean_output: Tensor, position: int):  # writing into output is fine too
    def hook(module, args, output):
        output[:, position] = clean_output[:, position]

    return hook


def where_hook(clean_output: Tensor, position: int):
    def hook(module, args, output):
        at = torch.arange(output.shape[1]) == position  # (T,)
        return torch.where(at[None, :, None], clean_output, output)

    return hook


def concatenating_hook(clean_output: Tensor, position: int):
    def hook(module, args, output):
        parts = (output[:, :position], clean_output[:, position : position + 1])
        return torch.cat((*parts, output[:, position + 1 :]), dim=1)

    return hook


@pytest.mark.parametrize("answer", [make_patch_hook, in_place_hook, where_hook, concatenating_hook])
def test_patching_hook_passes_answers_written_four_ways(answer, capsys) -> None:
    passes(check_patching_hook, answer, capsys)


def _hook(body):
    return lambda clean, pos: lambda module, args, output: body(clean, pos, output)


def _patch_rows(clean, pos, output):
    output = output.clone()
    output[pos] = clean[pos]
    return output


def _steal(clean, pos, output):
    clean[:, pos] = output[:, pos]
    return output


def _scales_its_cache(clean: Tensor, position: int):
    clean.mul_(1.0)
    clean[0] = 0.0
    return make_patch_hook(clean, position)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (_hook(lambda clean, pos, output: clean), ("every position was patched",)),
        (_hook(_patch_rows), ("batch dimension",)),
        (_hook(lambda c, p, o: make_patch_hook(c, p + 1)(None, (), o)), ("off-by-one",)),
        (_hook(lambda clean, pos, output: None), ("return the patched tensor",)),
        (_hook(_steal), ("changed the cached clean output",)),
        (_scales_its_cache, ("changed its input clean_output in place",)),
        (
            _hook(lambda c, p, o: (make_patch_hook(c, p)(None, (), o),)),
            ("your hook returned a tuple", "return patched, not (patched,)"),
        ),
        (lambda clean, pos: "hook", ("expected a hook function",)),
    ],
)
def test_patching_hook_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_patching_hook, wrong, *words)


def test_patching_hook_refuses_the_hook_where_the_factory_is_asked() -> None:
    hook = make_patch_hook(torch.zeros(1, 1, 8), 0)
    refuses_argument(
        check_patching_hook,
        hook,
        "make_hook must be the factory",
        "pass make_hook, not make_hook(clean_output, position)",
    )


# --- lesson 09: the bits a model holds about a fact table --------------------------------------


def _ce_bits(logits: Tensor, targets: Tensor) -> Tensor:
    return F.cross_entropy(logits, targets, reduction="none") / math.log(2)  # (F,)


def _p_right(logits: Tensor, targets: Tensor) -> Tensor:
    return logits.softmax(-1).gather(-1, targets[:, None]).squeeze(-1)  # (F,)


def held_bits(logits: Tensor, targets: Tensor, num_attributes: int) -> float:
    """The notebook's answer: a Python float."""
    return (math.log2(num_attributes) - _ce_bits(logits, targets)).sum().item()


def bits_as_a_tensor(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    log_p = logits.log_softmax(-1)[torch.arange(len(targets)), targets]
    return (math.log2(num_attributes) + log_p / math.log(2)).sum()


def bits_fact_by_fact(logits: Tensor, targets: Tensor, num_attributes: int) -> float:
    total = 0.0
    for row, answer in zip(logits.log_softmax(-1), targets, strict=True):
        total += math.log2(num_attributes) + row[answer].item() / math.log(2)
    return total


@pytest.mark.parametrize(
    "answer",
    [
        held_bits,
        bits_as_a_tensor,
        bits_fact_by_fact,
        # other real numbers: NumPy scalars, and tensors of another float dtype than the logits
        lambda lg, t, a: np.float32(held_bits(lg, t, a)),
        lambda lg, t, a: np.float64(held_bits(lg, t, a)),
        lambda lg, t, a: bits_as_a_tensor(lg, t, a).float(),
        lambda lg, t, a: bits_as_a_tensor(lg.double(), t, a),
        lambda lg, t, a: bits_as_a_tensor(lg, t, a).reshape(1),
    ],
)
def test_fact_bits_passes_any_real_number_written_several_ways(answer, capsys) -> None:
    passes(check_fact_bits, answer, capsys)


def test_fact_bits_is_lesson_09s_measure() -> None:
    from minimind_lab.lessons import l09_capacity as l09

    g = torch.Generator().manual_seed(0)
    logits = 3 * torch.randn(12, 30, generator=g)
    targets = 20 + torch.randint(10, (12,), generator=g)
    assert torch.allclose(fact_bits(logits, targets, 10), l09.stored_bits(logits, targets, 10))


def _naive_exp(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    p = logits.exp().gather(-1, targets[:, None]).squeeze(-1) / logits.exp().sum(-1)
    return (math.log2(num_attributes) + p.log2()).sum()


def _over_facts(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    log_p = logits.log_softmax(0).gather(-1, targets[:, None]).squeeze(-1) / math.log(2)
    return (math.log2(num_attributes) + log_p).sum()


def _one_hot(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    one_hot = F.one_hot(targets, logits.shape[-1])
    return (math.log2(num_attributes) + (one_hot * logits.softmax(-1).log2()).sum(-1)).sum()


def _shifts_logits_in_place(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    logits -= logits.max(-1, keepdim=True).values
    return bits_as_a_tensor(logits, targets, num_attributes)


def _stored_bits(logits: Tensor, targets: Tensor, num_attributes: int) -> Tensor:
    from minimind_lab.lessons import l09_capacity as l09

    return l09.stored_bits(logits, targets, num_attributes)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (
            lambda lg, t, a: (math.log(a) - F.cross_entropy(lg, t, reduction="none")).sum(),
            ("natural log",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - F.cross_entropy(lg, t, reduction="none")).sum(),
            ("in nats while log2|A| is in bits",),
        ),
        (
            lambda lg, t, a: (
                math.log10(a) - F.cross_entropy(lg, t, reduction="none") / math.log(10)
            ).sum(),
            ("log10 where log2 is meant",),
        ),
        (
            lambda lg, t, a: (
                math.log2(a) - F.cross_entropy(lg, t, reduction="none") / math.log(10)
            ).sum(),
            ("base 10",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).clamp(min=0).sum(),
            ("each fact is floored at 0", "must cost bits"),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).sum().clamp(min=0),
            ("the total is floored at 0",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).clamp(max=0).sum(),
            ("each fact is capped at 0 (clamp(max=0))",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).sum().clamp(max=0),
            ("the total is capped at 0 (clamp(max=0))",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).mean(),
            ("mean over the facts",),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _p_right(lg, t)).sum(),
            ("probability", "stands where its cross-entropy"),
        ),
        (lambda lg, t, a: (_p_right(lg, t) * math.log2(a)).sum(), ("probability", "times")),
        (
            lambda lg, t, a: float((lg.argmax(-1) == t).sum()) * math.log2(a),
            ("gets right (argmax)",),
        ),
        (
            lambda lg, t, a: (math.log2(lg.shape[-1]) - _ce_bits(lg, t)).sum(),
            ("vocabulary size (20)", "5 attributes"),
        ),
        (lambda lg, t, a: _ce_bits(lg, t).sum(), ("the loss",)),
        (lambda lg, t, a: (_ce_bits(lg, t) - math.log2(a)).sum(), ("reversed",)),
        (lambda lg, t, a: (-_ce_bits(lg, t)).sum(), ("baseline is missing",)),
        (_over_facts, ("over the facts (dim 0)",)),
        (_naive_exp, ("large logits", "NaN or infinity", "exp of a large logit overflows")),
        (_one_hot, ("large logits", "NaN or infinity", "one-hot times its log2")),
        (_shifts_logits_in_place, ("changed its input logits in place",)),
        (_stored_bits, ("l09.stored_bits",)),
        (fact_bits, ("l09.stored_bits",)),
        (lambda lg, t, a: math.log2(a) - _ce_bits(lg, t), ("one number per fact",)),
        (lambda lg, t, a: "3 bits", ("returned a str", "a real number")),
        (lambda lg, t, a: True, ("returned a bool",)),
        (lambda lg, t, a: complex(held_bits(lg, t, a)), ("returned a complex",)),
        (
            lambda lg, t, a: torch.stack([bits_as_a_tensor(lg, t, a)] * 2),
            ("shape (2,)", "expected one number"),
        ),
    ],
)
def test_fact_bits_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_fact_bits, wrong, *words)


# --- the MoE lesson: top-k routing ---------------------------------------------------------------


def route(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    """The notebook's answer: softmax over the experts, top k, rescaled."""
    weights, experts = logits.softmax(dim=-1).topk(k, dim=-1)
    return weights / weights.sum(dim=-1, keepdim=True), experts


def route_raw(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    return logits.softmax(dim=-1).topk(k, dim=-1)


def softmax_of_the_top_k(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    values, experts = logits.topk(k, dim=-1)  # the same weights, another route
    return values.softmax(-1), experts


def ascending(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:  # any order of the k choices
    weights, experts = route(logits, k)
    return weights.flip(-1), experts.flip(-1)


def by_sorting(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    order = logits.argsort(dim=-1, descending=True)[..., :k]
    chosen = logits.gather(-1, order)
    weights = (chosen - chosen.amax(-1, keepdim=True)).exp()
    return weights / weights.sum(-1, keepdim=True), order


@pytest.mark.parametrize("answer", [route, softmax_of_the_top_k, ascending, by_sorting])
def test_routing_passes_answers_written_four_ways(answer, capsys) -> None:
    passes(check_top_k_routing, answer, capsys)


@pytest.mark.parametrize(
    "answer", [route_raw, lambda lg, k: tuple(t.flip(-1) for t in route_raw(lg, k))]
)
def test_raw_routing_passes_answers_written_two_ways(answer, capsys) -> None:
    passes(check_top_k_routing, answer, capsys, renormalize=False)


def _shifts_router_logits(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    logits -= logits.max(-1, keepdim=True).values
    return route(logits, k)


def _naive_route(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
    e = (1000 * logits).exp()
    weights, experts = (e / e.sum(-1, keepdim=True)).topk(k, dim=-1)
    return weights, logits.topk(k, dim=-1).indices


@pytest.mark.parametrize(
    ("renormalize", "wrong", "words"),
    [
        (True, route_raw, ("not rescaled",)),
        (False, route, ("raw softmax scores are expected",)),
        (True, lambda lg, k: lg.topk(k, dim=-1), ("raw logits",)),
        (True, lambda lg, k: lg.softmax(-1).topk(k, dim=-1, largest=False), ("lowest",)),
        (
            False,
            lambda lg, k: (lg.softmax(0).gather(-1, lg.topk(k).indices), lg.topk(k).indices),
            ("over the tokens",),
        ),
        (True, lambda lg, k: (route(lg, k)[0], route(lg, k)[1].int()), ("int64",)),
        (True, lambda lg, k: route(lg, k)[0], ("expected a pair",)),
        (True, lambda lg, k: route(lg, 1), ("shape",)),
        (True, _shifts_router_logits, ("changed its input logits in place",)),
        (False, _naive_route, ("NaN or infinity", "exp of a large logit overflows")),
        (True, top_k_routing, ("MoEFeedForward.route",)),
    ],
)
def test_routing_rejects_each_known_mistake(renormalize, wrong, words) -> None:
    rejects(check_top_k_routing, wrong, *words, renormalize=renormalize)


def test_routing_refuses_the_moe_layers_own_route() -> None:
    with ml.seeded(0):
        moe = ml.MoEFeedForward.from_config(ml.MiniMindConfig(hidden_size=8, version="minimind3"))

    def through_the_layer(logits: Tensor, k: int) -> tuple[Tensor, Tensor]:
        moe.route(torch.zeros(1, 8))
        return route(logits, k)

    rejects(check_top_k_routing, through_the_layer, "MoEFeedForward.route")


# --- every lesson has a checked build-it exercise -------------------------------------------------

NOTEBOOKS = [
    Path(__file__).resolve().parents[1] / "notebooks" / entry.notebook for entry in LESSONS
]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_each_lesson_has_a_build_it_exercise_whose_solution_runs_a_checker(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    solutions = [
        "".join(c["source"]) for c in cells if "solution" in c.get("metadata", {}).get("tags", [])
    ]
    checked = [s for s in solutions if re.search(r"^check_\w+\(", s, re.MULTILINE)]
    assert checked, f"{path.name}: no solution calls a checker from minimind_lab.exercises"
    outputs = [
        "".join(o.get("text", ""))
        for c in cells
        if "solution" in c.get("metadata", {}).get("tags", [])
        for o in c.get("outputs", [])
    ]
    assert any(text.startswith("Correct: ") for text in outputs), (
        f"{path.name}: no stored checker success line"
    )
