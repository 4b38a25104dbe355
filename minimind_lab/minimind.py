"""MiniMind's configuration and its ``FeedForward``: the module lessons 01–09 circle around.

Two MiniMind generations are described, and ``MiniMindConfig.version`` picks one:

* ``"minimind2"`` (the default, the article's): the FFN width is ``int(8h/3)`` rounded up to a
  multiple of 64 and written back into the config by ``FeedForward``; dropout after
  ``down_proj``; attention without q/k norms; ``rms_norm_eps=1e-5``; 2 key/value heads.
* ``"minimind3"``: the width is ``ceil(h·π/64)·64``; no FFN dropout; a per-head RMSNorm on
  queries and keys (``q_norm``, ``k_norm``) before RoPE; ``rms_norm_eps=1e-6``; 4 key/value heads.

``dropout`` is accepted for both, as MiniMind accepts it. In MiniMind's own model it also acts in
attention and after the embedding (both generations); this package models the FFN's only, so for
minimind-3, whose ``FeedForward`` has none, the value is kept in the config and used nowhere here
(the logits match MiniMind's in eval mode, where dropout is off anyway).

``VERSIONS`` holds these differences as data, with the MiniMind commit each was read from. The
arithmetic and the state-dict keys match MiniMind's ``model/model_minimind.py`` (``gate_proj``,
``up_proj``, ``down_proj``), so a MiniMind checkpoint loads unchanged; the code is written fresh
for reading, not copied.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from torch import Tensor, nn

from ._checks import (
    _as_int,
    check_bool,
    check_features,
    check_positive_int,
    check_probability,
    check_real,
)
from .activations import ACTIVATION_NAMES, get_activation
from .sizing import MINIMIND2_RULE, MINIMIND3_RULE, WidthRule, intermediate_size


@dataclass(frozen=True)
class VersionSpec:
    """What one MiniMind generation fixes: widths, norms, dropout and MoE defaults.

    ``norm_scale_in_float32``: RMSNorm multiplies by its weight before casting back (minimind-3)
    rather than after (MiniMind2); identical in float32. ``moe_renormalize`` says when the top-k
    routing weights are rescaled to sum to one: ``"if_top_k_gt_1"`` (MiniMind2:
    ``top_k > 1 and norm_topk_prob``) or ``"always"`` (minimind-3).
    ``commit`` is the ``jingyaogong/minimind`` commit whose ``model_minimind.py`` was matched.
    """

    name: str
    width_rule: WidthRule
    ffn_dropout: bool
    qk_norm: bool
    norm_scale_in_float32: bool
    rms_norm_eps: float
    num_key_value_heads: int
    moe_num_experts: int
    moe_top_k: int
    moe_shared_experts: int
    moe_renormalize: str
    commit: str


#: The two MiniMind generations by name (``MiniMindConfig.version``).
VERSIONS: dict[str, VersionSpec] = {
    "minimind2": VersionSpec(
        name="minimind2",
        width_rule=MINIMIND2_RULE,
        ffn_dropout=True,
        qk_norm=False,
        norm_scale_in_float32=False,
        rms_norm_eps=1e-5,
        num_key_value_heads=2,
        moe_num_experts=4,
        moe_top_k=2,
        moe_shared_experts=1,
        moe_renormalize="if_top_k_gt_1",
        commit="9d898576ac7e640b32cff2859d534668c292d339",
    ),
    "minimind3": VersionSpec(
        name="minimind3",
        width_rule=MINIMIND3_RULE,
        ffn_dropout=False,
        qk_norm=True,
        norm_scale_in_float32=True,
        rms_norm_eps=1e-6,
        num_key_value_heads=4,
        moe_num_experts=4,
        moe_top_k=1,
        moe_shared_experts=0,
        moe_renormalize="always",
        commit="0074dcfd506e8097f981ebe091235606fa57c03b",
    ),
}


def version_spec(name: str) -> VersionSpec:
    """The ``VersionSpec`` called ``name``; an unknown name raises ``ValueError``."""
    if not isinstance(name, str) or name not in VERSIONS:
        raise ValueError(
            f"unknown MiniMind version {name!r}; expected one of: {', '.join(VERSIONS)}"
        )
    return VERSIONS[name]


@dataclass
class MiniMindConfig:
    """The fields of MiniMind's config that its blocks, FFN and language model read.

    ``intermediate_size=None`` means "derive it": ``FeedForward`` computes it with the version's
    width rule and writes it back here, as MiniMind2 does. Because of that write-back,
    ``dataclasses.replace(cfg, hidden_size=768)`` on a config that already built a module keeps
    the old width; ``cfg.derive(hidden_size=768)`` re-derives it. ``rms_norm_eps=None`` and
    ``num_key_value_heads=None`` take the version's default (``VERSIONS``); ``head_dim=None``
    means ``hidden_size // num_attention_heads`` (minimind-3 may set it to anything even).
    ``use_attention=False`` / ``use_mlp=False`` build the same blocks without attention (and its
    ``input_layernorm``) or without the MLP (and its ``post_attention_layernorm``).

    ``validate()`` checks every field; every module built from a config calls it, so a field
    changed after construction (``cfg.hidden_size = 0``) is caught at the next build. Integer
    fields accept NumPy integers (stored as ``int``); ``rms_norm_eps`` must be in ``(0, 1)``.
    """

    hidden_size: int = 512
    intermediate_size: int | None = None
    hidden_act: str = "silu"
    dropout: float = 0.0
    num_hidden_layers: int = 8
    num_attention_heads: int = 8
    num_key_value_heads: int | None = None
    rms_norm_eps: float | None = None
    vocab_size: int = 6400
    version: str = "minimind2"
    max_position_embeddings: int = 32768
    rope_theta: float = 1e6
    head_dim: int | None = None
    use_attention: bool = True
    use_mlp: bool = True

    def __post_init__(self) -> None:
        # The fields filled in by a default rather than given, so that ``derive`` can redo them;
        # a plain attribute, not a field, so repr, ==, asdict and replace ignore it.
        self._derived: set[str] = set()
        spec = version_spec(self.version)
        if self.num_key_value_heads is None:
            self.num_key_value_heads = spec.num_key_value_heads
            self._derived.add("num_key_value_heads")
        if self.rms_norm_eps is None:
            self.rms_norm_eps = spec.rms_norm_eps
            self._derived.add("rms_norm_eps")
        self.validate()

    @property
    def spec(self) -> VersionSpec:
        """This config's ``VersionSpec`` (width rule, q/k norm, FFN dropout, MoE defaults)."""
        return version_spec(self.version)

    def attention_head_dim(self) -> int:
        """The per-head size: ``head_dim`` if set, else ``hidden_size // num_attention_heads``."""
        if self.head_dim is not None:
            return self.head_dim
        return self.hidden_size // self.num_attention_heads

    def key_value_heads(self) -> int:
        """The key/value head count: ``num_key_value_heads`` if set, else the version's default."""
        if self.num_key_value_heads is not None:
            return self.num_key_value_heads
        return self.spec.num_key_value_heads

    def norm_eps(self) -> float:
        """RMSNorm's ``eps``: ``rms_norm_eps`` if set, else the version's default."""
        if self.rms_norm_eps is not None:
            return self.rms_norm_eps
        return self.spec.rms_norm_eps

    def derived_intermediate_size(self) -> int:
        """The FFN width: ``intermediate_size`` if set, else the version's width rule."""
        if self.intermediate_size is not None:
            return self.intermediate_size
        return intermediate_size(self.hidden_size, self.spec.width_rule)

    def derive(self, **changes: object) -> MiniMindConfig:
        """A copy with ``changes`` applied and every defaulted field derived again.

        Unlike ``dataclasses.replace``, a width that ``FeedForward`` wrote back (or an eps or
        key/value head count taken from the version) is recomputed from the new fields; values
        you gave explicitly are kept. ``cfg`` itself is not modified.
        """
        reset: dict[str, object] = {name: None for name in self._derived if name not in changes}
        return dataclasses.replace(self, **reset, **changes)  # type: ignore[arg-type]

    def validate(self) -> MiniMindConfig:
        """Check every field and return ``self``; raise ``ValueError`` naming the bad value.

        Integral NumPy scalars in the integer fields are stored back as ``int``.
        """
        spec = version_spec(self.version)
        for name in ("hidden_size", "num_hidden_layers", "num_attention_heads"):
            setattr(self, name, check_positive_int(name, getattr(self, name)))
        for name in ("vocab_size", "max_position_embeddings", "num_key_value_heads"):
            setattr(self, name, check_positive_int(name, getattr(self, name)))
        for name in ("intermediate_size", "head_dim"):
            if getattr(self, name) is not None:
                setattr(self, name, check_positive_int(name, getattr(self, name)))
        if not isinstance(self.hidden_act, str) or self.hidden_act not in ACTIVATION_NAMES:
            raise ValueError(
                f"unknown activation {self.hidden_act!r}; expected one of: "
                f"{', '.join(ACTIVATION_NAMES)}"
            )
        check_probability("dropout", self.dropout)
        check_real("rms_norm_eps", self.rms_norm_eps, low=0, high=1, low_open=True, high_open=True)
        check_real("rope_theta", self.rope_theta, low=0, low_open=True)
        check_bool("use_attention", self.use_attention)
        check_bool("use_mlp", self.use_mlp)
        heads, kv_heads = self.num_attention_heads, self.key_value_heads()
        if heads % kv_heads:
            raise ValueError(
                f"num_attention_heads={heads} must be a multiple of num_key_value_heads={kv_heads}"
            )
        if self.head_dim is None or not spec.qk_norm:
            if self.hidden_size % heads:
                raise ValueError(
                    f"hidden_size={self.hidden_size} must divide by num_attention_heads={heads}"
                )
        if self.head_dim is not None and not spec.qk_norm:
            if self.head_dim != self.hidden_size // heads:
                raise ValueError(
                    f"head_dim={self.head_dim}, but {self.version} fixes it at hidden_size // "
                    f"num_attention_heads = {self.hidden_size // heads}; expected None or that"
                )
        return self


#: The published MiniMind2 models (MiniMind's README): name → (hidden_size, num_hidden_layers).
MINIMIND2_MODELS: dict[str, tuple[int, int]] = {
    "MiniMind2-Small": (512, 8),
    "MiniMind2-MoE": (640, 8),
    "MiniMind2": (768, 16),
}


def minimind2_config(name: str) -> MiniMindConfig:
    """The ``MiniMindConfig`` of a published MiniMind2 model by name (see ``MINIMIND2_MODELS``)."""
    if not isinstance(name, str) or name not in MINIMIND2_MODELS:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(MINIMIND2_MODELS)}")
    hidden, layers = MINIMIND2_MODELS[name]
    return MiniMindConfig(hidden_size=hidden, num_hidden_layers=layers)


def check_config(config: object, owner: str) -> MiniMindConfig:
    """Return ``config`` validated if it is a ``MiniMindConfig``; otherwise raise ``ValueError``.

    ``owner`` names the module being built, for the message (``FeedForward(64)`` is a common
    slip for ``FeedForward(MiniMindConfig(hidden_size=64))``).
    """
    if not isinstance(config, MiniMindConfig):
        hint = (
            f"; for a hidden size, write {owner}(MiniMindConfig(hidden_size={config!r}))"
            if _as_int(config) is not None
            else ""
        )
        raise ValueError(
            f"{owner} expects a MiniMindConfig, got {config!r} (type {type(config).__name__}){hint}"
        )
    return config.validate()


class FeedForward(nn.Module):
    """MiniMind's MLP: ``dropout(down_proj(act(gate_proj(x)) * up_proj(x)))``.

    With ``hidden_act="silu"`` this is SwiGLU. Shapes: ``(*, hidden_size)`` →
    ``(*, intermediate_size)`` twice → ``(*, hidden_size)``. Parameters: ``3·h·m``. minimind-3
    has no dropout here (``self.dropout`` is then an ``Identity``).
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        config = check_config(config, "FeedForward")
        if config.intermediate_size is None:  # derived, then written back, as MiniMind2 does
            config.intermediate_size = config.derived_intermediate_size()
            config._derived.add("intermediate_size")
        h, m = config.hidden_size, config.intermediate_size
        self.hidden_size = h
        self.intermediate_size = m
        self.gate_proj = nn.Linear(h, m, bias=False)
        self.down_proj = nn.Linear(m, h, bias=False)
        self.up_proj = nn.Linear(h, m, bias=False)
        self.dropout = nn.Dropout(config.dropout) if config.spec.ffn_dropout else nn.Identity()
        self.act_fn = get_activation(config.hidden_act)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        check_features(x, self.hidden_size, weight=self.gate_proj.weight, module="FeedForward")
        gated = self.act_fn(self.gate_proj(x)) * self.up_proj(x)  # (*, m)
        return self.dropout(self.down_proj(gated))  # (*, h)
