"""MiniMind's ``FeedForward``, its config and loading its weights out of a checkpoint file."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import minimind_lab as ml

H = 32


def _mlp_tensors(h: int, m: int, seed: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return {
        "gate_proj": torch.randn(m, h, generator=g),
        "up_proj": torch.randn(m, h, generator=g),
        "down_proj": torch.randn(h, m, generator=g),
    }


def _checkpoint(h: int = H, layers: int = 2, prefix: str = "model.", layout: str = "mlp",
                ) -> tuple[dict[str, torch.Tensor], dict[int, dict[str, torch.Tensor]]]:
    """A state dict with MiniMind's key layout (attention and norms too) and its MLP tensors."""
    m = ml.intermediate_size(h)
    g = torch.Generator().manual_seed(99)
    state: dict[str, torch.Tensor] = {f"{prefix}embed_tokens.weight": torch.randn(50, h,
                                                                                  generator=g)}
    mlps = {}
    for i in range(layers):
        base = f"{prefix}layers.{i}"
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            state[f"{base}.self_attn.{proj}.weight"] = torch.randn(h, h, generator=g)
        state[f"{base}.input_layernorm.weight"] = torch.ones(h)
        state[f"{base}.post_attention_layernorm.weight"] = torch.ones(h)
        mlps[i] = _mlp_tensors(h, m, seed=i)
        if layout == "mlp":
            for role, tensor in mlps[i].items():
                state[f"{base}.mlp.{role}.weight"] = tensor
        else:  # the first release: w1 gate, w3 up, w2 down
            names = {"gate_proj": "w1", "up_proj": "w3", "down_proj": "w2"}
            for role, tensor in mlps[i].items():
                state[f"{base}.feed_forward.{names[role]}.weight"] = tensor
    state[f"{prefix}norm.weight"] = torch.ones(h)
    state["lm_head.weight"] = torch.randn(50, h, generator=g)
    return state, mlps


def _assert_loaded(mlp: ml.FeedForward, expected: dict[str, torch.Tensor]) -> None:
    for role, tensor in expected.items():
        assert torch.equal(getattr(mlp, role).weight, tensor), role


# --- FeedForward ---------------------------------------------------------------------------

def test_feedforward_equals_gated_ffn_and_the_formula(generator: torch.Generator) -> None:
    ff = ml.FeedForward(ml.MiniMindConfig(hidden_size=H)).eval()
    gated = ml.GatedFFN(H, ff.intermediate_size, act="silu").eval()
    gated.load_state_dict(ff.state_dict())
    x = torch.randn(3, 7, H, generator=generator)
    wg, wu, wd = ff.gate_proj.weight, ff.up_proj.weight, ff.down_proj.weight
    by_hand = (F.silu(x @ wg.T) * (x @ wu.T)) @ wd.T
    torch.testing.assert_close(ff(x), gated(x))
    torch.testing.assert_close(ff(x), by_hand, atol=1e-5, rtol=1e-4)


def test_activation_sits_on_the_gate_branch_only(generator: torch.Generator) -> None:
    ff = ml.FeedForward(ml.MiniMindConfig(hidden_size=H)).eval()
    x = torch.randn(4, H, generator=generator)
    wrong = ff.down_proj(ff.gate_proj(x) * F.silu(ff.up_proj(x)))  # activation on up instead
    assert not torch.allclose(ff(x), wrong, atol=1e-4)


@pytest.mark.parametrize(("name", "width"), [("MiniMind2-Small", 1408), ("MiniMind2-MoE", 1728),
                                             ("MiniMind2", 2048)])
def test_minimind2_widths_are_written_back_to_the_config(name: str, width: int) -> None:
    config = ml.minimind2_config(name)
    assert config.intermediate_size is None
    ff = ml.FeedForward(config)
    assert config.intermediate_size == width == ff.intermediate_size
    assert ff.gate_proj.weight.shape == (width, config.hidden_size)
    assert ml.count_parameters(ff) == 3 * config.hidden_size * width


@pytest.mark.parametrize(("hidden", "width"), [(512, 1408), (640, 1728), (768, 2048)])
def test_widths_follow_the_8_3_rule_rounded_to_64(hidden: int, width: int) -> None:
    assert 64 * -(-int(hidden * 8 / 3) // 64) == width
    assert ml.FeedForward(ml.MiniMindConfig(hidden_size=hidden)).intermediate_size == width


def test_explicit_width_is_kept() -> None:
    config = ml.MiniMindConfig(hidden_size=H, intermediate_size=40)
    assert ml.FeedForward(config).intermediate_size == 40 == config.intermediate_size


def test_state_dict_keys_and_no_bias() -> None:
    ff = ml.FeedForward(ml.MiniMindConfig(hidden_size=H))
    assert list(ff.state_dict()) == ["gate_proj.weight", "down_proj.weight", "up_proj.weight"]
    for layer in (ff.gate_proj, ff.up_proj, ff.down_proj):
        assert isinstance(layer, nn.Linear) and layer.bias is None


@pytest.mark.parametrize(("act", "kind"), [("silu", nn.SiLU), ("gelu", nn.GELU),
                                           ("relu", nn.ReLU)])
def test_activation_is_looked_up_by_name(act: str, kind: type) -> None:
    assert isinstance(ml.FeedForward(ml.MiniMindConfig(hidden_size=H, hidden_act=act)).act_fn,
                      kind)


def test_dropout_acts_after_down_proj(generator: torch.Generator) -> None:
    ff = ml.FeedForward(ml.MiniMindConfig(hidden_size=H, dropout=0.5)).train()
    x = torch.randn(64, H, generator=generator)
    torch.manual_seed(0)
    y = ff(x)
    down = ff.down_proj(ff.act_fn(ff.gate_proj(x)) * ff.up_proj(x))
    kept = y != 0
    assert 0.3 < kept.float().mean() < 0.7
    torch.testing.assert_close(y[kept], 2 * down[kept])  # survivors scaled by 1 / (1 - p)
    torch.testing.assert_close(ff.eval()(x), down)


def test_config_and_input_errors() -> None:
    with pytest.raises(ValueError, match="unknown activation 'swiglu'"):
        ml.FeedForward(ml.MiniMindConfig(hidden_size=H, hidden_act="swiglu"))
    with pytest.raises(ValueError, match="hidden_size must be a positive integer"):
        ml.MiniMindConfig(hidden_size=0)
    with pytest.raises(ValueError, match="dropout must be in"):
        ml.MiniMindConfig(dropout=1.0)
    with pytest.raises(ValueError, match="unknown model 'MiniMind3'"):
        ml.minimind2_config("MiniMind3")
    with pytest.raises(ValueError, match="last dimension must equal hidden_size=32"):
        ml.FeedForward(ml.MiniMindConfig(hidden_size=H))(torch.zeros(2, 16))


# --- load_minimind_mlp ---------------------------------------------------------------------

@pytest.mark.parametrize("prefix", ["model.", ""])
@pytest.mark.parametrize("layer", [0, 1])
def test_checkpoint_round_trip_through_a_pth_file(tmp_path: Path, prefix: str,
                                                  layer: int) -> None:
    state, mlps = _checkpoint(prefix=prefix)
    path = tmp_path / "full_sft_32.pth"
    torch.save(state, path)
    mlp = ml.load_minimind_mlp(path, layer=layer)
    assert isinstance(mlp, ml.FeedForward)
    assert (mlp.hidden_size, mlp.intermediate_size) == (H, ml.intermediate_size(H))
    _assert_loaded(mlp, mlps[layer])
    x = torch.randn(5, H)
    wg, wu, wd = (mlps[layer][r] for r in ("gate_proj", "up_proj", "down_proj"))
    torch.testing.assert_close(mlp(x), (F.silu(x @ wg.T) * (x @ wu.T)) @ wd.T, atol=1e-4,
                               rtol=1e-4)


def test_first_release_layout_maps_w1_gate_w3_up_w2_down(tmp_path: Path) -> None:
    state, mlps = _checkpoint(prefix="", layout="feed_forward")
    torch.save(state, tmp_path / "pretrain_32.pth")
    mlp = ml.load_minimind_mlp(tmp_path / "pretrain_32.pth", layer=1)
    _assert_loaded(mlp, mlps[1])


def test_state_dict_and_wrapped_checkpoints_load(tmp_path: Path) -> None:
    state, mlps = _checkpoint()
    _assert_loaded(ml.load_minimind_mlp(state, layer=0), mlps[0])
    torch.save({"model": state, "step": 3}, tmp_path / "resume.pth")
    _assert_loaded(ml.load_minimind_mlp(str(tmp_path / "resume.pth"), layer=1), mlps[1])


def test_half_precision_checkpoint_keeps_its_dtype(tmp_path: Path) -> None:
    state, mlps = _checkpoint()
    torch.save({k: v.half() for k, v in state.items()}, tmp_path / "full_sft_32.pth")
    mlp = ml.load_minimind_mlp(tmp_path / "full_sft_32.pth", layer=0, hidden_act="gelu")
    assert mlp.gate_proj.weight.dtype == torch.float16 and isinstance(mlp.act_fn, nn.GELU)
    assert torch.equal(mlp.up_proj.weight, mlps[0]["up_proj"].half())
    assert mlp.float()(torch.randn(2, H)).dtype == torch.float32


def test_missing_layer_names_the_keys_and_the_layers_present() -> None:
    state, _ = _checkpoint()
    with pytest.raises(KeyError) as info:
        ml.load_minimind_mlp(state, layer=5)
    message = info.value.args[0]
    assert "no MLP weights for layer 5" in message
    assert "model.layers.5.mlp.gate_proj.weight" in message
    assert "layers.5.feed_forward.w1.weight" in message
    assert "Layers present: [0, 1]" in message
    assert "model.embed_tokens.weight" in message
    assert f"(and {len(state) - 6} more)" in message


def test_missing_key_in_a_layer_raises_key_error() -> None:
    state, _ = _checkpoint()
    del state["model.layers.1.mlp.up_proj.weight"]
    with pytest.raises(KeyError, match="no MLP weights for layer 1"):
        ml.load_minimind_mlp(state, layer=1)
    ml.load_minimind_mlp(state, layer=0)  # the other layer still loads


def test_moe_checkpoint_gets_a_hint() -> None:
    state = {"model.layers.0.mlp.gate.weight": torch.zeros(4, H),
             "model.layers.0.mlp.experts.0.gate_proj.weight": torch.zeros(96, H)}
    with pytest.raises(KeyError, match=r"holds an MoE \(mlp.experts"):
        ml.load_minimind_mlp(state, layer=0)


def test_empty_checkpoint_says_it_found_none() -> None:
    with pytest.raises(KeyError, match="found keys such as: none"):
        ml.load_minimind_mlp({}, layer=0)


@pytest.mark.parametrize(("role", "shape"), [("up_proj", (96, 16)), ("down_proj", (96, H))])
def test_inconsistent_shapes_raise_value_error(role: str, shape: tuple[int, int]) -> None:
    state, _ = _checkpoint()
    state[f"model.layers.0.mlp.{role}.weight"] = torch.zeros(shape)
    with pytest.raises(ValueError, match="layer 0: inconsistent MLP shapes"):
        ml.load_minimind_mlp(state, layer=0)


def test_gate_that_is_not_a_matrix_raises_value_error() -> None:
    state, _ = _checkpoint()
    state["model.layers.0.mlp.gate_proj.weight"] = torch.zeros(96)
    with pytest.raises(ValueError, match="layer 0: inconsistent MLP shapes"):
        ml.load_minimind_mlp(state, layer=0)


def test_not_a_state_dict_raises_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="expected a state dict"):
        ml.load_minimind_mlp([1, 2, 3])  # type: ignore[arg-type]
    torch.save(torch.zeros(3), tmp_path / "tensor.pth")
    with pytest.raises(ValueError, match="got Tensor"):
        ml.load_minimind_mlp(tmp_path / "tensor.pth")
