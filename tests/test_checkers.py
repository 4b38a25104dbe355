"""The build-it checkers: each passes its reference and names each known wrong version."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

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
from minimind_lab.lessons.registry import LESSONS


def rejects(check: Callable[..., None], piece: object, *words: str, **kwargs: object) -> str:
    """Run ``check`` on a wrong ``piece``; its message must contain every one of ``words``."""
    with pytest.raises(ExerciseError) as info:
        check(piece, **kwargs)
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
        check_top_k_routing(top_k_routing, renormalize="yes")


def test_a_checker_leaves_the_callers_rng_alone(capsys) -> None:
    torch.manual_seed(0)
    state = torch.get_rng_state()
    check_plain_ffn_forward(lambda f, x: f.dropout(f.down_proj(f.act_fn(f.up_proj(x)))))
    check_feedforward(ml.FeedForward)
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
    class MyFeedForward(nn.Module):
        def __init__(self, config: ml.MiniMindConfig) -> None:
            super().__init__()
            raise NotImplementedError

        def forward(self, x: Tensor) -> Tensor:
            raise NotImplementedError

    check_feedforward(MyFeedForward)
    check_patching_hook(lambda clean, position: _not_written)
    assert capsys.readouterr().out.count("Not written yet") == 2


# --- lesson 01: causal attention weights ----------------------------------------------------


def test_attention_reference_and_sdpa_pass(capsys) -> None:
    passes(check_causal_attention_weights, causal_attention_weights, capsys)

    def via_a_python_loop(q: Tensor, k: Tensor) -> Tensor:
        d, t = q.shape[-1], q.shape[-2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)
        mask = torch.full((t, t), float("-inf")).triu(1)
        return torch.softmax(scores + mask, dim=-1)

    passes(check_causal_attention_weights, via_a_python_loop, capsys)


def _scores(q: Tensor, k: Tensor) -> Tensor:
    return q @ k.transpose(-2, -1)


def _tril(q: Tensor) -> Tensor:
    t = q.shape[-2]
    return torch.ones(t, t, dtype=torch.bool).tril()


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (
            lambda q, k: _scores(q, k).masked_fill(~_tril(q), float("-inf")).softmax(-1),
            ("not divided by √d",),
        ),
        (lambda q, k: (_scores(q, k) / math.sqrt(q.shape[-1])).softmax(-1), ("no causal mask",)),
        (
            lambda q, k: (
                (_scores(q, k) / math.sqrt(q.shape[-1]))
                .masked_fill(~_tril(q).T, float("-inf"))
                .softmax(-1)
            ),
            ("wrong way round",),
        ),
        (
            lambda q, k: (
                (_scores(q, k) / math.sqrt(q.shape[-1]))
                .masked_fill(~_tril(q), float("-inf"))
                .softmax(-2)
            ),
            ("wrong dimension",),
        ),
        (
            lambda q, k: (_scores(q, k) / math.sqrt(q.shape[-1])).softmax(-1) * _tril(q),
            ("after the softmax",),
        ),
        (
            lambda q, k: (
                (_scores(q, k) / math.sqrt(q.shape[-1])).masked_fill(~_tril(q), 0.0).softmax(-1)
            ),
            ("set to 0, not -inf",),
        ),
        (
            lambda q, k: (
                (_scores(q, k) / math.sqrt(q.shape[-1])).masked_fill(~_tril(q), float("-inf")).exp()
                / (_scores(q, k) / math.sqrt(q.shape[-1]))
                .masked_fill(~_tril(q), float("-inf"))
                .exp()
                .sum(-1, keepdim=True)
            ),
            ("large scores", "NaN or infinity"),
        ),
        (
            lambda q, k: causal_attention_weights(q.float(), k.float()),
            ("float64", "dtype should follow the input"),
        ),
        (lambda q, k: causal_attention_weights(q, k)[..., 0], ("shape",)),
    ],
)
def test_attention_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_causal_attention_weights, wrong, *words)


# --- lesson 02: linear collapse ---------------------------------------------------------------


def test_collapse_reference_and_collapse_linear_pass(capsys) -> None:
    passes(check_collapse, collapse_two, capsys)
    passes(check_collapse, lambda a, b: ml.collapse_linear([a, b]), capsys)


def _wb(layer: nn.Linear) -> tuple[Tensor, Tensor]:
    bias = layer.bias if layer.bias is not None else torch.zeros(layer.out_features)
    return layer.weight, bias.to(layer.weight.dtype)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda a, b: (a.weight @ b.weight, collapse_two(a, b)[1]), ("wrong order",)),
        (lambda a, b: (collapse_two(a, b)[0], _wb(a)[1] + _wb(b)[1]), ("b1 + b2",)),
        (lambda a, b: (collapse_two(a, b)[0], _wb(b)[1]), ("W2·b1 is missing",)),
        (lambda a, b: (collapse_two(a, b)[0], b.weight @ _wb(a)[1]), ("b2 is missing",)),
        (lambda a, b: (collapse_two(a, b)[0], None), ("no bias",)),
        (lambda a, b: (b.weight @ a.weight, b.weight @ a.bias + b.bias), ("without a bias",)),
        (lambda a, b: b.weight @ a.weight, ("returned a Tensor",)),
        (lambda a, b: a.weight.data.mul_(2), ("changed the layers",)),
    ],
)
def test_collapse_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_collapse, wrong, *words)


# --- lesson 03: an activation's derivative ----------------------------------------------------


def gelu_slope(x: Tensor) -> Tensor:
    return 0.5 * (1 + torch.erf(x / math.sqrt(2))) + x * torch.exp(-x * x / 2) / math.sqrt(
        2 * math.pi
    )


def by_autograd(name: str) -> Callable[[Tensor], Tensor]:
    def slope(x: Tensor) -> Tensor:
        x = x.detach().requires_grad_()
        (grad,) = torch.autograd.grad(ml.get_activation(name)(x).sum(), x)
        return grad

    return slope


@pytest.mark.parametrize("name", ["gelu", "silu", "relu", "sigmoid", "tanh", "identity"])
def test_derivative_reference_and_autograd_pass(name, capsys) -> None:
    passes(
        check_activation_derivative, lambda x: ml.activation_derivative(name, x), capsys, name=name
    )
    passes(check_activation_derivative, by_autograd(name), capsys, name=name)


def test_derivative_written_by_hand_passes(capsys) -> None:
    passes(check_activation_derivative, gelu_slope, capsys, name="gelu")


@pytest.mark.parametrize(
    ("name", "wrong", "words"),
    [
        ("gelu", lambda x: 0.5 * (1 + torch.erf(x / math.sqrt(2))), ("x·φ(x) is missing",)),
        (
            "gelu",
            lambda x: ml.activation_derivative("gelu_pytorch_tanh", x),
            ("tanh approximation of GELU used where the exact erf one is expected",),
        ),
        ("gelu", F.gelu, ("the activation itself",)),
        ("silu", torch.sigmoid, ("σ(x) only",)),
        ("silu", lambda x: torch.sigmoid(x) * (1 - torch.sigmoid(x)), ("derivative of sigmoid",)),
        ("relu", lambda x: (x >= 0).to(x.dtype), ("at x = 0",)),
        ("relu", lambda x: (x > 0).float(), ("float64", "dtype")),
        ("tanh", lambda x: 1 - torch.tanh(x), ("squared",)),
        ("gelu", lambda x: ml.activation_derivative("silu", x), ("derivative of silu",)),
        ("gelu", lambda x: gelu_slope(x).flatten(), ("shape",)),
    ],
)
def test_derivative_rejects_each_known_mistake(name, wrong, words) -> None:
    rejects(check_activation_derivative, wrong, *words, name=name)


# --- lesson 04: PlainFFN.forward ---------------------------------------------------------------


def plain_forward(ffn, x: Tensor) -> Tensor:
    return ffn.dropout(ffn.down_proj(ffn.act_fn(ffn.up_proj(x))))


def test_plain_forward_reference_passes(capsys) -> None:
    passes(check_plain_ffn_forward, plain_forward, capsys)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (lambda f, x: f.dropout(f.act_fn(f.down_proj(f.up_proj(x)))), ("after down_proj",)),
        (lambda f, x: f.dropout(f.down_proj(f.up_proj(x))), ("no activation",)),
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
        (lambda f, x: f(x), ("calls the module itself",)),
        (lambda f, x: plain_forward(f, x).float(), ("float64", "dtype")),
    ],
)
def test_plain_forward_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_plain_ffn_forward, wrong, *words)


# --- lesson 05: SwiGLU ----------------------------------------------------------------------


def swiglu(ffn, x: Tensor) -> Tensor:
    return ffn.down_proj(F.silu(ffn.gate_proj(x)) * ffn.up_proj(x))


def test_swiglu_reference_passes(capsys) -> None:
    passes(check_swiglu, swiglu, capsys)
    passes(check_swiglu, lambda f, x: f.down_proj(f.act_fn(f.gate_proj(x)) * f.up_proj(x)), capsys)


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (
            lambda f, x: f.down_proj(f.gate_proj(x) * F.silu(f.up_proj(x))),
            ("SiLU applied to the up branch instead of the gate",),
        ),
        (lambda f, x: f.down_proj(torch.sigmoid(f.gate_proj(x)) * f.up_proj(x)), ("GLU",)),
        (lambda f, x: f.down_proj(F.gelu(f.gate_proj(x)) * f.up_proj(x)), ("GEGLU",)),
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
        (lambda f, x: f(x), ("calls the module itself",)),
    ],
)
def test_swiglu_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_swiglu, wrong, *words)


# --- lesson 06: a width rule --------------------------------------------------------------------


def minimind2_width(h: int) -> int:
    return 64 * math.ceil(int(8 * h / 3) / 64)


def minimind3_width(h: int) -> int:
    return math.ceil(h * math.pi / 64) * 64


def test_width_rules_pass(capsys) -> None:
    passes(check_width_rule, minimind2_width, capsys)
    # Rounding 8h/3 up without int() first never differs: int(8h/3) is a multiple of 64 only
    # where 8h/3 is itself an integer.
    passes(check_width_rule, lambda h: 64 * math.ceil(8 * h / 3 / 64), capsys)
    passes(check_width_rule, minimind3_width, capsys, version="minimind3")
    passes(
        check_width_rule,
        lambda h: ml.intermediate_size(h, "minimind3"),
        capsys,
        version="minimind3",
    )


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
        ("minimind3", lambda h: 64 * math.floor(h * math.pi / 64), ("truncated where it should",)),
        ("minimind3", minimind2_width, ("MiniMind2's 8/3 rule",)),
        ("minimind3", lambda h: 64 * math.ceil(int(h * math.pi) / 64), ("cut to an int before",)),
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


def test_feedforward_reference_and_a_written_one_pass(capsys) -> None:
    passes(check_feedforward, ml.FeedForward, capsys)
    passes(check_feedforward, MyFeedForward, capsys)


class Renamed(MyFeedForward):
    def __init__(self, config) -> None:
        super().__init__(config)
        self.w1 = self.gate_proj
        del self.gate_proj


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
            lambda c: MyFeedForward(
                c, width=lambda c: ml.intermediate_size(c.hidden_size, c.spec.width_rule)
            ),
            ("intermediate_size=100",),
        ),
        (lambda c: MyFeedForward(c, gate_branch="up"), ("SiLU applied to the up branch",)),
        (lambda c: MyFeedForward(c, act=nn.SiLU()), ("hidden_act ignored",)),
        (lambda c: MyFeedForward(c, dropout="never"), ("dropout missing",)),
        (lambda c: MyFeedForward(c, dropout="always"), ("minimind-3's FeedForward has none",)),
        (Renamed, ("parameters are", "gate_proj.weight")),
        (lambda c: "not a module", ("returned a str",)),
    ],
)
def test_feedforward_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_feedforward, wrong, *words)


# --- lesson 08: a patching hook -----------------------------------------------------------------


def make_patch_hook(clean_output: Tensor, position: int):
    def hook(module, args, output):
        patched = output.clone()
        patched[:, position] = clean_output[:, position]
        return patched

    return hook


def test_patching_hook_reference_passes(capsys) -> None:
    passes(check_patching_hook, make_patch_hook, capsys)

    def in_place(clean_output: Tensor, position: int):  # writing into output is fine too
        def hook(module, args, output):
            output[:, position] = clean_output[:, position]

        return hook

    passes(check_patching_hook, in_place, capsys)


def _hook(body):
    return lambda clean, pos: lambda module, args, output: body(clean, pos, output)


def _patch_rows(clean, pos, output):
    output = output.clone()
    output[pos] = clean[pos]
    return output


def _steal(clean, pos, output):
    clean[:, pos] = output[:, pos]
    return output


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (_hook(lambda clean, pos, output: clean), ("every position was patched",)),
        (_hook(_patch_rows), ("batch dimension",)),
        (_hook(lambda c, p, o: make_patch_hook(c, p + 1)(None, (), o)), ("off-by-one",)),
        (_hook(lambda clean, pos, output: None), ("return the patched tensor",)),
        (_hook(_steal), ("changed the cached clean output",)),
        (lambda clean, pos: "hook", ("expected a hook function",)),
    ],
)
def test_patching_hook_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_patching_hook, wrong, *words)


# --- lesson 09: the bits a model holds about a fact table --------------------------------------


def _ce_bits(logits: Tensor, targets: Tensor) -> Tensor:
    return F.cross_entropy(logits, targets, reduction="none") / math.log(2)  # (F,)


def _p_right(logits: Tensor, targets: Tensor) -> Tensor:
    return logits.softmax(-1).gather(-1, targets[:, None]).squeeze(-1)  # (F,)


def test_fact_bits_reference_and_written_ones_pass(capsys) -> None:
    passes(check_fact_bits, fact_bits, capsys)

    def as_a_float(logits: Tensor, targets: Tensor, num_attributes: int) -> float:
        held = math.log2(num_attributes) - _ce_bits(logits, targets)
        return held.sum().item()

    passes(check_fact_bits, as_a_float, capsys)

    def fact_by_fact(logits: Tensor, targets: Tensor, num_attributes: int) -> float:
        total = 0.0
        for row, answer in zip(logits.log_softmax(-1), targets, strict=True):
            total += math.log2(num_attributes) + row[answer].item() / math.log(2)
        return total

    passes(check_fact_bits, fact_by_fact, capsys)


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
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).clamp(min=0).sum(),
            ("each fact is floored at 0", "must cost bits"),
        ),
        (
            lambda lg, t, a: (math.log2(a) - _ce_bits(lg, t)).sum().clamp(min=0),
            ("the total is floored at 0",),
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
        (_naive_exp, ("large logits", "NaN or infinity")),
        (lambda lg, t, a: math.log2(a) - _ce_bits(lg, t), ("one number per fact",)),
        (lambda lg, t, a: fact_bits(lg, t, a).float(), ("float64", "dtype should follow")),
        (lambda lg, t, a: "3 bits", ("returned a str",)),
        (
            lambda lg, t, a: torch.stack([fact_bits(lg, t, a), fact_bits(lg, t, a)]),
            ("shape (2,)", "expected one number"),
        ),
    ],
)
def test_fact_bits_rejects_each_known_mistake(wrong, words) -> None:
    rejects(check_fact_bits, wrong, *words)


# --- the MoE lesson: top-k routing ---------------------------------------------------------------


def test_routing_reference_and_moe_route_pass(capsys) -> None:
    passes(check_top_k_routing, top_k_routing, capsys)
    passes(
        check_top_k_routing, lambda lg, k: top_k_routing(lg, k, False), capsys, renormalize=False
    )

    def softmax_of_the_top_k(logits: Tensor, k: int):  # the same weights, another route
        values, experts = logits.topk(k, dim=-1)
        return values.softmax(-1), experts

    passes(check_top_k_routing, softmax_of_the_top_k, capsys)

    def ascending(logits: Tensor, k: int):  # any order of the k choices
        w, e = top_k_routing(logits, k)
        return w.flip(-1), e.flip(-1)

    passes(check_top_k_routing, ascending, capsys)


@pytest.mark.parametrize(
    ("renormalize", "wrong", "words"),
    [
        (True, lambda lg, k: top_k_routing(lg, k, False), ("not rescaled",)),
        (False, lambda lg, k: top_k_routing(lg, k, True), ("raw softmax scores are expected",)),
        (True, lambda lg, k: lg.topk(k, dim=-1), ("raw logits",)),
        (True, lambda lg, k: lg.softmax(-1).topk(k, dim=-1, largest=False), ("lowest",)),
        (
            False,
            lambda lg, k: (lg.softmax(0).gather(-1, lg.topk(k).indices), lg.topk(k).indices),
            ("over the tokens",),
        ),
        (True, lambda lg, k: (top_k_routing(lg, k)[0], top_k_routing(lg, k)[1].int()), ("int64",)),
        (True, lambda lg, k: top_k_routing(lg, k)[0], ("expected a pair",)),
        (True, lambda lg, k: top_k_routing(lg, 1), ("shape",)),
    ],
)
def test_routing_rejects_each_known_mistake(renormalize, wrong, words) -> None:
    rejects(check_top_k_routing, wrong, *words, renormalize=renormalize)


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
