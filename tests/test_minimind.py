"""MiniMind's ``FeedForward`` and its config: versions, derived widths and validation.

Checkpoint loading is tested in ``test_checkpoint.py``."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import minimind_lab as ml

H = 32


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


@pytest.mark.parametrize(
    ("name", "width"), [("MiniMind2-Small", 1408), ("MiniMind2-MoE", 1728), ("MiniMind2", 2048)]
)
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


@pytest.mark.parametrize(("act", "kind"), [("silu", nn.SiLU), ("gelu", nn.GELU), ("relu", nn.ReLU)])
def test_activation_is_looked_up_by_name(act: str, kind: type) -> None:
    assert isinstance(ml.FeedForward(ml.MiniMindConfig(hidden_size=H, hidden_act=act)).act_fn, kind)


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
    with pytest.raises(ValueError, match=r"dropout must be a number in \[0, 1\)"):
        ml.MiniMindConfig(dropout=1.0)
    with pytest.raises(ValueError, match="unknown model 'MiniMind3'"):
        ml.minimind2_config("MiniMind3")
    with pytest.raises(ValueError, match="last dimension must equal hidden_size=32"):
        ml.FeedForward(ml.MiniMindConfig(hidden_size=H))(torch.zeros(2, 16))


# --- versions ------------------------------------------------------------------------------


def test_minimind2_is_the_default_with_its_eps_and_kv_heads() -> None:
    config = ml.MiniMindConfig()
    assert config.version == "minimind2"
    assert (config.rms_norm_eps, config.num_key_value_heads) == (1e-5, 2)
    assert (config.rope_theta, config.max_position_embeddings) == (1e6, 32768)
    assert isinstance(ml.FeedForward(config).dropout, nn.Dropout)


@pytest.mark.parametrize(("hidden", "width"), [(512, 1664), (768, 2432), (48, 192)])
def test_minimind3_uses_the_pi_rule_no_dropout_and_its_own_defaults(
    hidden: int, width: int
) -> None:
    config = ml.MiniMindConfig(hidden_size=hidden, num_attention_heads=8 if hidden > 48 else 4,
                               version="minimind3")  # fmt: skip
    assert (config.rms_norm_eps, config.num_key_value_heads) == (1e-6, 4)
    ff = ml.FeedForward(config)
    assert ff.intermediate_size == width == math.ceil(hidden * math.pi / 64) * 64
    assert config.intermediate_size == width  # written back here too
    assert isinstance(ff.dropout, nn.Identity)
    assert list(ff.state_dict()) == ["gate_proj.weight", "down_proj.weight", "up_proj.weight"]


def test_explicit_eps_and_kv_heads_override_the_version() -> None:
    config = ml.MiniMindConfig(version="minimind3", rms_norm_eps=1e-5, num_key_value_heads=2)
    assert (config.rms_norm_eps, config.num_key_value_heads) == (1e-5, 2)


def test_versions_record_the_commits_they_were_read_from() -> None:
    assert set(ml.VERSIONS) == {"minimind2", "minimind3"}
    for spec in ml.VERSIONS.values():
        assert len(spec.commit) == 40 and int(spec.commit, 16) >= 0
    assert ml.VERSIONS["minimind2"].width_rule == ml.MINIMIND2_RULE
    assert ml.VERSIONS["minimind3"].width_rule == ml.MINIMIND3_RULE


# --- the write-back trap and derive() ------------------------------------------------------


def test_replace_after_a_build_keeps_the_old_width_and_derive_does_not() -> None:
    config = ml.MiniMindConfig(hidden_size=512)
    ml.FeedForward(config)
    assert config.intermediate_size == 1408
    stale = dataclasses.replace(config, hidden_size=768)
    assert ml.FeedForward(stale).intermediate_size == 1408  # MiniMind's trap, kept on purpose
    fresh = config.derive(hidden_size=768)
    assert ml.FeedForward(fresh).intermediate_size == 2048 == ml.intermediate_size(768)
    assert config.hidden_size == 512 and config.intermediate_size == 1408  # unchanged


def test_derive_keeps_what_was_given_and_rederives_version_defaults() -> None:
    explicit = ml.MiniMindConfig(hidden_size=64, intermediate_size=40, rms_norm_eps=1e-3)
    copy = explicit.derive(hidden_size=128, version="minimind3")
    assert (copy.intermediate_size, copy.rms_norm_eps) == (40, 1e-3)  # given: kept
    assert copy.num_key_value_heads == 4  # defaulted: the new version's
    assert ml.MiniMindConfig(hidden_size=64).derive(version="minimind3").rms_norm_eps == 1e-6


# --- validation ----------------------------------------------------------------------------

BAD_FIELDS = [
    ("hidden_size", 0, "hidden_size must be a positive integer, got 0"),
    ("hidden_size", -8, "hidden_size must be a positive integer, got -8"),
    ("hidden_size", 32.0, "hidden_size must be a positive integer, got 32.0"),
    ("hidden_size", True, "hidden_size must be a positive integer, got True"),
    ("intermediate_size", 0, "intermediate_size must be a positive integer, got 0"),
    ("num_hidden_layers", "2", "num_hidden_layers must be a positive integer, got '2'"),
    ("num_attention_heads", 0, "num_attention_heads must be a positive integer, got 0"),
    ("num_key_value_heads", False, "num_key_value_heads must be a positive integer, got False"),
    ("num_key_value_heads", 3, "num_attention_heads=8 must be a multiple of num_key_value_heads=3"),
    ("num_attention_heads", 6, "hidden_size=32 must divide by num_attention_heads=6"),
    ("vocab_size", 0, "vocab_size must be a positive integer, got 0"),
    ("max_position_embeddings", -1, "max_position_embeddings must be a positive integer"),
    ("head_dim", 0, "head_dim must be a positive integer, got 0"),
    ("head_dim", 8, "head_dim=8, but minimind2 fixes it at hidden_size // num_attention_heads = 4"),
    ("hidden_act", "swiglu", "unknown activation 'swiglu'; expected one of: relu"),
    ("hidden_act", None, "unknown activation None"),
    ("dropout", 1.0, r"dropout must be a number in \[0, 1\), got 1.0"),
    ("dropout", -0.1, r"dropout must be a number in \[0, 1\), got -0.1"),
    ("dropout", "0.1", r"dropout must be a number in \[0, 1\), got '0.1' \(type str"),
    ("dropout", None, r"dropout must be a number in \[0, 1\), got None"),
    ("rms_norm_eps", -1e-5, r"rms_norm_eps must be a number in \(0, 1\), got -1e-05"),
    ("rms_norm_eps", float("nan"), r"rms_norm_eps must be a number in \(0, 1\), got nan"),
    ("rms_norm_eps", 0.0, r"rms_norm_eps must be a number in \(0, 1\), got 0.0"),
    ("rope_theta", 0, "rope_theta must be a positive finite number, got 0"),
    ("rope_theta", float("inf"), "rope_theta must be a positive finite number, got inf"),
    ("rope_theta", True, r"rope_theta must be a positive finite number, got True \(type bool"),
    ("hidden_size", Fraction(8, 3), r"got Fraction\(8, 3\) \(type Fraction, expected int\)"),
    ("version", "minimind4", "unknown MiniMind version 'minimind4'; expected one of: minimind2"),
    ("use_attention", "yes", "use_attention must be True or False, got 'yes'"),
    ("use_mlp", 0, "use_mlp must be True or False, got 0"),
]


@pytest.mark.parametrize(("field", "value", "message"), BAD_FIELDS)
def test_every_bad_field_is_refused_at_construction(
    field: str, value: object, message: str
) -> None:
    kwargs = {"hidden_size": H, "num_attention_heads": 8, field: value}
    with pytest.raises(ValueError, match=message):
        ml.MiniMindConfig(**kwargs)


BUILDERS = {
    "FeedForward": ml.FeedForward,
    "Block": ml.Block,
    "CausalSelfAttention": ml.CausalSelfAttention.from_config,
    "MoEFeedForward": ml.MoEFeedForward,
    "MiniMindForCausalLM": ml.MiniMindForCausalLM,
}


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize(("field", "value", "message"), BAD_FIELDS)
def test_a_field_broken_after_construction_stops_every_build(
    builder: str, field: str, value: object, message: str
) -> None:
    config = ml.MiniMindConfig(hidden_size=H, num_attention_heads=8, vocab_size=16,
                               max_position_embeddings=8)  # fmt: skip
    setattr(config, field, value)
    with torch.device("meta"), pytest.raises(ValueError, match=message):
        BUILDERS[builder](config)


def test_zero_width_is_never_built_from_a_mutated_config() -> None:
    config = ml.MiniMindConfig(hidden_size=H)
    config.hidden_size = 0  # before this was validated on every build, a zero-width FFN came out
    with pytest.raises(ValueError, match="hidden_size must be a positive integer, got 0"):
        ml.FeedForward(config)


def test_minimind3_accepts_dropout_but_its_ffn_has_none() -> None:
    """minimind-3's own config accepts dropout (for attention and the embedding); only its
    FeedForward has none. Refusing the value rejected a config minimind-3 accepts."""
    config = ml.MiniMindConfig(hidden_size=64, version="minimind3", dropout=0.1)
    mlp = ml.FeedForward(config).train()
    assert isinstance(mlp.dropout, torch.nn.Identity)
    x = torch.randn(4, 64)
    assert torch.equal(mlp(x), mlp.down_proj(mlp.act_fn(mlp.gate_proj(x)) * mlp.up_proj(x)))
    assert isinstance(ml.FeedForward(ml.MiniMindConfig(hidden_size=64, dropout=0.1)).dropout,
                      torch.nn.Dropout)  # fmt: skip


def test_minimind3_may_set_head_dim_freely() -> None:
    config = ml.MiniMindConfig(hidden_size=48, num_attention_heads=4, head_dim=16,
                               version="minimind3")  # fmt: skip
    assert config.attention_head_dim() == 16
    assert ml.MiniMindConfig(hidden_size=48, num_attention_heads=4).attention_head_dim() == 12


def test_numpy_integer_fields_are_accepted_and_stored_as_int() -> None:
    """Old behaviour: "hidden_size must be a positive integer, got np.int64(64)"."""
    config = ml.MiniMindConfig(hidden_size=np.int64(64), num_attention_heads=np.int32(8))
    assert (config.hidden_size, config.num_attention_heads) == (64, 8)
    assert type(config.hidden_size) is int and type(config.num_attention_heads) is int
    assert config == ml.MiniMindConfig(hidden_size=64)
    assert ml.FeedForward(config).intermediate_size == ml.intermediate_size(64)


def test_an_unhashable_model_name_is_refused_with_the_names() -> None:
    with pytest.raises(ValueError, match=r"unknown model \['MiniMind2'\]; expected one of"):
        ml.minimind2_config(["MiniMind2"])  # type: ignore[arg-type]


@pytest.mark.parametrize("config", [None, 64, {"hidden_size": 64}])
def test_feedforward_given_something_else_than_a_config_says_so(config: object) -> None:
    """Old behaviour: AttributeError: 'int' object has no attribute 'validate'."""
    with pytest.raises(ValueError, match="FeedForward expects a MiniMindConfig, got"):
        ml.FeedForward(config)  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_feedforward_names_both_dtypes_and_the_fix(dtype: torch.dtype) -> None:
    """Old behaviour: torch's "expected m1 and m2 to have the same dtype" (a RuntimeError)."""
    ffn = ml.FeedForward(ml.MiniMindConfig(hidden_size=H))
    with pytest.raises(
        ValueError, match=rf"input has dtype {dtype} but FeedForward's weights are torch.float32"
    ):
        ffn(torch.from_numpy(np.ones((2, H))).to(dtype))
