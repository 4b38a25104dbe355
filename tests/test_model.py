"""``MiniMindForCausalLM``: MiniMind's keys, tied head, switches, devices and bad input.

Equality with MiniMind's own logits is tested in ``test_checkpoint.py`` (it needs the loader).
"""

from __future__ import annotations

import pytest
import torch

import minimind_lab as ml

V, H, L = 40, 32, 2


def _config(**changes: object) -> ml.MiniMindConfig:
    fields = {"hidden_size": H, "num_hidden_layers": L, "num_attention_heads": 4,
              "vocab_size": V, "max_position_embeddings": 16}  # fmt: skip
    return ml.MiniMindConfig(**(fields | changes))


def _model(**changes: object) -> ml.MiniMindForCausalLM:
    torch.manual_seed(0)
    return ml.MiniMindForCausalLM(_config(**changes)).eval()


def _minimind_keys(version: str, attention: bool = True, mlp: bool = True) -> set[str]:
    keys = {"model.embed_tokens.weight", "model.norm.weight", "lm_head.weight"}
    for i in range(L):
        p = f"model.layers.{i}"
        if attention:
            keys |= {f"{p}.self_attn.{x}_proj.weight" for x in "qkvo"}
            keys.add(f"{p}.input_layernorm.weight")
            if version == "minimind3":
                keys |= {f"{p}.self_attn.q_norm.weight", f"{p}.self_attn.k_norm.weight"}
        if mlp:
            keys |= {f"{p}.mlp.{x}_proj.weight" for x in ("gate", "up", "down")}
            keys.add(f"{p}.post_attention_layernorm.weight")
    return keys


@pytest.mark.parametrize("version", ["minimind2", "minimind3"])
def test_state_dict_keys_are_minimind_own(version: str) -> None:
    model = _model(version=version)
    assert set(model.state_dict()) == _minimind_keys(version)
    assert not any("freqs" in k for k in model.state_dict())  # RoPE tables: non-persistent
    assert model.model.freqs_cos.shape == (16, 8) and model.model.freqs_cos.dtype == torch.float32


def test_lm_head_is_tied_to_the_embedding() -> None:
    model = _model()
    assert model.lm_head.weight is model.model.embed_tokens.weight
    with torch.no_grad():
        model.model.embed_tokens.weight[3].fill_(1.0)
    assert torch.equal(model.lm_head.weight[3], torch.ones(H))


def test_the_shared_weight_starts_as_minimind2s_does() -> None:
    # MiniMind2 ties embed_tokens to lm_head, so the tensor starts as nn.Linear's uniform init.
    weight = _model().lm_head.weight
    assert weight.abs().max() <= H**-0.5 and weight.std() > 0.5 * H**-0.5 / 3**0.5


def test_forward_reads_top_to_bottom(generator: torch.Generator) -> None:
    model = _model().double()
    ids = torch.randint(0, V, (2, 7), generator=generator)
    cos, sin = model.model.freqs_cos[:7], model.model.freqs_sin[:7]
    h = model.model.embed_tokens(ids)
    for layer in model.model.layers:
        h = h + layer.self_attn(layer.input_layernorm(h), (cos, sin))
        h = h + layer.mlp(layer.post_attention_layernorm(h))
    expected = model.model.norm(h) @ model.model.embed_tokens.weight.T
    logits = model(ids)
    assert logits.shape == (2, 7, V) and logits.dtype == torch.float64
    torch.testing.assert_close(logits, expected)


def test_the_model_is_causal(generator: torch.Generator) -> None:
    model = _model()
    ids = torch.randint(0, V, (1, 10), generator=generator)
    changed = ids.clone()
    changed[0, 6] = (changed[0, 6] + 1) % V
    before, after = model(ids), model(changed)
    torch.testing.assert_close(before[0, :6], after[0, :6])
    assert not torch.allclose(before[0, 6:], after[0, 6:])


@pytest.mark.parametrize(("use_attention", "use_mlp"), [(True, True), (False, True), (True, False)])
def test_switches_keep_the_keys_of_what_remains(use_attention: bool, use_mlp: bool) -> None:
    model = _model(use_attention=use_attention, use_mlp=use_mlp, num_key_value_heads=2)
    assert set(model.state_dict()) == _minimind_keys("minimind2", use_attention, use_mlp)
    m = ml.intermediate_size(H)
    attention = 2 * H * H + 2 * H * (H // 2) + H  # q, o full; k, v for 2 of 4 heads; its norm
    mlp = 3 * H * m + H  # gate, up, down; its norm
    per_layer = (attention if use_attention else 0) + (mlp if use_mlp else 0)
    assert ml.count_parameters(model) == V * H + L * per_layer + H  # tied head counted once
    assert model(torch.randint(0, V, (2, 5))).shape == (2, 5, V)


def test_a_hook_that_zeroes_the_mlps_equals_the_model_without_them(generator) -> None:
    full = _model()
    no_mlp = _model(use_mlp=False)
    no_mlp.load_state_dict(full.state_dict(), strict=False)  # the weights that remain
    ids = torch.randint(0, V, (2, 6), generator=generator)
    handles = [
        layer.mlp.register_forward_hook(lambda mod, args, out: torch.zeros_like(out))
        for layer in full.model.layers
    ]
    torch.testing.assert_close(full(ids), no_mlp(ids))
    for handle in handles:
        handle.remove()
    assert not torch.allclose(full(ids), no_mlp(ids))


def test_one_layers_mlp_output_can_be_replaced(generator) -> None:
    model = _model()
    ids = torch.randint(0, V, (1, 5), generator=generator)
    clean = model(ids)
    handle = model.model.layers[1].mlp.register_forward_hook(lambda m, a, out: out * 0)
    assert not torch.allclose(model(ids), clean)
    handle.remove()
    torch.testing.assert_close(model(ids), clean)


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16])
def test_logits_follow_the_weights_dtype(dtype: torch.dtype) -> None:
    model = _model().to(dtype)
    logits = model(torch.randint(0, V, (2, 4)))
    assert logits.dtype == dtype and torch.isfinite(logits.float()).all()


@pytest.mark.parametrize("version", ["minimind2", "minimind3"])
def test_builds_and_runs_on_meta(version: str) -> None:
    with torch.device("meta"):
        model = ml.MiniMindForCausalLM(_config(version=version))
    assert model.model.freqs_cos.device.type == "meta"
    logits = model(torch.zeros(2, 5, dtype=torch.long, device="meta"))
    assert logits.device.type == "meta" and logits.shape == (2, 5, V)


def test_to_empty_then_init_rope_restores_the_tables() -> None:
    reference = _model()
    with torch.device("meta"):
        model = ml.MiniMindForCausalLM(_config())
    model = model.to_empty(device="cpu")
    model.tie_weights()
    model.model.init_rope()
    model.load_state_dict(reference.state_dict())
    torch.testing.assert_close(model.model.freqs_sin, reference.model.freqs_sin)
    ids = torch.randint(0, V, (1, 6))
    torch.testing.assert_close(model.eval()(ids), reference(ids))


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (torch.zeros(1, 4), "integer token ids .* got torch.float32"),
        (torch.zeros(1, 4, dtype=torch.bool), "integer token ids .* got torch.bool"),
        (torch.tensor([[1, 2, V]]), rf"token ids must be in \[0, {V}\) .* from 1 to {V}"),
        (torch.tensor([[-1, 2]]), rf"token ids must be in \[0, {V}\) .* from -1 to 2"),
        (torch.zeros(4, dtype=torch.long), r"shape \(batch, seq\) .* got \(4,\)"),
        (torch.zeros(1, 0, dtype=torch.long), r"seq ≥ 1, got \(1, 0\)"),
        (torch.zeros(0, 4, dtype=torch.long), r"batch ≥ 1 and seq ≥ 1, got \(0, 4\)"),
        (
            torch.zeros(1, 17, dtype=torch.long),
            "sequence length 17 exceeds max_position_embeddings=16",
        ),
        ([[1, 2, 3]], "input_ids must be a tensor of token ids, got list"),
    ],
)
def test_bad_input_ids_are_refused(ids: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _model()(ids)


def test_an_odd_head_dim_cannot_take_rope() -> None:
    with pytest.raises(ValueError, match="head_dim must be even, got 3"):
        ml.MiniMindForCausalLM(_config(hidden_size=12))
    ml.MiniMindForCausalLM(_config(hidden_size=12, use_attention=False))  # no RoPE, no problem


def test_int32_ids_work_like_long() -> None:
    model = _model()
    ids = torch.randint(0, V, (2, 5))
    torch.testing.assert_close(model(ids.int()), model(ids))


@pytest.mark.parametrize("build", [ml.MiniMindForCausalLM, ml.model.MiniMindModel])
@pytest.mark.parametrize("config", [None, 32])
def test_something_else_than_a_config_is_named(build, config: object) -> None:
    """Old behaviour: AttributeError: 'int' object has no attribute 'validate'."""
    with pytest.raises(ValueError, match=f"{build.__name__} expects a MiniMindConfig, got"):
        build(config)
