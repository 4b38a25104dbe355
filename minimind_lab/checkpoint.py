"""Loading MiniMind checkpoints, so learners can inspect their own model: one MLP or all of it.

MiniMind's trainer saves ``{k: v.half() for k, v in model.state_dict().items()}`` with
``torch.save`` (``out/pretrain_512.pth``, ``out/full_sft_768.pth``, ...), after unwrapping DDP and
``torch.compile``; its resume files hold the same dict under ``"model"``. Both load here, from a
path or from a state dict already in memory, and so do keys still prefixed ``module.`` (DDP) or
``_orig_mod.`` (``torch.compile``). The returned modules own copies of the weights: editing or
training them never touches the caller's tensors.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping

import torch
from torch import Tensor, nn

from ._checks import check_nonnegative_int, check_positive_int
from .minimind import MINIMIND2_MODELS, VERSIONS, FeedForward, MiniMindConfig, version_spec
from .model import MiniMindForCausalLM

# Role → key suffixes under a layer, for MiniMind2 (HF names) and MiniMind's first release.
_LAYOUTS: tuple[tuple[str, dict[str, str]], ...] = (
    ("mlp", {"gate_proj": "gate_proj.weight", "up_proj": "up_proj.weight",
             "down_proj": "down_proj.weight"}),
    ("feed_forward", {"gate_proj": "w1.weight", "up_proj": "w3.weight",
                      "down_proj": "w2.weight"}),
)  # fmt: skip
_PREFIXES = ("model.layers", "layers")
_WRAPPER_PREFIXES = ("module.", "_orig_mod.")  # DDP, torch.compile
_EMBED, _HEAD = "model.embed_tokens.weight", "lm_head.weight"
#: MiniMind's default number of attention heads, used when the tensors cannot tell.
DEFAULT_NUM_ATTENTION_HEADS = 8


class CheckpointKeyError(KeyError):
    """A checkpoint lacks the weights asked for; the message names what was expected and found."""

    def __str__(self) -> str:  # KeyError would print the message as a quoted repr
        return str(self.args[0]) if self.args else ""


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_UNSUPPORTED_GLOBAL = re.compile(r"Unsupported global: GLOBAL ([\w.]+)")


def _read_file(path: str | os.PathLike) -> object:
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        raise  # the path itself is wrong: the OS's message says it best
    except Exception as err:  # text, empty, truncated, a pickled module, not torch.save's format
        raise ValueError(_unreadable_message(os.fspath(path), err)) from err


def _unreadable_message(path: str, err: BaseException) -> str:
    """Why ``path`` did not load: torch's whole reason (without terminal colour codes) after
    what the file is, when that can be told without running its pickle."""
    reason = _ANSI.sub("", str(err)).strip() or "no detail"
    found = _UNSUPPORTED_GLOBAL.search(reason)
    if found and found.group(1).startswith("torch.nn.modules."):
        return (
            f"{path!r} holds a pickled module ({found.group(1)}), not a state dict: it was saved "
            "with torch.save(model). Save model.state_dict() instead, or, only if you trust the "
            "file, load it with torch.load(path, weights_only=False) and pass its .state_dict(). "
            f"torch said: {type(err).__name__}: {reason}"
        )
    if found:
        return (
            f"{path!r} holds a pickled {found.group(1)} object, which loading with "
            "weights_only=True refuses to run; expected a state dict of tensors as torch.save("
            f"model.state_dict()) writes it. torch said: {type(err).__name__}: {reason}"
        )
    return (
        f"{path!r} is not a readable PyTorch checkpoint ({type(err).__name__}: {reason}); "
        "expected a whole file written by torch.save, such as MiniMind's out/full_sft_512.pth "
        "(an empty or cut-short file, from an interrupted copy, does not load)"
    )


def _check_floating(weights: Mapping[str, Tensor]) -> None:
    """Raise one ``ValueError`` if any weight is not floating point (an int8 checkpoint, say)."""
    bad = [key for key, tensor in weights.items() if not tensor.is_floating_point()]
    if bad:
        dtypes = sorted({str(weights[key].dtype) for key in bad})
        raise ValueError(
            f"the checkpoint holds {len(bad)} weight(s) of dtype {', '.join(dtypes)}, such as "
            f"{_sample(bad, 3)}; expected floating-point weights (float32, float16 or "
            "bfloat16). A quantized checkpoint must be dequantized (with its scales) first"
        )


def _strip_wrappers(key: str) -> str:
    stripped = True
    while stripped:
        stripped = False
        for prefix in _WRAPPER_PREFIXES:
            if key.startswith(prefix):
                key, stripped = key[len(prefix) :], True
    return key


def _state_dict(checkpoint: str | os.PathLike | Mapping[str, Tensor]) -> dict[str, Tensor]:
    """The checkpoint's state dict: unwrapped from ``{"model": ...}``, wrapper prefixes removed.

    The tensors are the caller's own (not copied); the loaders below copy them into modules.
    """
    loaded = _read_file(checkpoint) if isinstance(checkpoint, (str, os.PathLike)) else checkpoint
    if not isinstance(loaded, Mapping):
        raise ValueError(
            f"expected a state dict (a mapping of names to tensors), got {type(loaded).__name__}"
        )
    # Some training scripts wrap the weights: {"model": state_dict, "optimizer": ...}.
    for wrapper in ("model", "state_dict"):
        inner = loaded.get(wrapper)
        if isinstance(inner, Mapping):
            loaded = inner
            break
    state: dict[str, Tensor] = {}
    for key, value in loaded.items():
        name = _strip_wrappers(str(key))
        if name in state:
            raise ValueError(f"two keys name the same weight {name!r} once prefixes are removed")
        state[name] = value
    return state


def _sample(keys: list[str], n: int = 6) -> str:
    more = f" (and {len(keys) - n} more)" if len(keys) > n else ""
    return (", ".join(keys[:n]) + more) if keys else "none"


def _layers_found(keys: list[str]) -> list[int]:
    found = {int(m.group(1)) for k in keys if (m := re.search(r"layers\.(\d+)\.", k))}
    return sorted(found)


def _tensor(state: Mapping[str, object], key: str) -> Tensor:
    value = state[key]
    if not isinstance(value, Tensor):
        raise ValueError(f"{key} must be a tensor, got {type(value).__name__}")
    return value


def _version_of(state: Mapping[str, object]) -> str:
    return "minimind3" if any(k.endswith("self_attn.q_norm.weight") for k in state) else "minimind2"


def load_minimind_mlp(
    checkpoint: str | os.PathLike | Mapping[str, Tensor],
    layer: int = 0,
    hidden_act: str = "silu",
) -> FeedForward:
    """The ``FeedForward`` of layer ``layer`` in a MiniMind checkpoint, weights copied in.

    ``checkpoint`` is a ``.pth`` path (read with ``weights_only=True``) or a state dict. Accepted
    keys: ``model.layers.{i}.mlp.{gate,up,down}_proj.weight`` (with or without ``model.``, and
    under ``module.``/``_orig_mod.``), and the first release's ``layers.{i}.feed_forward.w1/w3/w2``
    (gate, up, down). Sizes come from the tensors: ``gate_proj.weight`` is
    ``(intermediate_size, hidden_size)``; the version (for the dropout) from whether the
    checkpoint has ``q_norm``. The module keeps the checkpoint's dtype (which must be floating
    point: an int8 checkpoint is refused) and sits on the CPU.

    Raises ``CheckpointKeyError`` (a ``KeyError``) naming the keys it looked for and some it
    found when the layer is missing, and ``ValueError`` for a file that is not a readable
    checkpoint (cut short, a pickled module rather than a state dict, ...), for non-float weights
    or for inconsistent shapes.
    """
    layer = check_nonnegative_int("layer", layer)
    state = _state_dict(checkpoint)
    keys = list(state.keys())
    tried: list[str] = []
    for prefix in _PREFIXES:
        for block, suffixes in _LAYOUTS:
            names = {role: f"{prefix}.{layer}.{block}.{s}" for role, s in suffixes.items()}
            tried.append(names["gate_proj"])
            if all(n in state for n in names.values()):
                tensors = {role: _tensor(state, name) for role, name in names.items()}
                return _build_mlp(tensors, hidden_act, layer, _version_of(state))
    layers = _layers_found(keys)
    hint = f" Layers present: {layers}." if layers else ""
    if any(".mlp.experts." in k for k in keys):
        hint += " This checkpoint holds an MoE (mlp.experts.*), not one dense MLP per layer."
    raise CheckpointKeyError(
        f"no MLP weights for layer {layer}: looked for {' or '.join(tried)} "
        f"(and the matching up/down keys); found keys such as: {_sample(keys)}.{hint}"
    )


def _build_mlp(
    tensors: dict[str, Tensor], hidden_act: str, layer: int, version: str
) -> FeedForward:
    gate, up, down = tensors["gate_proj"], tensors["up_proj"], tensors["down_proj"]
    m, h = gate.shape if gate.dim() == 2 else (-1, -1)  # not a matrix: reported below
    if m < 1 or h < 1 or up.shape != (m, h) or down.shape != (h, m):
        raise ValueError(
            f"layer {layer}: inconsistent MLP shapes gate {tuple(gate.shape)}, up "
            f"{tuple(up.shape)}, down {tuple(down.shape)}; expected (m, h), (m, h), (h, m)"
        )
    _check_floating({f"{role}.weight": tensor for role, tensor in tensors.items()})
    config = MiniMindConfig(
        hidden_size=h, intermediate_size=m, hidden_act=hidden_act, version=version
    )
    with torch.device("meta"):  # no random init to pay for, and the caller's RNG is untouched
        mlp = FeedForward(config)
    # Fresh copies, assigned: the module owns its weights and never aliases the caller's.
    copies = {f"{role}.weight": t.detach().to("cpu", copy=True) for role, t in tensors.items()}
    mlp.load_state_dict(copies, assign=True)
    return mlp


def load_minimind_model(
    checkpoint: str | os.PathLike | Mapping[str, Tensor],
    *,
    num_attention_heads: int | None = None,
    version: str | None = None,
    hidden_act: str = "silu",
    rms_norm_eps: float | None = None,
    rope_theta: float = 1e6,
    max_position_embeddings: int = 32768,
    dtype: torch.dtype | None = None,
) -> MiniMindForCausalLM:
    """A ``MiniMindForCausalLM`` holding a copy of a MiniMind checkpoint's weights, in eval mode.

    ``checkpoint``: a ``.pth`` path or a state dict as MiniMind's trainer saves them (see the
    module docstring). From the tensors: ``vocab_size`` and ``hidden_size`` (the embedding),
    ``num_hidden_layers``, ``intermediate_size`` (``gate_proj``), whether the layers have
    attention and MLPs, and the version (``q_norm`` present → ``"minimind3"``). Head counts:
    minimind-3's ``q_norm`` gives ``head_dim`` and so every count; a MiniMind2 checkpoint cannot
    tell how its ``hidden_size`` rows split into heads, so ``num_attention_heads`` is taken as
    given and the key/value heads follow from ``k_proj``. Without it: a published MiniMind2 size
    loads with 8 heads, and shapes that only one split fits load with that one; when several
    fit, 8 (MiniMind's default) is taken with a ``UserWarning`` naming the other splits, or, if
    8 does not fit, ``ValueError`` asks for the argument. A given value that contradicts the
    tensors raises ``ValueError``. The other arguments are config fields the tensors do not hold
    (``rms_norm_eps=None``: the version's). ``dtype=None`` keeps the checkpoint's dtype (float16
    for MiniMind's files); weights that are not floating point (an int8 checkpoint) are refused,
    whatever ``dtype``. Weights are copied, never aliased; the model sits on the CPU.
    """
    if dtype is not None and not (isinstance(dtype, torch.dtype) and dtype.is_floating_point):
        raise ValueError(f"dtype must be None or a floating-point torch.dtype, got {dtype!r}")
    state = _state_dict(checkpoint)
    keys = list(state)
    if _EMBED not in state:
        hint = ""
        if any(k.startswith(("tok_embeddings.", "layers.0.attention.wq")) for k in keys):
            hint = (
                " These are the first release's names (model/model.py): load_minimind_mlp reads "
                "their MLPs."
            )
        raise CheckpointKeyError(
            f"not a MiniMind model state dict: expected {_EMBED}, model.layers.{{i}}.* and "
            f"model.norm.weight; found keys such as: {_sample(keys)}.{hint}"
        )
    if any(".mlp.experts." in k for k in keys):
        raise ValueError(
            "this checkpoint holds MoE layers (mlp.experts.*); load_minimind_model builds dense "
            "models only (load MoE layers with MoEFeedForward.load_state_dict)"
        )
    config = _infer_config(
        state, num_attention_heads, version, hidden_act, rms_norm_eps, rope_theta,
        max_position_embeddings,
    )  # fmt: skip
    with torch.device("meta"):  # no random init to pay for, and the caller's RNG is untouched
        model = MiniMindForCausalLM(config)
    target = dtype if dtype is not None else _tensor(state, _EMBED).dtype
    # Fresh copies, assigned: the model owns its weights and never aliases the caller's.
    copies = {
        key: tensor.detach().to("cpu", target, copy=True)
        for key, tensor in _checked_weights(state, model).items()
    }
    model.load_state_dict(copies, strict=True, assign=True)
    model.tie_weights()  # one tensor for the embedding and lm_head, as MiniMind has
    model.model.init_rope()  # float32 tables, on the CPU with the weights
    return model.eval()


def _infer_config(
    state: Mapping[str, Tensor],
    num_attention_heads: int | None,
    version: str | None,
    hidden_act: str,
    rms_norm_eps: float | None,
    rope_theta: float,
    max_position_embeddings: int,
) -> MiniMindConfig:
    embed = _tensor(state, _EMBED)
    if embed.dim() != 2:
        raise ValueError(f"{_EMBED} must be (vocab_size, hidden_size), got {tuple(embed.shape)}")
    vocab, hidden = embed.shape
    layers = _layers_found([k for k in state if k.startswith("model.layers.")])
    if not layers or layers != list(range(len(layers))):
        raise ValueError(f"expected layers 0..L-1 under model.layers, found layers {layers}")
    first = "model.layers.0"
    use_attention = f"{first}.self_attn.q_proj.weight" in state
    use_mlp = f"{first}.mlp.gate_proj.weight" in state
    found = "minimind3" if f"{first}.self_attn.q_norm.weight" in state else "minimind2"
    if version is not None and version_spec(version).name != found and use_attention:
        raise ValueError(
            f"version={version!r}, but the checkpoint's attention "
            f"{'has' if found == 'minimind3' else 'has no'} q_norm, so it is {found!r}"
        )
    version = version or found
    if num_attention_heads is not None:
        num_attention_heads = check_positive_int("num_attention_heads", num_attention_heads)
    heads, kv_heads, head_dim = _head_counts(
        state, hidden, num_attention_heads, version, use_attention
    )
    width = _tensor(state, f"{first}.mlp.gate_proj.weight").shape[0] if use_mlp else None
    return MiniMindConfig(
        hidden_size=hidden,
        intermediate_size=width,
        hidden_act=hidden_act,
        num_hidden_layers=len(layers),
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        rms_norm_eps=rms_norm_eps,
        vocab_size=vocab,
        version=version,
        max_position_embeddings=max_position_embeddings,
        rope_theta=rope_theta,
        head_dim=head_dim,
        use_attention=use_attention,
        use_mlp=use_mlp,
    )


def _head_counts(
    state: Mapping[str, Tensor], hidden: int, heads: int | None, version: str, use_attention: bool
) -> tuple[int, int | None, int | None]:
    """``(num_attention_heads, num_key_value_heads, head_dim)`` as far as the tensors tell."""
    if not use_attention:  # nothing to infer; pick counts that validate
        heads = heads or (
            DEFAULT_NUM_ATTENTION_HEADS if hidden % DEFAULT_NUM_ATTENTION_HEADS == 0 else 1
        )
        kv_default = VERSIONS[version].num_key_value_heads
        return heads, (kv_default if heads % kv_default == 0 else heads), None
    attn = "model.layers.0.self_attn"
    q_rows, k_rows = (_tensor(state, f"{attn}.{p}_proj.weight").shape[0] for p in ("q", "k"))
    if version == "minimind3":
        head_dim = _tensor(state, f"{attn}.q_norm.weight").shape[0]
        if q_rows % head_dim or k_rows % head_dim:
            raise ValueError(
                f"q_proj has {q_rows} rows and k_proj {k_rows}; neither may leave a remainder "
                f"when split into heads of q_norm's size {head_dim}"
            )
        if heads is not None and heads != q_rows // head_dim:
            raise ValueError(
                f"num_attention_heads={heads}, but q_proj's {q_rows} rows in heads of q_norm's "
                f"size {head_dim} make {q_rows // head_dim} heads"
            )
        return q_rows // head_dim, k_rows // head_dim, head_dim
    if heads is None:
        heads = _guess_heads(hidden, q_rows, k_rows)
    if hidden % heads or q_rows != hidden:
        raise ValueError(
            f"num_attention_heads={heads} does not fit: hidden_size={hidden} must divide by it "
            f"and q_proj must have hidden_size rows (it has {q_rows}); pass the head count the "
            "model was trained with"
        )
    head_dim = hidden // heads
    kv_heads, rest = divmod(k_rows, head_dim)
    if rest or kv_heads == 0 or heads % kv_heads:
        raise ValueError(
            f"k_proj has {k_rows} rows, which is no whole number of key/value heads of size "
            f"{head_dim} dividing num_attention_heads={heads}; pass the head count the model "
            "was trained with"
        )
    return heads, kv_heads, None


def _head_splits(hidden: int, k_rows: int) -> list[tuple[int, int]]:
    """Every ``(heads, kv_heads)`` that MiniMind2's tensors of these sizes could have been.

    ``hidden`` splits into ``heads`` heads of an even size (RoPE rotates pairs), ``k_proj``'s
    rows into a whole number of key/value heads of that size, and that number divides ``heads``.
    """
    splits = []
    for heads in range(1, hidden + 1):
        head_dim, rest = divmod(hidden, heads)
        if rest or head_dim % 2:
            continue
        kv_heads, rest = divmod(k_rows, head_dim)
        if not rest and kv_heads and heads % kv_heads == 0:
            splits.append((heads, kv_heads))
    return splits


def _guess_heads(hidden: int, q_rows: int, k_rows: int) -> int:
    """The head count of a MiniMind2 checkpoint loaded without ``num_attention_heads``.

    A published MiniMind2 size (``MINIMIND2_MODELS``: 8 heads, 2 key/value heads) or shapes that
    only one split fits are taken silently. When several fit, the logits depend on the choice
    and the tensors cannot tell: MiniMind's default of 8 is taken with a warning naming the
    others, and without 8 among them ``ValueError`` asks for the argument.
    """
    default = DEFAULT_NUM_ATTENTION_HEADS
    published = {size for size, _ in MINIMIND2_MODELS.values()}
    if q_rows != hidden or (hidden in published and k_rows == 2 * (hidden // default)):
        return default  # a q_proj that does not fit is reported by the caller
    splits = _head_splits(hidden, k_rows)
    counts = [heads for heads, _ in splits]
    if len(counts) == 1:
        return counts[0]
    listed = ", ".join(f"{h} heads ({kv} key/value)" for h, kv in splits if h != default)
    if default in counts:
        warnings.warn(
            f"hidden_size={hidden} and k_proj's {k_rows} rows fit several head splits: "
            f"{default} heads, MiniMind's default, is taken, but so would {listed}; the logits "
            "are right only for the split the model was trained with, so pass "
            "num_attention_heads=... to say which",
            UserWarning,
            stacklevel=5,  # the caller of load_minimind_model
        )
        return default
    if not counts:
        return default  # nothing fits: the caller's check says why for the default
    raise ValueError(
        f"hidden_size={hidden} and k_proj's {k_rows} rows do not fit MiniMind's default of "
        f"{default} heads but fit {listed}; pass num_attention_heads= the count the model was "
        "trained with"
    )


def _checked_weights(state: Mapping[str, Tensor], model: nn.Module) -> dict[str, Tensor]:
    """``state`` restricted to ``model``'s keys, after checking names, shapes and the tie."""
    expected = model.state_dict()
    missing = [k for k in expected if k not in state and k != _HEAD]
    if missing:
        raise CheckpointKeyError(
            f"the checkpoint lacks {len(missing)} weight(s) this model needs: {_sample(missing)}"
        )
    unexpected = [k for k in state if k not in expected]
    if unexpected:
        raise ValueError(
            f"the checkpoint has weight(s) this model has no place for: {_sample(unexpected)} "
            "(layers differ from layer 0?)"
        )
    for key, target in expected.items():
        if key in state and tuple(_tensor(state, key).shape) != tuple(target.shape):
            raise ValueError(
                f"{key} has shape {tuple(state[key].shape)}; expected {tuple(target.shape)}"
            )
    weights = {k: state[k] for k in expected if k != _HEAD}
    if _HEAD in state and not torch.equal(state[_HEAD], state[_EMBED]):
        raise ValueError(
            f"{_HEAD} differs from {_EMBED}; MiniMind ties them, and so does this model"
        )
    weights[_HEAD] = state[_EMBED]
    _check_floating(weights)
    return weights
