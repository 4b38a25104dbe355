"""Structure diagrams drawn in code: boxes for layers, arrows labelled with tensor shapes.

``plot_ffn_structure`` puts the plain FFN (h → 4h → h) beside MiniMind's SwiGLU FFN (h → gate and
up, each m wide → ⊙ → h), so the extra matrix and the element-wise product (逐元素相乘) are visible
at a glance. Nothing is computed here; the numbers on the arrows are the sizes passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch

from .style import PALETTE, new_figure

# Light fills keyed by a layer's role; the text in each box names the role too, so the diagram
# reads the same in greyscale.
_FILL = {"tensor": "#FFFFFF", "linear": "#CFE3F2", "act": "#F7E1B5", "mul": "#BFE6DA"}
_EDGE = {"tensor": PALETTE[6], "linear": PALETTE[0], "act": PALETTE[1], "mul": PALETTE[2]}
#: The GLU family's names by gate activation (Shazeer, 2020).
_GLU_NAMES = {"silu": "SwiGLU", "swish": "SwiGLU", "gelu": "GEGLU", "relu": "ReGLU",
              "sigmoid": "GLU", "identity": "Bilinear"}
_BOX_W, _BOX_H = 3.3, 1.05
# Rows, top to bottom: input, projections, activation, product, down projection, output.
_ROW = {"x": 11.0, "proj": 8.9, "act": 6.9, "mul": 5.1, "down": 3.3, "y": 1.2}


def _box(ax: Axes, x: float, y: float, text: str, role: str, width: float = _BOX_W) -> None:
    ax.add_patch(
        FancyBboxPatch(
            (x - width / 2, y - _BOX_H / 2), width, _BOX_H,
            boxstyle="round,pad=0.02,rounding_size=0.18",
            facecolor=_FILL[role], edgecolor=_EDGE[role], linewidth=1.3,
            linestyle="--" if role == "act" else "-",
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=8.5, linespacing=1.25)


def _product(ax: Axes, x: float, y: float) -> None:
    ax.add_patch(Circle((x, y), 0.42, facecolor=_FILL["mul"], edgecolor=_EDGE["mul"], lw=1.3))
    ax.text(x, y, "⊙", ha="center", va="center", fontsize=15)


def _arrow(
    ax: Axes, start: tuple[float, float], end: tuple[float, float], label: str,
    side: str = "right",
) -> None:
    ax.annotate(
        "", xy=end, xytext=start,
        arrowprops={"arrowstyle": "-|>", "color": "#333333", "lw": 1.1, "shrinkA": 0,
                    "shrinkB": 0, "mutation_scale": 11},
    )
    mid_x, mid_y = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    offset = 0.15 if side == "right" else -0.15
    ax.text(
        mid_x + offset, mid_y, label, ha="left" if side == "right" else "right", va="center",
        fontsize=7.5, color="#333333", family="monospace",
    )


def _size(symbol: str, value: int | None) -> str:
    return symbol if value is None else str(value)


def plot_ffn_structure(
    hidden_size: int | None = None,
    plain_size: int | None = None,
    gated_size: int | None = None,
    plain_act: str = "GELU",
    gate_act: str = "SiLU",
    axes: Sequence[Axes] | None = None,
) -> Figure:
    """The plain FFN beside the SwiGLU FFN as box-and-arrow diagrams with shapes on the arrows.

    With no sizes the arrows carry symbols (``h``, ``4h``, ``m``); pass ``hidden_size``,
    ``plain_size`` and ``gated_size`` to print numbers instead (e.g. 512, 2048, 1408 for
    MiniMind2-Small). Shapes read ``(B, T, ·)``: batch, sequence, features. ``axes``: two axes to
    draw on; otherwise a new two-panel figure. Returns the figure.
    """
    for name, value in (("hidden_size", hidden_size), ("plain_size", plain_size),
                        ("gated_size", gated_size)):
        if value is not None and (not isinstance(value, int) or value <= 0):
            raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    if axes is None:
        fig, axes = new_figure(1, 2, panel_size=(4.2, 5.4))
    elif len(axes) != 2:
        raise ValueError(f"axes must hold 2 axes (plain, gated), got {len(axes)}")
    fig = axes[0].get_figure()
    h = _size("h", hidden_size)
    wide = _size("4h", plain_size)
    m = _size("m", gated_size)
    shape = "(B, T, {})".format
    plain_ax, gated_ax = axes

    # Plain FFN: one path, x → up (升维) → act → down (降维) → y.
    c = 5.0
    _box(plain_ax, c, _ROW["x"], "x  (hidden_states)", "tensor")
    _box(plain_ax, c, _ROW["proj"], f"up_proj\nLinear {h} → {wide}", "linear")
    _box(plain_ax, c, _ROW["act"], f"activation\n{plain_act}", "act")
    _box(plain_ax, c, _ROW["down"], f"down_proj\nLinear {wide} → {h}", "linear")
    _box(plain_ax, c, _ROW["y"], "y", "tensor", width=1.6)
    half = _BOX_H / 2
    _arrow(plain_ax, (c, _ROW["x"] - half), (c, _ROW["proj"] + half), shape(h))
    _arrow(plain_ax, (c, _ROW["proj"] - half), (c, _ROW["act"] + half), shape(wide))
    _arrow(plain_ax, (c, _ROW["act"] - half), (c, _ROW["down"] + half), shape(wide))
    _arrow(plain_ax, (c, _ROW["down"] - half), (c, _ROW["y"] + half), shape(h))

    # SwiGLU: x feeds two projections; the activation sits on the gate branch only.
    left, right = 2.7, 7.3
    _box(gated_ax, c, _ROW["x"], "x  (hidden_states)", "tensor")
    _box(gated_ax, left, _ROW["proj"], f"gate_proj\nLinear {h} → {m}", "linear", width=3.0)
    _box(gated_ax, right, _ROW["proj"], f"up_proj\nLinear {h} → {m}", "linear", width=3.0)
    _box(gated_ax, left, _ROW["act"], f"activation\n{gate_act}", "act", width=3.0)
    _product(gated_ax, c, _ROW["mul"])
    _box(gated_ax, c, _ROW["down"], f"down_proj\nLinear {m} → {h}", "linear")
    _box(gated_ax, c, _ROW["y"], "y", "tensor", width=1.6)
    _arrow(gated_ax, (c - 0.6, _ROW["x"] - half), (left, _ROW["proj"] + half), shape(h),
           side="left")
    _arrow(gated_ax, (c + 0.6, _ROW["x"] - half), (right, _ROW["proj"] + half), shape(h))
    _arrow(gated_ax, (left, _ROW["proj"] - half), (left, _ROW["act"] + half), shape(m))
    _arrow(gated_ax, (left, _ROW["act"] - half), (c - 0.36, _ROW["mul"] + 0.22), shape(m),
           side="left")
    _arrow(gated_ax, (right, _ROW["proj"] - half), (c + 0.36, _ROW["mul"] + 0.22), shape(m))
    _arrow(gated_ax, (c, _ROW["mul"] - 0.42), (c, _ROW["down"] + half), shape(m))
    _arrow(gated_ax, (c, _ROW["down"] - half), (c, _ROW["y"] + half), shape(h))
    gated_ax.text(c + 0.7, _ROW["mul"], "element-wise\nproduct", fontsize=7.5,
                  ha="left", va="center", color="#333333")

    if hidden_size and plain_size:
        plain_count = f"2·{h}·{wide} = {2 * hidden_size * plain_size:,} weights"
    else:
        plain_count = f"2·h·{wide} = 8h² weights" if plain_size is None else f"2·h·{wide} weights"
    if hidden_size and gated_size:
        gated_count = f"3·{h}·{m} = {3 * hidden_size * gated_size:,} weights"
    else:
        gated_count = f"3·h·{m} weights (= 8h² at m = 8h/3)"
    variant = _GLU_NAMES.get(gate_act.lower(), "Gated")
    for ax, title in (
        (plain_ax, f"Plain FFN: 2 matrices\n{plain_count}"),
        (gated_ax, f"{variant} FFN: 3 matrices\n{gated_count}"),
    ):
        ax.set_xlim(0, 10)
        ax.set_ylim(0.3, 11.9)
        ax.set_aspect("equal")
        ax.set_axis_off()
        ax.set_title(title, fontsize=10)
    return fig
