"""MiniMind2's configuration and its ``FeedForward``: the module lessons 01–08 circle around.

The arithmetic and the state-dict keys match MiniMind2's ``model_minimind.py`` (``gate_proj``,
``up_proj``, ``down_proj``, dropout after ``down_proj``), so a MiniMind checkpoint's MLP loads into
it unchanged. The code here is written fresh for reading, not copied.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch import Tensor, nn

from ._checks import check_last_dim, check_positive_int
from .activations import get_activation
from .sizing import intermediate_size as default_intermediate_size


@dataclass
class MiniMindConfig:
    """The fields of MiniMind2's config that a block and its FFN read.

    ``intermediate_size=None`` means "derive it": ``FeedForward`` sets it to 8/3·hidden rounded up
    to a multiple of 64 and writes it back here, as MiniMind does.
    """

    hidden_size: int = 512
    intermediate_size: int | None = None
    hidden_act: str = "silu"
    dropout: float = 0.0
    num_hidden_layers: int = 8
    num_attention_heads: int = 8
    num_key_value_heads: int = 2
    rms_norm_eps: float = 1e-5
    vocab_size: int = 6400

    def __post_init__(self) -> None:
        check_positive_int("hidden_size", self.hidden_size)
        if self.intermediate_size is not None:
            check_positive_int("intermediate_size", self.intermediate_size)
        for name in ("num_hidden_layers", "num_attention_heads", "num_key_value_heads"):
            check_positive_int(name, getattr(self, name))
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")


#: The published MiniMind2 models (MiniMind's README): name → (hidden_size, num_hidden_layers).
MINIMIND2_MODELS: dict[str, tuple[int, int]] = {
    "MiniMind2-Small": (512, 8),
    "MiniMind2-MoE": (640, 8),
    "MiniMind2": (768, 16),
}


def minimind2_config(name: str) -> MiniMindConfig:
    """The ``MiniMindConfig`` of a published MiniMind2 model by name (see ``MINIMIND2_MODELS``)."""
    if name not in MINIMIND2_MODELS:
        raise ValueError(f"unknown model {name!r}; expected one of: {', '.join(MINIMIND2_MODELS)}")
    hidden, layers = MINIMIND2_MODELS[name]
    return MiniMindConfig(hidden_size=hidden, num_hidden_layers=layers)


class FeedForward(nn.Module):
    """MiniMind2's MLP: ``dropout(down_proj(act(gate_proj(x)) * up_proj(x)))``.

    With ``hidden_act="silu"`` this is SwiGLU. Shapes: ``(*, hidden_size)`` →
    ``(*, intermediate_size)`` twice → ``(*, hidden_size)``. Parameters: ``3·h·m``.
    """

    def __init__(self, config: MiniMindConfig) -> None:
        super().__init__()
        if config.intermediate_size is None:
            config.intermediate_size = default_intermediate_size(config.hidden_size)
        h, m = config.hidden_size, config.intermediate_size
        self.hidden_size = h
        self.intermediate_size = m
        self.gate_proj = nn.Linear(h, m, bias=False)
        self.down_proj = nn.Linear(m, h, bias=False)
        self.up_proj = nn.Linear(h, m, bias=False)
        self.dropout = nn.Dropout(config.dropout)
        self.act_fn = get_activation(config.hidden_act)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        check_last_dim(x, self.hidden_size)
        gated = self.act_fn(self.gate_proj(x)) * self.up_proj(x)  # (*, m)
        return self.dropout(self.down_proj(gated))  # (*, h)
