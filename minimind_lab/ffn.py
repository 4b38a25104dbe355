"""The FFN family: the plain up–activate–down MLP and the gated (门控 gating) GLU variants."""

from __future__ import annotations

from torch import Tensor, nn

from ._checks import check_bool, check_features, check_positive_int, check_probability
from .activations import get_activation

#: The GLU family named by the activation on the gate branch (Shazeer, 2020).
GLU_VARIANTS: dict[str, str] = {
    "GLU": "sigmoid",
    "ReGLU": "relu",
    "GEGLU": "gelu",
    "SwiGLU": "silu",
    "Bilinear": "identity",
}


class PlainFFN(nn.Module):
    """The classic position-wise MLP: ``down(act(up(x)))``.

    ``(*, hidden_size)`` → ``(*, intermediate_size)`` (升维) → activation → ``(*, hidden_size)``
    (降维). Parameters: ``2·h·m`` without bias.
    """

    def __init__(
        self,
        hidden_size: int,
        intermediate_size: int,
        act: str = "gelu",
        bias: bool = False,
        dropout: float = 0.0,
    ) -> None:
        super().__init__()
        h = self.hidden_size = check_positive_int("hidden_size", hidden_size)
        m = self.intermediate_size = check_positive_int("intermediate_size", intermediate_size)
        bias, dropout = check_bool("bias", bias), check_probability("dropout", dropout)
        self.act_name = act
        self.up_proj = nn.Linear(h, m, bias=bias)
        self.act_fn = get_activation(act)
        self.down_proj = nn.Linear(m, h, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        check_features(x, self.hidden_size, weight=self.up_proj.weight, module="PlainFFN")
        hidden = self.act_fn(self.up_proj(x))  # (*, m)
        return self.dropout(self.down_proj(hidden))  # (*, h)


class GatedFFN(nn.Module):
    """A gated FFN: ``down(act(gate(x)) * up(x))``, the activation on the gate branch only.

    The gate branch decides how much of each of the ``m`` up-projected features passes
    (逐元素相乘, an element-wise product). ``act`` picks the variant: ``sigmoid`` GLU, ``relu``
    ReGLU, ``gelu`` GEGLU, ``silu`` SwiGLU, ``identity`` bilinear. Parameters: ``3·h·m`` without
    bias. Shapes: ``(*, hidden_size)`` → ``(*, hidden_size)``.
    """

    def __init__(
        self,
        hidden_size: int,
        intermediate_size: int,
        act: str = "silu",
        bias: bool = False,
        dropout: float = 0.0,
    ) -> None:
        super().__init__()
        h = self.hidden_size = check_positive_int("hidden_size", hidden_size)
        m = self.intermediate_size = check_positive_int("intermediate_size", intermediate_size)
        bias, dropout = check_bool("bias", bias), check_probability("dropout", dropout)
        self.act_name = act
        self.gate_proj = nn.Linear(h, m, bias=bias)
        self.up_proj = nn.Linear(h, m, bias=bias)
        self.down_proj = nn.Linear(m, h, bias=bias)
        self.act_fn = get_activation(act)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        check_features(x, self.hidden_size, weight=self.gate_proj.weight, module="GatedFFN")
        gate = self.act_fn(self.gate_proj(x))  # (*, m), how much passes
        content = self.up_proj(x)  # (*, m), what passes
        return self.dropout(self.down_proj(gate * content))  # (*, h)
