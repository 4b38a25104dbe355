"""Loading MiniMind checkpoints: one layer's MLP (``load_minimind_mlp``) or the whole model.

The logits tests compare ``load_minimind_model`` with MiniMind's OWN model on the same weights.
The fixtures in ``tests/data`` were made outside this repo, with MiniMind's code that is not
committed here:

* ``model/model_minimind.py`` of ``jingyaogong/minimind`` at commit
  ``9d898576ac7e640b32cff2859d534668c292d339`` (MiniMind2: 8/3 width rule, FFN dropout, no q/k
  norm, eps 1e-5, rotate-half RoPE) and at commit ``0074dcfd506e8097f981ebe091235606fa57c03b``
  (minimind-3: π width rule, q_norm/k_norm, eps 1e-6), imported in a separate venv with
  torch 2.13.0 (CPU) and transformers 5.24.0.
* Tiny configs: ``vocab_size=64, hidden_size=48, num_hidden_layers=2, num_attention_heads=4,
  num_key_value_heads=2`` (minimind-3 also ``head_dim=16``, so its ``q_proj`` has 64 rows); FFN
  widths 128 (MiniMind2) and 192 (minimind-3), as each version's config derives them.
* ``torch.manual_seed(0)``, then every weight redrawn from ``torch.Generator().manual_seed(1)``
  (``randn / sqrt(fan_in) · 1.5``; norm gains ``1 + 0.3·randn``) so every part of the
  arithmetic shows in the logits.
* Saved the way MiniMind's trainer saves: ``torch.save({k: v.half().cpu() for k, v in
  model.state_dict().items()}, "minimind{2,3}_tiny.pth")`` (both ``model.embed_tokens.weight``
  and the tied ``lm_head.weight`` are in the file).
* ``minimind{2,3}_tiny_reference.pt``: ``input_ids`` (2, 12) drawn from the same generator and
  the ``logits`` (2, 12, 64) of MiniMind's ``MiniMindForCausalLM`` in eval mode, float32, after
  loading the float16 weights cast to float32.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import minimind_lab as ml
from minimind_lab.checkpoint import CheckpointKeyError

H = 32
DATA = Path(__file__).parent / "data"
VERSIONS = ["minimind2", "minimind3"]


def _mlp_tensors(h: int, m: int, seed: int) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return {
        "gate_proj": torch.randn(m, h, generator=g),
        "up_proj": torch.randn(m, h, generator=g),
        "down_proj": torch.randn(h, m, generator=g),
    }


def _checkpoint(
    h: int = H, layers: int = 2, prefix: str = "model.", layout: str = "mlp"
) -> tuple[dict[str, torch.Tensor], dict[int, dict[str, torch.Tensor]]]:
    """A state dict with MiniMind's key layout (attention and norms too) and its MLP tensors."""
    m = ml.intermediate_size(h)
    g = torch.Generator().manual_seed(99)
    state: dict[str, torch.Tensor] = {
        f"{prefix}embed_tokens.weight": torch.randn(50, h, generator=g)
    }
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
    state["lm_head.weight"] = state[f"{prefix}embed_tokens.weight"]
    return state, mlps


def _assert_loaded(mlp: ml.FeedForward, expected: dict[str, torch.Tensor]) -> None:
    for role, tensor in expected.items():
        assert torch.equal(getattr(mlp, role).weight, tensor), role


def _fixture(version: str) -> tuple[Path, dict]:
    return DATA / f"{version}_tiny.pth", torch.load(
        DATA / f"{version}_tiny_reference.pt", weights_only=True
    )


# --- load_minimind_mlp ---------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["model.", ""])
@pytest.mark.parametrize("layer", [0, 1])
def test_checkpoint_round_trip_through_a_pth_file(tmp_path: Path, prefix: str, layer: int) -> None:
    state, mlps = _checkpoint(prefix=prefix)
    path = tmp_path / "full_sft_32.pth"
    torch.save(state, path)
    mlp = ml.load_minimind_mlp(path, layer=layer)
    assert isinstance(mlp, ml.FeedForward)
    assert (mlp.hidden_size, mlp.intermediate_size) == (H, ml.intermediate_size(H))
    _assert_loaded(mlp, mlps[layer])
    x = torch.randn(5, H)
    wg, wu, wd = (mlps[layer][r] for r in ("gate_proj", "up_proj", "down_proj"))
    by_hand = (F.silu(x @ wg.T) * (x @ wu.T)) @ wd.T
    torch.testing.assert_close(mlp(x), by_hand, atol=1e-4, rtol=1e-4)


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


@pytest.mark.parametrize(
    "wrapper", ["module.", "_orig_mod.", "module._orig_mod.", "_orig_mod.module."]
)
def test_ddp_and_compile_prefixes_load(wrapper: str) -> None:
    state, mlps = _checkpoint()
    wrapped = {wrapper + k: v for k, v in state.items()}
    _assert_loaded(ml.load_minimind_mlp(wrapped, layer=1), mlps[1])


def test_the_mlp_owns_copies_of_the_callers_tensors() -> None:
    state, mlps = _checkpoint()
    before = {k: v.clone() for k, v in state.items()}
    mlp = ml.load_minimind_mlp(state, layer=0)
    assert (
        mlp.gate_proj.weight.data_ptr() != state["model.layers.0.mlp.gate_proj.weight"].data_ptr()
    )
    with torch.no_grad():
        mlp.gate_proj.weight.zero_()  # editing the module ...
    optimizer = torch.optim.SGD(mlp.parameters(), lr=1.0)
    mlp(torch.randn(3, H)).sum().backward()
    optimizer.step()  # ... and training it
    for key, value in state.items():  # ... leave the caller's tensors as they were
        assert torch.equal(value, before[key]), key


def test_half_precision_checkpoint_keeps_its_dtype(tmp_path: Path) -> None:
    state, mlps = _checkpoint()
    torch.save({k: v.half() for k, v in state.items()}, tmp_path / "full_sft_32.pth")
    mlp = ml.load_minimind_mlp(tmp_path / "full_sft_32.pth", layer=0, hidden_act="gelu")
    assert mlp.gate_proj.weight.dtype == torch.float16 and isinstance(mlp.act_fn, nn.GELU)
    assert torch.equal(mlp.up_proj.weight, mlps[0]["up_proj"].half())
    assert mlp.float()(torch.randn(2, H)).dtype == torch.float32


def test_a_minimind3_checkpoints_mlp_has_no_dropout() -> None:
    path, _ = _fixture("minimind3")
    mlp = ml.load_minimind_mlp(path, layer=1)
    assert isinstance(mlp.dropout, nn.Identity) and mlp.intermediate_size == 192
    assert isinstance(ml.load_minimind_mlp(DATA / "minimind2_tiny.pth").dropout, nn.Dropout)


def test_missing_layer_names_the_keys_and_the_layers_present() -> None:
    state, _ = _checkpoint()
    with pytest.raises(KeyError) as info:
        ml.load_minimind_mlp(state, layer=5)
    message = str(info.value)
    assert message == info.value.args[0]  # printed as written, not as a quoted repr
    assert "no MLP weights for layer 5" in message
    assert "model.layers.5.mlp.gate_proj.weight" in message
    assert "layers.5.feed_forward.w1.weight" in message
    assert "Layers present: [0, 1]" in message
    assert "model.embed_tokens.weight" in message
    assert f"(and {len(state) - 6} more)" in message


def test_a_foreign_state_dict_names_what_was_expected_and_found() -> None:
    resnet_like = {"conv1.weight": torch.zeros(8, 3, 3, 3), "fc.weight": torch.zeros(10, 8)}
    with pytest.raises(CheckpointKeyError, match=r"looked for model\.layers\.0\.mlp\.gate_proj"):
        ml.load_minimind_mlp(resnet_like)
    with pytest.raises(KeyError, match="found keys such as: conv1.weight, fc.weight"):
        ml.load_minimind_mlp(resnet_like)
    with pytest.raises(KeyError, match=r"expected model\.embed_tokens\.weight.*conv1\.weight"):
        ml.load_minimind_model(resnet_like)


def test_missing_key_in_a_layer_raises_key_error() -> None:
    state, _ = _checkpoint()
    del state["model.layers.1.mlp.up_proj.weight"]
    with pytest.raises(KeyError, match="no MLP weights for layer 1"):
        ml.load_minimind_mlp(state, layer=1)
    ml.load_minimind_mlp(state, layer=0)  # the other layer still loads


def test_moe_checkpoint_gets_a_hint() -> None:
    state = {
        "model.layers.0.mlp.gate.weight": torch.zeros(4, H),
        "model.layers.0.mlp.experts.0.gate_proj.weight": torch.zeros(96, H),
    }
    with pytest.raises(KeyError, match=r"holds an MoE \(mlp.experts"):
        ml.load_minimind_mlp(state, layer=0)


def test_empty_checkpoint_says_it_found_none() -> None:
    with pytest.raises(KeyError, match="found keys such as: none"):
        ml.load_minimind_mlp({}, layer=0)


@pytest.mark.parametrize("layer", [-1, 1.0, True, "0"])
def test_bad_layer_index_is_refused(layer: object) -> None:
    with pytest.raises(ValueError, match="layer must be a non-negative integer"):
        ml.load_minimind_mlp(_checkpoint()[0], layer=layer)  # type: ignore[arg-type]


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


def _unreadable(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.pth"
    if kind == "text":
        path.write_text("hello, this is not a checkpoint\n")
    elif kind == "empty":
        path.write_bytes(b"")
    else:  # a real checkpoint cut in half, as an interrupted copy leaves it
        torch.save(_checkpoint()[0], tmp_path / "whole.pth")
        data = (tmp_path / "whole.pth").read_bytes()
        path.write_bytes(data[: len(data) // 2])
    return path


@pytest.mark.parametrize("kind", ["text", "empty", "truncated"])
@pytest.mark.parametrize("loader", [ml.load_minimind_mlp, ml.load_minimind_model])
def test_an_unreadable_file_says_it_is_not_a_checkpoint(tmp_path: Path, kind: str, loader) -> None:
    path = _unreadable(tmp_path, kind)
    with pytest.raises(ValueError, match="is not a readable PyTorch checkpoint") as info:
        loader(path)
    assert str(path) in str(info.value) and not isinstance(info.value, KeyError)


def test_a_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ml.load_minimind_mlp(tmp_path / "nope.pth")


# --- load_minimind_model: against MiniMind's own logits ------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_logits_equal_minimind_own_model(version: str) -> None:
    path, ref = _fixture(version)
    model = ml.load_minimind_model(path, num_attention_heads=4, dtype=torch.float32)
    with torch.no_grad():
        logits = model(ref["input_ids"])
    assert logits.shape == (2, 12, 64) and logits.dtype == torch.float32
    torch.testing.assert_close(logits, ref["logits"], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_config_is_read_off_the_tensors(version: str) -> None:
    path, ref = _fixture(version)
    config = ml.load_minimind_model(path, num_attention_heads=4).config
    assert config.version == version
    assert (config.vocab_size, config.hidden_size, config.num_hidden_layers) == (64, 48, 2)
    assert (config.num_attention_heads, config.num_key_value_heads) == (4, 2)
    expected = {"minimind2": (128, 12, 1e-5), "minimind3": (192, 16, 1e-6)}[version]
    assert (config.intermediate_size, config.attention_head_dim(), config.rms_norm_eps) == expected
    assert config.intermediate_size == ml.intermediate_size(48, config.spec.width_rule)


def test_minimind3_infers_its_head_count_without_being_told() -> None:
    path, ref = _fixture("minimind3")
    model = ml.load_minimind_model(path, dtype=torch.float32)  # no num_attention_heads
    assert model.config.num_attention_heads == 4
    torch.testing.assert_close(model(ref["input_ids"]), ref["logits"], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("version", VERSIONS)
def test_half_precision_is_kept_by_default(version: str) -> None:
    path, ref = _fixture(version)
    model = ml.load_minimind_model(path, num_attention_heads=4)
    assert model.lm_head.weight.dtype == torch.float16 and not model.training
    with torch.no_grad():
        logits = model(ref["input_ids"])
    assert logits.dtype == torch.float16
    torch.testing.assert_close(logits.float(), ref["logits"], atol=0.05, rtol=0.05)


@pytest.mark.parametrize("wrapper", ["module.", "_orig_mod."])
def test_a_state_dict_in_memory_with_prefixes_loads_and_is_copied(wrapper: str) -> None:
    path, ref = _fixture("minimind2")
    state = {wrapper + k: v for k, v in torch.load(path, weights_only=True).items()}
    before = {k: v.clone() for k, v in state.items()}
    model = ml.load_minimind_model(state, num_attention_heads=4, dtype=torch.float16)
    ptrs = {v.data_ptr() for v in state.values()}
    assert not ptrs & {p.data_ptr() for p in model.parameters()}
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    for key, value in state.items():
        assert torch.equal(value, before[key]), key
    assert model.lm_head.weight is model.model.embed_tokens.weight  # still tied after loading


def test_a_resume_file_with_the_weights_under_model_loads(tmp_path: Path) -> None:
    path, ref = _fixture("minimind3")
    state = torch.load(path, weights_only=True)
    torch.save({"model": state, "epoch": 1, "step": 7}, tmp_path / "full_sft_48_resume.pth")
    model = ml.load_minimind_model(tmp_path / "full_sft_48_resume.pth", dtype=torch.float32)
    torch.testing.assert_close(model(ref["input_ids"]), ref["logits"], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize(("use_attention", "use_mlp"), [(True, False), (False, True)])
def test_a_model_without_mlps_or_attention_round_trips(use_attention: bool, use_mlp: bool) -> None:
    torch.manual_seed(0)
    config = ml.MiniMindConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, vocab_size=40,
        max_position_embeddings=64, use_attention=use_attention, use_mlp=use_mlp,
    )  # fmt: skip
    original = ml.MiniMindForCausalLM(config).eval()
    with torch.no_grad():  # the weights as the float16 file will hold them
        for p in original.parameters():
            p.copy_(p.half().float())
    state = {k: v.half() for k, v in original.state_dict().items()}
    loaded = ml.load_minimind_model(state, num_attention_heads=4)  # the tensors can't tell
    assert (loaded.config.use_attention, loaded.config.use_mlp) == (use_attention, use_mlp)
    assert loaded.state_dict().keys() == original.state_dict().keys()
    ids = torch.randint(0, 40, (1, 9))
    torch.testing.assert_close(loaded.float()(ids), original(ids))


def _state(version: str = "minimind2") -> dict[str, torch.Tensor]:
    return torch.load(DATA / f"{version}_tiny.pth", weights_only=True)


@pytest.mark.parametrize(
    ("version", "heads", "message"),
    [
        ("minimind2", 5, "num_attention_heads=5 does not fit: hidden_size=48 must divide"),
        ("minimind2", 3, "k_proj has 24 rows, which is no whole number of key/value heads"),
        (
            "minimind3",
            8,
            "num_attention_heads=8, but q_proj's 64 rows in heads of q_norm's size 16",
        ),
        ("minimind3", 0, "num_attention_heads must be a positive integer"),
    ],
)
def test_head_counts_that_contradict_the_tensors_are_refused(
    version: str, heads: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        ml.load_minimind_model(_state(version), num_attention_heads=heads)


def test_a_version_that_contradicts_the_tensors_is_refused() -> None:
    with pytest.raises(
        ValueError, match="version='minimind2', but the checkpoint's attention has q_norm"
    ):
        ml.load_minimind_model(_state("minimind3"), version="minimind2")
    with pytest.raises(ValueError, match="unknown MiniMind version 'minimind4'"):
        ml.load_minimind_model(_state(), version="minimind4")


def test_missing_unexpected_and_misshapen_weights_are_named() -> None:
    state = _state()
    del state["model.layers.1.post_attention_layernorm.weight"]
    with pytest.raises(KeyError, match=r"lacks 1 weight\(s\).*layers\.1\.post_attention_layernorm"):
        ml.load_minimind_model(state, num_attention_heads=4)
    state = _state()
    state["model.layers.1.self_attn.q_norm.weight"] = torch.ones(12)  # only layer 1
    with pytest.raises(ValueError, match=r"no place for: model\.layers\.1\.self_attn\.q_norm"):
        ml.load_minimind_model(state, num_attention_heads=4)
    state = _state()
    state["model.layers.1.mlp.up_proj.weight"] = torch.zeros(64, 48)
    with pytest.raises(
        ValueError,
        match=r"layers\.1\.mlp\.up_proj\.weight has shape \(64, 48\); expected \(128, 48\)",
    ):
        ml.load_minimind_model(state, num_attention_heads=4)


def test_an_untied_lm_head_is_refused_and_a_missing_one_is_fine() -> None:
    state = _state()
    state["lm_head.weight"] = state["lm_head.weight"] + 1
    with pytest.raises(ValueError, match="lm_head.weight differs from model.embed_tokens.weight"):
        ml.load_minimind_model(state, num_attention_heads=4)
    state = _state()
    del state["lm_head.weight"]
    model = ml.load_minimind_model(state, num_attention_heads=4)
    assert torch.equal(model.lm_head.weight, state["model.embed_tokens.weight"])


def test_gaps_in_the_layers_and_moe_and_first_release_checkpoints_are_refused() -> None:
    state = {k.replace("layers.1.", "layers.2."): v for k, v in _state().items()}
    with pytest.raises(ValueError, match=r"expected layers 0..L-1 .* found layers \[0, 2\]"):
        ml.load_minimind_model(state)
    moe = _state() | {"model.layers.0.mlp.experts.0.gate_proj.weight": torch.zeros(128, 48)}
    with pytest.raises(ValueError, match="holds MoE layers"):
        ml.load_minimind_model(moe)
    old, _ = _checkpoint(prefix="", layout="feed_forward")
    old = {k.replace("embed_tokens", "tok_embeddings"): v for k, v in old.items()}
    with pytest.raises(KeyError, match="first release's names"):
        ml.load_minimind_model(old)


def test_a_bad_dtype_is_refused() -> None:
    with pytest.raises(ValueError, match="dtype must be None or a floating-point torch.dtype"):
        ml.load_minimind_model(_state(), dtype=torch.int64)


# --- issue 19: what an unreadable or unusable file gets -------------------------------------


def test_every_cut_of_a_file_says_it_is_not_a_checkpoint(tmp_path: Path) -> None:
    """Old behaviour: some cuts gave ``OSError: [Errno 22] Invalid argument``, as if the path
    were wrong, instead of saying that the file is not a readable checkpoint."""
    torch.save(_checkpoint()[0], tmp_path / "whole.pth")
    data = (tmp_path / "whole.pth").read_bytes()
    path = tmp_path / "cut.pth"
    for cut in range(0, len(data), 997):
        path.write_bytes(data[:cut])
        with pytest.raises(ValueError, match="is not a readable PyTorch checkpoint") as info:
            ml.load_minimind_mlp(path)
        assert "cut-short" in str(info.value), cut


def test_a_pickled_module_is_named_with_torchs_whole_reason(tmp_path: Path) -> None:
    """Old behaviour: torch's first line only, with its ANSI colour codes, no "Unsupported
    global", and "expected a file written by torch.save" about a file torch.save wrote."""
    path = tmp_path / "model.pth"
    torch.save(nn.Linear(2, 2), path)
    for loader in (ml.load_minimind_mlp, ml.load_minimind_model):
        with pytest.raises(ValueError) as info:
            loader(path)
        message = str(info.value)
        assert (
            "holds a pickled module (torch.nn.modules.linear.Linear), not a state dict" in message
        )
        assert "Save model.state_dict() instead" in message
        assert "Unsupported global: GLOBAL torch.nn.modules.linear.Linear" in message
        assert "\x1b" not in message and "expected a file written by torch.save" not in message


def test_int8_weights_are_refused_once_with_one_message() -> None:
    """Old behaviour: one RuntimeError per weight from inside load_state_dict; and with
    dtype=float32 the raw int8 values loaded silently, without their scales."""
    state, _ = _checkpoint()
    int8 = {key: tensor.to(torch.int8) for key, tensor in state.items()}
    message = r"holds \d+ weight\(s\) of dtype torch.int8, such as .*; expected floating-point"
    with pytest.raises(ValueError, match=message):
        ml.load_minimind_mlp(int8)
    model_state = {key: tensor.to(torch.int8) for key, tensor in _state().items()}
    for dtype in (None, torch.float32):
        with pytest.raises(ValueError, match=message):
            ml.load_minimind_model(model_state, num_attention_heads=4, dtype=dtype)


def _minimind2_state(hidden: int, heads: int, kv_heads: int) -> dict[str, torch.Tensor]:
    config = ml.MiniMindConfig(hidden_size=hidden, num_attention_heads=heads,
                               num_key_value_heads=kv_heads, num_hidden_layers=1,
                               vocab_size=8, intermediate_size=16)  # fmt: skip
    with ml.seeded(0):
        return ml.MiniMindForCausalLM(config).state_dict()


def test_an_ambiguous_head_count_warns_naming_the_other_splits() -> None:
    """Old behaviour: a 4-head model loaded as 8 heads without a word; the logits were wrong."""
    with pytest.warns(UserWarning, match=r"fit several head splits: 8 heads.*4 heads \(2 key"):
        model = ml.load_minimind_model(_state())
    assert model.config.num_attention_heads == 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (
            ml.load_minimind_model(_state(), num_attention_heads=4).config.num_key_value_heads == 2
        )


def test_a_published_size_or_a_single_fitting_split_loads_without_a_word() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        published = ml.load_minimind_model(_minimind2_state(512, 8, 2))  # MiniMind2-Small
        # Old behaviour: 8 heads of 3 did not fit, so a ValueError; 12 heads of 2 is the only fit.
        single = ml.load_minimind_model(_minimind2_state(24, 12, 1))
    assert (published.config.num_attention_heads, published.config.num_key_value_heads) == (8, 2)
    assert (single.config.num_attention_heads, single.config.num_key_value_heads) == (12, 1)


def test_several_splits_without_the_default_ask_for_the_head_count() -> None:
    """Old behaviour: 8 heads of size 3 were tried, and RoPE refused the odd head_dim."""
    with pytest.raises(
        ValueError,
        match=r"do not fit MiniMind's default of 8 heads but fit 2 heads \(1 key/value\), "
        r"4 heads \(2 key/value\).*pass num_attention_heads=",
    ):
        ml.load_minimind_model(_minimind2_state(24, 4, 2))
    assert ml.load_minimind_model(_minimind2_state(24, 4, 2), num_attention_heads=4)
