"""Lesson 10's widget: experts, top-k and shared experts → routing map and parameter counts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as widgets
import torch
from matplotlib.figure import Figure

from .._threads import one_thread
from ..i18n import tr
from ..lessons.l10_moe import SETUP, clustered_tokens
from ..minimind import MiniMindConfig
from ..moe import MoEFeedForward, Routing
from ..plots.l10_moe import MoEPanels, new_moe_panels, update_moe_panels
from ..runtime import seeded
from .base import Blitter, InteractivePlot, canvas_to_png, register_widget, require_int_in

__all__ = [
    "MoEView",
    "draw_moe",
    "moe_widget",
]


@lru_cache(maxsize=64)
def _routed(num_experts: int, top_k: int) -> tuple[MoEFeedForward, Routing, list[str]]:
    """The seeded mixture for these values, its routing of the clustered tokens, their labels."""
    s = SETUP
    # A pass over 24 tokens: a second torch thread only adds waiting on a busy machine.
    with one_thread():
        with seeded(s.seed):
            moe = MoEFeedForward(MiniMindConfig(hidden_size=s.hidden_size), num_experts, top_k)
        x, labels = clustered_tokens(s.hidden_size, s.tokens_per_kind, s.kinds, seed=s.seed)
        with torch.no_grad():
            moe(x)
    return moe, moe.last_routing, labels


#: The sliders' ranges: the count axis is fixed to fit their largest setting.
_MIN_EXPERTS, _MAX_EXPERTS = 2, 8
_MAX_TOP_K = 4
_MAX_SHARED = 2
#: Routing panels a view keeps drawn (~0.9 MB each): every (E, top-k) the sliders offer.
_ROUTING_BACKGROUNDS = 32


@dataclass(frozen=True)
class _Frame:
    """What one setting of the controls shows: the routing, the three counts, the summary."""

    routing: Routing
    counts: dict[str, int]
    html: str


def _frame(num_experts: int, top_k: int, num_shared: int) -> _Frame:
    """Validate the control values, route the tokens and count the parameters."""
    require_int_in("num_experts", num_experts, 1, 64)
    require_int_in("top_k", top_k, 1, 64)
    require_int_in("num_shared", num_shared, 0, 8)
    k = min(top_k, num_experts)
    moe, routing, _ = _routed(num_experts, k)
    h, m = moe.hidden_size, moe.experts[0].intermediate_size
    router, expert = h * moe.num_experts, 3 * h * m
    total = router + (moe.num_experts + num_shared) * expert
    active = router + (k + num_shared) * expert
    shared = f"+{num_shared}" if num_shared else ""
    counts = {
        tr("dense FFN"): expert,
        tr("MoE total\n(E={experts}{shared})", experts=moe.num_experts, shared=shared): total,
        tr("MoE active\n(k={k}{shared})", k=k, shared=shared): active,
    }
    load = torch.bincount(routing.experts.reshape(-1), minlength=moe.num_experts).tolist()
    clamped = tr(" (top_k {top_k} clamped to {k})", top_k=top_k, k=k) if k != top_k else ""
    html = (
        tr(
            "{experts} routed experts, top_k = {k}{clamped}, {shared} shared; h = {h}, m = {m}<br>",
            experts=moe.num_experts,
            k=k,
            clamped=clamped,
            shared=num_shared,
            h=h,
            m=m,
        )
        + tr(
            "total = router h·E + (E + S)·3hm = {router:,} + {n}·{expert:,} = {total:,}<br>",
            router=router,
            n=moe.num_experts + num_shared,
            expert=expert,
            total=total,
        )
        + tr(
            "active per token = router + (k + S)·3hm = {router:,} + {n}·{expert:,} = "
            "{active:,}<br>",
            router=router,
            n=k + num_shared,
            expert=expert,
            active=active,
        )
        + tr("tokens per routed expert: {load}", load=load)
    )
    return _Frame(routing, counts, html)


def _new_panels(num_experts: int = _MAX_EXPERTS) -> MoEPanels:
    """The widget's empty figure: room for the rows of every slider setting (or
    ``num_experts``, if more), a count axis high enough for every slider setting."""
    moe, _, labels = _routed(SETUP.num_experts, SETUP.top_k)
    h, m = moe.hidden_size, moe.experts[0].intermediate_size
    most = h * _MAX_EXPERTS + (_MAX_EXPERTS + _MAX_SHARED) * 3 * h * m
    return new_moe_panels(labels, max_experts=max(num_experts, _MAX_EXPERTS), max_count=most)


def draw_moe(num_experts: int, top_k: int, num_shared: int = 0) -> tuple[Figure, str]:
    """Route the clustered tokens through ``num_experts`` experts, ``top_k`` each; draw both plots.

    ``top_k`` above ``num_experts`` is clamped to ``num_experts`` (and the summary says so).
    ``num_shared`` shared experts (MiniMind2 has one) take every token at weight one: they add to
    both counts and do not change the routing map. Returns a new figure; the widget draws the
    same picture into one figure it keeps (``MoEView``).
    """
    frame = _frame(num_experts, top_k, num_shared)
    panels = _new_panels(num_experts)
    update_moe_panels(panels, frame.routing, frame.counts)
    return panels.figure, frame.html


class MoEView:
    """``draw_moe`` for the widget: one figure for its life, only what changes redrawn.

    Call it with the control values; it returns the frame as PNG bytes and the summary.
    ``figure`` is the figure it keeps: axes, ticks and fixed labels are rendered once (the
    ``blitter``'s background). The routing panel depends on the experts and top-k only, and
    drawing it (title, map, row labels) is about half of a frame, so the view keeps it, once
    drawn, as a background of its own per (experts, top-k): changing the shared experts, or
    coming back to a routing, only draws the counts on top.
    """

    def __init__(self) -> None:
        self.panels = _new_panels()
        self.figure = self.panels.figure
        # The maps and row labels of every slider setting, then the starting setting.
        for num_experts in (*range(_MIN_EXPERTS, _MAX_EXPERTS + 1), SETUP.num_experts):
            frame = _frame(num_experts, SETUP.top_k, SETUP.num_shared_experts)
            update_moe_panels(self.panels, frame.routing, frame.counts)
        self.blitter = Blitter(self.figure, self.panels.dynamic)
        # Canvas regions (matplotlib's BufferRegion), by (experts, top-k), made on first use.
        self._routing_backgrounds: dict[tuple[int, int], object] = {}

    def _routing_background(self, num_experts: int, top_k: int) -> object:
        """The static background with this routing panel drawn on it (made on first use)."""
        key = (num_experts, min(top_k, num_experts))
        if key not in self._routing_backgrounds:
            canvas = self.blitter.canvas
            canvas.restore_region(self.blitter.background)
            for artist in self.panels.routing_artists:
                if artist.get_visible():
                    self.figure.draw_artist(artist)
            if len(self._routing_backgrounds) >= _ROUTING_BACKGROUNDS:
                del self._routing_backgrounds[next(iter(self._routing_backgrounds))]
            self._routing_backgrounds[key] = canvas.copy_from_bbox(self.figure.bbox)
        return self._routing_backgrounds[key]

    def __call__(self, num_experts: int, top_k: int, num_shared: int = 0) -> tuple[bytes, str]:
        """The frame for these control values: ``(png, html)``."""
        frame = _frame(num_experts, top_k, num_shared)
        static_changed = update_moe_panels(self.panels, frame.routing, frame.counts)
        dynamic = self.panels.dynamic
        if len(dynamic) != len(self.blitter.dynamic):  # a map for a new E, more row labels
            for artist in dynamic:
                artist.set_animated(True)
            self.blitter.dynamic = dynamic
        if static_changed:  # beyond the sliders' range (a direct call): new ticks or room
            self.blitter.refresh_background()
            self._routing_backgrounds.clear()
        self.blitter.canvas.restore_region(self._routing_background(num_experts, top_k))
        for artist in self.panels.count_artists:
            if artist.get_visible():
                self.figure.draw_artist(artist)
        return canvas_to_png(self.blitter.canvas), frame.html


@register_widget("moe_routing", lesson="10")
def moe_widget() -> InteractivePlot:
    """Experts, top-k and shared experts → where each token goes, total vs active parameters.

    Starts at MiniMind2's MoE defaults (``SETUP``: 4 routed experts, 2 per token, 1 shared);
    minimind-3's are 4, 1 and 0.
    """
    controls = {
        "num_experts": widgets.IntSlider(
            value=SETUP.num_experts, min=_MIN_EXPERTS, max=_MAX_EXPERTS, description=tr("experts E")
        ),
        "top_k": widgets.IntSlider(
            value=SETUP.top_k, min=1, max=_MAX_TOP_K, description=tr("top-k")
        ),
        "num_shared": widgets.IntSlider(
            value=SETUP.num_shared_experts, min=0, max=_MAX_SHARED, description=tr("shared S")
        ),
    }
    return InteractivePlot(
        controls, MoEView(), title=tr("A small mixture of experts: routing and parameters")
    )
