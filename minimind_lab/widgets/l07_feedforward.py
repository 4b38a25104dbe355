"""Lesson 07's widget: hidden size, activation and MiniMind version → the module, one pass."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as widgets
import torch
from matplotlib.figure import Figure

from .._threads import one_thread
from ..activations import ACTIVATION_NAMES, activation_formula
from ..i18n import tr, tr_noop
from ..lessons.l07_feedforward import SETUP, capture_intermediates, intermediates_by_name
from ..minimind import VERSIONS, FeedForward, MiniMindConfig
from ..plots.l07_feedforward import GateUpPanels, new_gate_up_panels, update_gate_up_panels
from ..runtime import seeded
from ..sizing import count_parameters
from .base import Blitter, InteractivePlot, register_widget, require_choice, require_int_in

__all__ = [
    "FeedForwardView",
    "draw_feedforward",
    "feedforward_widget",
]


#: How each version derives the width, as the summary states it.
_WIDTH_RULE_TEXT = {
    "minimind2": tr_noop("MiniMind2: int(8h/3) rounded up to a multiple of 64"),
    "minimind3": tr_noop("minimind-3: ceil(h·π/64)·64"),
}
#: Features of each heatmap; every width the widget offers has at least this many.
_SHOWN_FEATURES = 32
#: The widget's figure: two panels (act(gate) and the product), no colour bars.
_PANEL_SIZE = (3.2, 2.6)


@lru_cache(maxsize=24)
def _seeded_weights(hidden_size: int, version: str) -> dict[str, torch.Tensor]:
    """The weights of a seeded ``FeedForward`` of this size and version.

    They do not depend on the activation (it has no parameters, and building the module draws
    the same random numbers for every one), so one set serves all activations: switching the
    activation costs no new initialisation. Kept for both versions' whole slider (~190 MB).
    """
    config = MiniMindConfig(hidden_size=hidden_size, version=version)
    with seeded(SETUP.weight_seed):
        return FeedForward(config).state_dict()


@lru_cache(maxsize=16)
def _tokens(hidden_size: int) -> torch.Tensor:
    """The widget's fixed input, ``(n_tokens, hidden_size)``."""
    generator = torch.Generator().manual_seed(SETUP.input_seed)
    return torch.randn(SETUP.n_tokens, hidden_size, generator=generator)


def _module(hidden_size: int, act: str, version: str) -> FeedForward:
    """``FeedForward(MiniMindConfig(hidden_size, act, version))`` as built under the weight seed.

    Built empty (on the meta device) and given the cached seeded weights, which it shares with
    the cache: read-only use only.
    """
    config = MiniMindConfig(hidden_size=hidden_size, hidden_act=act, version=version)
    with torch.device("meta"):
        module = FeedForward(config)
    module.load_state_dict(_seeded_weights(hidden_size, version), assign=True)
    return module.eval()


@dataclass(frozen=True)
class _Pass:
    """One pass of the widget's module: the tensors the heatmaps show and the summary."""

    act_gate: torch.Tensor
    up: torch.Tensor
    product: torch.Tensor
    html: str


def _run_pass(hidden_size: int, act: str, version: str) -> _Pass:
    """Validate the control values, build the module, run one pass and write the summary."""
    require_int_in("hidden_size", hidden_size, 1, 4096)
    require_choice("activation", act, ACTIVATION_NAMES)
    require_choice("version", version, list(VERSIONS))
    # A 16-token pass: a second torch thread only adds waiting (tens of ms on a busy machine).
    with one_thread():
        module = _module(hidden_size, act, version)
        parts = intermediates_by_name(capture_intermediates(module, _tokens(hidden_size)))
    act_gate, up, product = parts["act_fn"], parts["up_proj"], parts["down_proj:in"]
    out = parts["dropout"] if "dropout" in parts else parts["down_proj"]
    h, m = module.hidden_size, module.intermediate_size
    params = count_parameters(module)
    closed = float((act_gate.abs() < SETUP.closed_below).float().mean())
    html = (
        f"<b>FeedForward</b>(hidden_size={h}, hidden_act='{act}', version='{version}'): "
        f"act(x) = {activation_formula(act)}<br>"
        + tr(
            "intermediate_size m = {m} ({rule}); parameters = {params:,} = 3·{h}·{m}; "
            "after down_proj: {after}<br>",
            m=m,
            rule=tr(_WIDTH_RULE_TEXT[version]),
            params=params,
            h=h,
            after=type(module.dropout).__name__,
        )
        + tr(
            "one pass on {n} tokens: output mean {mean:.3f}, std {std:.3f}; "
            "closed gates (|act(gate)| &lt; {below}): {closed:.1%}",
            n=SETUP.n_tokens,
            mean=float(out.mean()),
            std=float(out.std()),
            below=SETUP.closed_below,
            closed=closed,
        )
    )
    return _Pass(act_gate, up, product, html)


def _new_panels() -> GateUpPanels:
    """The widget's empty figure: act(gate) and the product, ``n_tokens × 32`` cells each."""
    return new_gate_up_panels(
        SETUP.n_tokens, _SHOWN_FEATURES, colorbar=False, panel_size=_PANEL_SIZE, show_up=False
    )


def draw_feedforward(hidden_size: int, act: str, version: str = "minimind2") -> tuple[Figure, str]:
    """Build ``FeedForward`` for these values, run one pass, draw act(gate) and act(gate)·up.

    ``version`` picks the width rule and whether a dropout follows ``down_proj`` (MiniMind2).
    Returns a new figure; the widget draws the same picture into one figure it keeps
    (``FeedForwardView``).
    """
    result = _run_pass(hidden_size, act, version)
    panels = _new_panels()
    update_gate_up_panels(panels, result.act_gate, result.up, result.product)
    return panels.figure, result.html


class FeedForwardView:
    """``draw_feedforward`` for the widget: one figure for its life, only the heatmaps redrawn.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps; its axes, titles and labels are rendered once.
    """

    def __init__(self) -> None:
        self.panels = _new_panels()
        self.figure = self.panels.figure
        # The spines are drawn again after each image: a heatmap reaches its axes' edge, and in
        # the full picture the spine lies on top of it.
        spines = [spine for image in self.panels.images for spine in image.axes.spines.values()]
        self.blitter = Blitter(self.figure, [*self.panels.images, *spines])

    def __call__(self, hidden_size: int, act: str, version: str = "minimind2") -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        result = _run_pass(hidden_size, act, version)
        update_gate_up_panels(self.panels, result.act_gate, result.up, result.product)
        return self.blitter.png(), result.html


@register_widget("feedforward_forward", lesson="07")
def feedforward_widget() -> InteractivePlot:
    """Hidden size, activation and version → the ``FeedForward``, its parameters and one pass.

    Building it makes MiniMind2's weights for every hidden size the slider offers and
    minimind-3's for the starting size (the activation changes no weight), so moving a control
    from there only runs one pass and redraws; other minimind-3 sizes are made on first use.
    """
    controls = {
        "hidden_size": widgets.IntSlider(
            value=SETUP.hidden_size,
            min=64,
            max=768,
            step=64,
            description=tr("hidden size"),
            continuous_update=False,
        ),
        "act": widgets.Dropdown(
            options=list(ACTIVATION_NAMES), value="silu", description=tr("activation")
        ),
        "version": widgets.Dropdown(
            options=list(VERSIONS), value="minimind2", description=tr("version")
        ),
    }
    # Initialising a module is most of a first draw (~60 ms at h = 768 on a busy machine): make
    # the default version's weights for every slider position now (~0.3 s, ~90 MB), and the
    # other version's at the starting size, so that switching the version is instant too.
    slider = controls["hidden_size"]
    with one_thread():
        for hidden_size in range(slider.min, slider.max + 1, slider.step):
            _seeded_weights(hidden_size, "minimind2")
        _seeded_weights(SETUP.hidden_size, "minimind3")
    return InteractivePlot(
        controls,
        FeedForwardView(),
        title=tr("MiniMind's FeedForward: width, parameters and one pass"),
    )
