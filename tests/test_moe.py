"""``MoEFeedForward``: top-k routing, the weighted sum of chosen experts, keys and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minimind_lab as ml

H = 16


def _moe(num_experts: int = 4, top_k: int = 2) -> ml.MoEFeedForward:
    torch.manual_seed(0)
    return ml.MoEFeedForward(ml.MiniMindConfig(hidden_size=H), num_experts, top_k).eval()


@pytest.mark.parametrize(("num_experts", "top_k"), [(4, 1), (4, 2), (6, 3), (3, 3)])
def test_each_token_goes_to_exactly_k_distinct_experts(
    num_experts: int, top_k: int, generator: torch.Generator
) -> None:
    moe = _moe(num_experts, top_k)
    x = torch.randn(2, 9, H, generator=generator)
    routing = moe.route(x)
    assert routing.scores.shape == (2, 9, num_experts)
    assert routing.experts.shape == routing.weights.shape == (2, 9, top_k)
    flat = routing.experts.reshape(-1, top_k)
    assert all(len(set(row.tolist())) == top_k for row in flat)
    assert int(flat.min()) >= 0 and int(flat.max()) < num_experts
    torch.testing.assert_close(routing.weights.sum(-1), torch.ones(2, 9))
    assert (routing.weights >= 0).all()
    torch.testing.assert_close(routing.scores.sum(-1), torch.ones(2, 9))


def test_chosen_experts_are_the_top_scores(generator: torch.Generator) -> None:
    moe = _moe(5, 2)
    routing = moe.route(torch.randn(20, H, generator=generator))
    chosen = routing.scores.gather(-1, routing.experts)
    others = routing.scores.clone().scatter_(-1, routing.experts, -1.0)
    assert (chosen.min(-1).values >= others.max(-1).values).all()
    torch.testing.assert_close(routing.weights, chosen / chosen.sum(-1, keepdim=True))


@pytest.mark.parametrize("top_k", [1, 2, 4])
def test_output_is_the_weighted_sum_of_the_chosen_experts(
    top_k: int, generator: torch.Generator
) -> None:
    moe = _moe(4, top_k)
    x = torch.randn(3, 5, H, generator=generator)
    y = moe(x)
    routing = moe.last_routing
    assert routing is not None and y.shape == x.shape
    expected = torch.zeros_like(x)
    for b in range(3):
        for t in range(5):
            for slot in range(top_k):
                e = int(routing.experts[b, t, slot])
                expected[b, t] += routing.weights[b, t, slot] * moe.experts[e](x[b, t])
    torch.testing.assert_close(y, expected, atol=1e-5, rtol=1e-4)


def test_all_experts_chosen_is_the_score_weighted_mixture(generator: torch.Generator) -> None:
    moe = _moe(3, 3)
    x = torch.randn(7, H, generator=generator)
    scores = moe.gate(x).softmax(-1)
    dense = sum(scores[:, e : e + 1] * expert(x) for e, expert in enumerate(moe.experts))
    torch.testing.assert_close(moe(x), dense, atol=1e-5, rtol=1e-4)


def test_last_routing_is_detached(generator: torch.Generator) -> None:
    moe = _moe().train()
    moe(torch.randn(4, H, generator=generator))
    assert moe.last_routing is not None
    assert not moe.last_routing.scores.requires_grad


def test_keys_follow_minimind_moe() -> None:
    moe = _moe(3, 1)
    keys = list(moe.state_dict())
    assert keys[0] == "gate.weight" and moe.gate.weight.shape == (3, H)
    for i in range(3):
        for proj in ("gate_proj", "up_proj", "down_proj"):
            assert f"experts.{i}.{proj}.weight" in keys
    assert len(keys) == 1 + 3 * 3
    m = ml.intermediate_size(H)
    assert ml.count_parameters(moe) == H * 3 + 3 * (3 * H * m)


def test_errors() -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    with pytest.raises(ValueError, match="top_k=5 must not exceed num_experts=4"):
        ml.MoEFeedForward(config, num_experts=4, top_k=5)
    with pytest.raises(ValueError, match="num_experts must be a positive integer, got 0"):
        ml.MoEFeedForward(config, num_experts=0)
    with pytest.raises(ValueError, match="top_k must be a positive integer, got 0"):
        ml.MoEFeedForward(config, top_k=0)
    with pytest.raises(ValueError, match="last dimension must equal hidden_size=16"):
        _moe()(torch.zeros(2, 8))


# --- MiniMind2 and minimind-3 --------------------------------------------------------------


def test_shared_experts_see_every_token_with_weight_one(generator: torch.Generator) -> None:
    torch.manual_seed(0)
    config = ml.MiniMindConfig(hidden_size=H)
    moe = ml.MoEFeedForward(config, 4, 2, num_shared_experts=2).eval()
    keys = list(moe.state_dict())
    assert "shared_experts.0.gate_proj.weight" in keys and "shared_experts.1.up_proj.weight" in keys
    assert len(keys) == 1 + 4 * 3 + 2 * 3
    x = torch.randn(3, 5, H, generator=generator)
    routed_only = ml.MoEFeedForward(config, 4, 2).eval()
    routed_only.load_state_dict(moe.state_dict(), strict=False)
    shared = moe.shared_experts[0](x) + moe.shared_experts[1](x)
    torch.testing.assert_close(moe(x), routed_only(x) + shared, atol=1e-5, rtol=1e-4)


def test_minimind2_rescales_only_when_more_than_one_expert_is_chosen(generator) -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    x = torch.randn(10, H, generator=generator)
    one = ml.MoEFeedForward(config, 4, 1, renormalize="if_top_k_gt_1").route(x)
    torch.testing.assert_close(one.weights, one.scores.max(-1, keepdim=True).values)  # raw score
    assert (one.weights < 1).all()
    two = ml.MoEFeedForward(config, 4, 2, renormalize="if_top_k_gt_1").route(x)
    torch.testing.assert_close(two.weights.sum(-1), torch.ones(10))
    never = ml.MoEFeedForward(config, 4, 2, renormalize="never").route(x)
    torch.testing.assert_close(never.weights, never.scores.topk(2, -1).values)
    always = ml.MoEFeedForward(config, 4, 1).route(x)  # minimind-3 and the default
    torch.testing.assert_close(always.weights, torch.ones(10, 1))


def test_raw_scores_keep_the_router_trainable_with_one_expert(generator) -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    x = torch.randn(12, H, generator=generator)
    grads = {}
    for mode in ("always", "if_top_k_gt_1"):
        torch.manual_seed(0)
        moe = ml.MoEFeedForward(config, 4, 1, renormalize=mode)
        moe(x).pow(2).sum().backward()
        grads[mode] = moe.gate.weight.grad.abs().max().item()
    assert grads["always"] < 1e-6 * grads["if_top_k_gt_1"]


@pytest.mark.parametrize(
    ("version", "experts", "top_k", "shared", "mode"),
    [("minimind2", 4, 2, 1, "if_top_k_gt_1"), ("minimind3", 4, 1, 0, "always")],
)
def test_from_config_takes_the_versions_defaults(version, experts, top_k, shared, mode) -> None:
    config = ml.MiniMindConfig(hidden_size=H, num_attention_heads=4, version=version)
    moe = ml.MoEFeedForward.from_config(config)
    assert (moe.num_experts, moe.top_k, len(moe.shared_experts), moe.renormalize) == (
        experts, top_k, shared, mode,
    )  # fmt: skip
    assert moe(torch.randn(2, 3, H)).shape == (2, 3, H)


def test_version_comparison_is_read_off_the_modules() -> None:
    table = ml.version_comparison(768)
    assert table["FFN width m"] == (2048, 2432)
    assert table["FFN dropout after down_proj"] == (True, False)
    assert table["q/k RMSNorm per head"] == (False, True)
    assert table["rms_norm_eps"] == (1e-5, 1e-6)
    assert table["key/value heads (default)"] == (2, 4)
    assert table["MoE routed experts"] == (4, 4)
    assert table["MoE experts per token"] == (2, 1)
    assert table["MoE shared experts"] == (1, 0)
    assert table["MoE rescales top-k weights"] == ("if_top_k_gt_1", "always")
    h = 768
    assert table["MoE parameters, total"] == (h * 4 + 5 * 3 * h * 2048, h * 4 + 4 * 3 * h * 2432)
    assert table["MoE parameters, active per token"] == (
        h * 4 + 3 * 3 * h * 2048,
        h * 4 + 3 * h * 2432,
    )
    assert ml.version_comparison(512)["FFN width m"] == (1408, 1664)


def test_moe_option_errors() -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    with pytest.raises(
        ValueError, match="unknown renormalize='sometimes'; expected one of: always"
    ):
        ml.MoEFeedForward(config, renormalize="sometimes")
    with pytest.raises(
        ValueError, match="num_shared_experts must be a non-negative integer, got -1"
    ):
        ml.MoEFeedForward(config, num_shared_experts=-1)
    config.hidden_size = 0
    with pytest.raises(ValueError, match="hidden_size must be a positive integer, got 0"):
        ml.MoEFeedForward(config)


@pytest.mark.parametrize("config", [None, 16, {"hidden_size": 16}])
def test_something_else_than_a_config_is_named(config: object) -> None:
    """Old behaviour: AttributeError: 'int' object has no attribute 'validate'."""
    with pytest.raises(ValueError, match="MoEFeedForward expects a MiniMindConfig, got"):
        ml.MoEFeedForward(config)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="MoEFeedForward.from_config expects a MiniMindConfig"):
        ml.MoEFeedForward.from_config(config)  # type: ignore[arg-type]


def test_numpy_integer_counts_are_accepted() -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    moe = ml.MoEFeedForward(config, np.int64(3), np.int64(2), num_shared_experts=np.int64(1))
    assert (moe.num_experts, moe.top_k, len(moe.shared_experts)) == (3, 2, 1)
    assert type(moe.top_k) is int


def test_an_input_of_another_dtype_names_both_dtypes() -> None:
    """Old behaviour: torch's "expected m1 and m2 to have the same dtype" from the router."""
    with pytest.raises(
        ValueError, match="input has dtype torch.float64 but MoEFeedForward's weights are"
    ):
        _moe()(torch.zeros(2, H, dtype=torch.float64))
