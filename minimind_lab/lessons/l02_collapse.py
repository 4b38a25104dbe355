"""Lesson 02's experiments: what a stack of layers can do with and without an activation.

Four pieces, all computation (the pictures live in ``plots.collapse``):

* small 2-D classification data sets made in code (XOR, moons, spirals);
* a grid of 2-D lines pushed through a small fixed network, to see a linear map rotate, scale and
  shear while an activation (激活函数) bends lines, flattens regions (ReLU) or folds the plane
  over (GELU, SiLU), each measured: ``line_bend`` and the signed area scale ``area_scale``;
* the best straight line for a data set (``best_line``), the baseline a linear model cannot beat,
  and the lowest cross-entropy any linear classifier reaches on it (``lowest_linear_loss``);
* deep stacks trained on a data set with and without an activation, with their accuracy and the
  decision regions they draw. Training goes through ``minimind_lab.fit``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .._checks import check_positive_int
from .._threads import one_thread
from ..activations import get_activation
from ..i18n import tr
from ..i18n.table import pad
from ..runtime import seeded
from ..sizing import count_parameters
from ..train import fit
from ._copies import (
    check_member,
    check_names,
    check_seeds,
    linear_layers,
    own_gradients,
    per_block,
)

__all__ = [
    "DATASET_NAMES",
    "BestLine",
    "Dataset2D",
    "DecisionRegions",
    "FLAT_TOLERANCE",
    "SETUP",
    "STACK_ACTIVATIONS",
    "Setup",
    "StackBatch",
    "StackResult",
    "WARP_WEIGHTS",
    "accuracy",
    "area_scale",
    "best_line",
    "decision_regions",
    "grid_lines",
    "line_bend",
    "lowest_linear_loss",
    "make_dataset",
    "make_stack",
    "one_thread",
    "own_gradients",
    "results_table",
    "train_stack",
    "train_stacks",
    "warp_grid",
    "warp_network",
    "warp_table",
]


@dataclass(frozen=True)
class Setup:
    """Lesson 02's data set, stacks and grid, read by the notebook, the widget and the figures."""

    dataset: str = "spirals"
    n_points: int = 400
    depth: int = 4
    width: int = 32
    steps: int = 100
    lr: float = 0.01
    seed: int = 0
    #: Seeds of the repeated experiment (each draws its own data set and initial weights).
    seeds: tuple[int, ...] = (0, 1, 2)
    grid_extent: float = 2.0
    grid_lines: int = 11


SETUP = Setup()


DATASET_NAMES: tuple[str, ...] = ("xor", "moons", "spirals")
#: The activation choices of lesson 02; "none" means no activation between the linear layers.
STACK_ACTIVATIONS: tuple[str, ...] = ("none", "relu", "gelu", "silu")


@dataclass(frozen=True)
class Dataset2D:
    """Points ``x``: ``(N, 2)`` float32 and labels ``y``: ``(N,)`` int64 in ``{0, 1}``."""

    name: str
    x: Tensor
    y: Tensor


def make_dataset(name: str, n: int = 400, noise: float = 0.1, seed: int = 0) -> Dataset2D:
    """A two-class 2-D data set no straight line separates, drawn from ``seed``.

    ``"xor"``: four Gaussian blobs at (±1, ±1), label = signs differ. ``"moons"``: two interleaved
    half circles. ``"spirals"``: two interleaved spiral arms. ``n`` points in total (half per
    class), Gaussian ``noise`` added; coordinates lie roughly in ``[-2, 2]``.
    """
    if name not in DATASET_NAMES:
        raise ValueError(f"unknown data set {name!r}; expected one of: {', '.join(DATASET_NAMES)}")
    n = check_positive_int("n", n)
    if n < 2:
        raise ValueError(f"n must be at least 2 (one point per class), got {n}")
    if noise < 0:
        raise ValueError(f"noise must be non-negative, got {noise!r}")
    g = torch.Generator().manual_seed(seed)
    half = n // 2
    labels = torch.cat([torch.zeros(half), torch.ones(n - half)]).long()  # (N,)
    if name == "xor":
        corners = torch.randint(0, 2, (n, 2), generator=g) * 2 - 1  # (N, 2) in {-1, 1}
        corners[:, 1] = torch.where(labels == 1, -corners[:, 0], corners[:, 0])
        points = corners.float() + noise * 3 * torch.randn(n, 2, generator=g)
    elif name == "moons":
        angle = math.pi * torch.rand(n, generator=g)
        upper = torch.stack([angle.cos(), angle.sin()], dim=1)
        lower = torch.stack([1 - angle.cos(), 0.5 - angle.sin()], dim=1)
        points = torch.where(labels[:, None] == 1, lower, upper) - torch.tensor([0.5, 0.25])
        points = 1.5 * points + noise * torch.randn(n, 2, generator=g)
    else:  # spirals
        t = torch.rand(n, generator=g).sqrt() * 3 * math.pi  # sqrt: even density along the arm
        arm = torch.stack([t * t.cos(), t * t.sin()], dim=1) / (1.5 * math.pi)  # (N, 2)
        points = torch.where(labels[:, None] == 1, -arm, arm)
        points = points + noise * torch.randn(n, 2, generator=g)
    return Dataset2D(name=name, x=points.float(), y=labels)


def grid_lines(extent: float = 2.0, n_lines: int = 11, n_points: int = 101) -> Tensor:
    """Horizontal and vertical lines of a square grid over ``[-extent, extent]²``.

    Returns ``(2 · n_lines, n_points, 2)``: the first ``n_lines`` lines run along x (constant y),
    the rest along y. Drawing each line after a map shows what the map does to the plane.
    """
    check_positive_int("n_lines", n_lines)
    check_positive_int("n_points", n_points)
    if not extent > 0:
        raise ValueError(f"extent must be positive, got {extent!r}")
    ticks = torch.linspace(-extent, extent, n_lines)  # (L,)
    along = torch.linspace(-extent, extent, n_points)  # (P,)
    horizontal = torch.stack(torch.broadcast_tensors(along[None, :], ticks[:, None]), dim=-1)
    vertical = torch.stack(torch.broadcast_tensors(ticks[:, None], along[None, :]), dim=-1)
    return torch.cat([horizontal, vertical], dim=0)


#: The fixed 2 → 2 → 2 network of the grid pictures: layer 1 shears, rotates by 30° and shifts;
#: layer 2 mixes the two coordinates. Chosen by hand so every panel stays readable. Both keep
#: orientation (``det(W1) = 1``, ``det(W2) = 1.35``), so a fold shows as a negative area scale.
WARP_WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] = {
    "weight1": (
        (math.cos(math.pi / 6), 0.6 * math.cos(math.pi / 6) - math.sin(math.pi / 6)),
        (math.sin(math.pi / 6), 0.6 * math.sin(math.pi / 6) + math.cos(math.pi / 6)),
    ),
    "bias1": ((0.4, -0.3),),
    "weight2": ((1.0, -0.7), (0.5, 1.0)),
    "bias2": ((0.0, 0.0),),
}


def warp_network(activation: str) -> nn.Sequential:
    """The fixed network ``Linear(2, 2) → activation → Linear(2, 2)`` of the grid pictures.

    ``activation="none"`` leaves the activation out, so the network is one linear map. The two
    linear layers are the same for every activation (``WARP_WEIGHTS``), so only the activation
    differs between the pictures. ``(*, 2)`` → ``(*, 2)``.
    """
    act_name = _check_stack_activation(activation)
    first, second = nn.Linear(2, 2), nn.Linear(2, 2)
    with torch.no_grad():
        first.weight.copy_(torch.tensor(WARP_WEIGHTS["weight1"]))
        first.bias.copy_(torch.tensor(WARP_WEIGHTS["bias1"][0]))
        second.weight.copy_(torch.tensor(WARP_WEIGHTS["weight2"]))
        second.bias.copy_(torch.tensor(WARP_WEIGHTS["bias2"][0]))
    middle = [] if act_name is None else [get_activation(act_name)]
    return nn.Sequential(first, *middle, second)


def warp_grid(lines: Tensor, network: nn.Module) -> Tensor:
    """Push every point of ``lines`` (``(L, P, 2)``) through ``network``; same shape back."""
    if lines.dim() != 3 or lines.shape[-1] != 2:
        raise ValueError(f"lines must have shape (lines, points, 2), got {tuple(lines.shape)}")
    with torch.no_grad():
        return network(lines)


def line_bend(lines: Tensor) -> Tensor:
    """How far each drawn line is from straight: ``(L, P, 2)`` → ``(L,)``, in ``[0, 1]``.

    The second singular value of a line's centred points over the first: ``0`` for points on one
    straight line, larger the more the line bends or folds. A line squashed to a single point
    (both singular values ``0``) counts as straight.
    """
    if lines.dim() != 3 or lines.shape[-1] != 2:
        raise ValueError(f"lines must have shape (lines, points, 2), got {tuple(lines.shape)}")
    centred = lines - lines.mean(dim=1, keepdim=True)
    singular = torch.linalg.svdvals(centred)  # (L, 2), descending
    return torch.where(singular[:, 0] > 0, singular[:, 1] / singular[:, 0].clamp_min(1e-30), 0.0)


#: ``|area_scale|`` at or below this counts as flattened (0 in exact arithmetic: ReLU's Jacobian
#: loses rank where a hidden coordinate is negative); beyond it on the side opposite to the sign
#: of the linear layers' own ``det(W2·W1)`` as folded (below ``-FLAT_TOLERANCE`` for
#: ``warp_network``, whose linear layers keep orientation: ``det(W2·W1) = 1.35``).
FLAT_TOLERANCE = 1e-6


def area_scale(network: nn.Module, points: Tensor) -> Tensor:
    """The signed local area scale of a 2-D → 2-D map at each point: ``(..., 2)`` → ``(...)``.

    ``det(∂network/∂p)``: how much a tiny square at ``p`` grows (``|det| > 1``) or shrinks, and
    whether it keeps its orientation (``det > 0``) or comes out mirrored (``det < 0``). ``0``
    means flattened onto a line or a point. A linear map has the same value everywhere, the
    determinant of its matrix; for ``Linear → f → Linear`` the chain rule gives
    ``det(W2·W1) · f′(h₁) · f′(h₂)``, so the map is folded (turned over against what its linear
    layers alone do) where the sign differs from ``det(W2·W1)``'s. Exact derivatives (autograd),
    in ``points``' dtype. ``network`` must act on each point on its own (as an MLP does):
    ``(N, 2)`` → ``(N, 2)``.
    """
    if points.dim() < 1 or points.shape[-1] != 2:
        raise ValueError(f"points must have shape (..., 2), got {tuple(points.shape)}")
    flat = points.detach().reshape(-1, 2).clone().requires_grad_(True)  # (N, 2)
    with torch.enable_grad():
        out = network(flat)
        if out.shape != flat.shape:
            raise ValueError(f"network must map (N, 2) to (N, 2), got {tuple(out.shape)}")
        # Point n's output depends on point n only, so one backward pass per output coordinate
        # gives row k of every point's Jacobian at once.
        rows = [
            torch.autograd.grad(out[:, k].sum(), flat, retain_graph=k == 0)[0] for k in range(2)
        ]
    jac = torch.stack(rows, dim=1)  # (N, 2 outputs, 2 inputs)
    return torch.linalg.det(jac).reshape(points.shape[:-1])


@dataclass(frozen=True)
class BestLine:
    """The best straight-line classifier found: class 1 where ``normal · x > offset``.

    ``accuracy`` in ``[0, 1]``; ``normal``: ``(2,)`` unit vector; ``offset``: a float.
    """

    accuracy: float
    normal: Tensor
    offset: float


def best_line(data: Dataset2D, n_angles: int = 720) -> BestLine:
    """The straight line that labels ``data`` best, by exhaustive search.

    ``n_angles`` directions of the normal around the full circle (both orientations); for each,
    every threshold between two neighbouring projections is tried, so only the angle is a grid.
    This is the most a linear classifier can get right on ``data`` (up to the angle grid), which
    training by cross-entropy need not reach.
    """
    if not isinstance(data, Dataset2D):
        raise ValueError(f"data must be a Dataset2D, got {type(data).__name__}")
    check_positive_int("n_angles", n_angles)
    angles = torch.arange(n_angles, dtype=torch.float64) * (2 * math.pi / n_angles)
    normals = torch.stack([angles.cos(), angles.sin()], dim=1)  # (A, 2)
    proj = data.x.double() @ normals.T  # (N, A)
    ordered, order = proj.sort(dim=0)
    ones = data.y[order].double()  # (N, A): labels in projection order
    zero_row = torch.zeros_like(ones[:1])
    ones_below = torch.cat([zero_row, ones.cumsum(dim=0)])  # (N + 1, A): class 1 below cut k
    zeros_below = torch.arange(ones.shape[0] + 1, dtype=torch.float64)[:, None] - ones_below
    correct = zeros_below + (ones.sum(dim=0) - ones_below)  # below the cut: 0, above: 1
    flat_best = int(correct.argmax())
    k, a = divmod(flat_best, n_angles)
    column = ordered[:, a]
    if k == 0:
        offset = float(column[0]) - 1.0
    elif k == len(column):
        offset = float(column[-1]) + 1.0
    else:
        offset = float(column[k - 1] + column[k]) / 2
    return BestLine(
        accuracy=float(correct[k, a]) / len(data.y),
        normal=normals[a].float(),
        offset=offset,
    )


def lowest_linear_loss(data: Dataset2D, max_iter: int = 100) -> float:
    """The lowest cross-entropy one linear layer ``Linear(2, 2)`` can reach on ``data``.

    With two classes the loss depends on the two logits only through their difference
    ``z = w·x + b`` (``w = w₁ − w₀``, ``b = b₁ − b₀``: three numbers): it is ``log(1 + e^(−z))``
    for a point of class 1 and ``log(1 + e^z)`` for class 0. That is convex in ``(w, b)``, so the
    minimum found is the global one: the floor under every linear classifier, however many linear
    layers it is written as (they collapse into one). Found by Newton's method, in float64, on the
    full batch, from ``(w, b) = 0``, the 50/50 guess with loss ``ln 2``, until the gradient is
    below 1e-10. ``data``: points ``(N, 2)``, labels ``(N,)``. If a straight line separates
    ``data`` completely, the loss has no minimum (it falls towards 0) and the result is where
    ``max_iter`` iterations stopped.
    """
    if not isinstance(data, Dataset2D):
        raise ValueError(f"data must be a Dataset2D, got {type(data).__name__}")
    check_positive_int("max_iter", max_iter)
    x, y = data.x.double(), data.y.double()  # y: 1.0 for class 1, 0.0 for class 0
    features = torch.cat([x, torch.ones_like(x[:, :1])], dim=1)  # (N, 3): x₁, x₂, 1
    sign = 2 * y - 1  # (N,): +1 for class 1, -1 for class 0

    def loss(wb: Tensor) -> Tensor:  # the mean cross-entropy of z = features · (w₁, w₂, b)
        return F.softplus(-sign * (features @ wb)).mean()

    wb = torch.zeros(3, dtype=x.dtype, device=x.device)  # nothing random is drawn
    with one_thread():
        current = loss(wb)
        for _ in range(max_iter):
            p = torch.sigmoid(features @ wb)  # (N,): the probability of class 1
            gradient = features.T @ (p - y) / len(y)  # (3,)
            if gradient.abs().max() < 1e-10:
                break  # the bottom of the bowl
            curvature = features.T @ (features * (p * (1 - p))[:, None]) / len(y)  # (3, 3) Hessian
            # Newton's step: to the bottom of the bowl that this gradient and curvature describe.
            step = torch.linalg.lstsq(curvature, gradient[:, None]).solution[:, 0]
            size = 1.0
            while (trial := loss(wb - size * step)) > current and size > 1e-12:
                size /= 2  # the loss would rise: a shorter step
            if trial > current:
                break  # no step lowers it any more: rounding has the last word
            wb, current = wb - size * step, trial
    return current.item()


def make_stack(activation: str, depth: int = 4, width: int = 32) -> nn.Sequential:
    """A classifier for 2-D points: ``depth`` hidden Linear layers of ``width``, then Linear(·, 2).

    An activation sits after each hidden Linear; with ``activation="none"`` there is none, and the
    stack is ``depth + 1`` linear layers that ``collapse_linear`` folds into one.
    ``(N, 2)`` → ``(N, 2)`` class logits.
    """
    check_positive_int("depth", depth)
    check_positive_int("width", width)
    act_name = _check_stack_activation(activation)
    layers: list[nn.Module] = []
    size = 2
    for _ in range(depth):
        layers.append(nn.Linear(size, width))
        if act_name is not None:
            layers.append(get_activation(act_name))
        size = width
    layers.append(nn.Linear(size, 2))
    return nn.Sequential(*layers)


def accuracy(model: nn.Module, data: Dataset2D) -> float:
    """Fraction of ``data`` points whose arg-max logit equals the label, in ``[0, 1]``."""
    with torch.no_grad():
        return (model(data.x).argmax(dim=-1) == data.y).float().mean().item()


@dataclass(frozen=True)
class StackResult:
    """One trained classifier: the model, its loss per step and its training accuracy."""

    activation: str
    model: nn.Module
    losses: list[float]
    accuracy: float


def train_stack(
    dataset: str = SETUP.dataset,
    activation: str = "relu",
    depth: int = SETUP.depth,
    width: int = SETUP.width,
    steps: int = SETUP.steps,
    lr: float = SETUP.lr,
    seed: int = SETUP.seed,
) -> StackResult:
    """Train ``make_stack(activation, depth, width)`` on ``make_dataset(dataset, seed=seed)``.

    The model is built under ``seeded(seed)`` and trained full-batch with Adam and cross-entropy
    through ``fit``, the steps lesson 02 shows in cells. ``depth=0`` trains a single
    ``Linear(2, 2)``: the plain linear classifier (线性分类器), whatever ``activation`` says (its
    result says ``"none"``). Runs are cached, so asking again
    for the same arguments (a widget redraw, a test) is instant; each call hands back its own copy
    of the model, so training or editing it never changes what the next caller gets. The caller's
    global RNG is left as it was.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    check_positive_int("steps", steps)
    if depth == 0:  # a single linear layer has no activation: one cache entry, whatever is asked
        _check_stack_activation(activation)
        activation = "none"
    cached = _trained_stack(dataset, activation, depth, width, steps, float(lr), seed)
    return replace(cached, model=copy.deepcopy(cached.model), losses=list(cached.losses))


@lru_cache(maxsize=64)
def _trained_stack(
    dataset: str, activation: str, depth: int, width: int, steps: int, lr: float, seed: int
) -> StackResult:
    data = make_dataset(dataset, seed=seed)
    with seeded(seed):
        if depth == 0:
            model: nn.Module = nn.Linear(2, 2)
        else:
            model = make_stack(activation, depth=depth, width=width)
    # Matrices this small gain nothing from intra-op threads, and on a busy machine the
    # threads' hand-offs can cost ten times the arithmetic.
    with one_thread():
        losses = fit(model, data.x, data.y, loss="cross_entropy", steps=steps, lr=lr)
    return StackResult(activation, model, losses, accuracy(model, data))


def _check_copies(
    activations: Sequence[str], seeds: Sequence[int], depth: int
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The batch's activations and seeds as tuples (``ValueError`` if empty, repeated or bad)."""
    activations = check_names(activations, "activations")
    for activation in activations:
        _check_stack_activation(activation)
    if depth == 0 and activations != ("none",):
        raise ValueError(
            f"a single linear layer (depth=0) has no activation: activations must be ('none',), "
            f"got {activations!r}"
        )
    return activations, check_seeds(seeds)


def _initial_classifier(activation: str, depth: int, width: int, seed: int) -> nn.Module:
    """What ``train_stack`` trains, before training: built under ``seeded(seed)``."""
    with seeded(seed):
        if depth == 0:
            return nn.Linear(2, 2)
        return make_stack(activation, depth=depth, width=width)


class StackBatch(nn.Module):
    """Independent classifiers of one shape, one per (activation, seed), run side by side.

    Copy ``(act, seed)`` starts from exactly the weights ``train_stack`` starts from:
    ``make_stack(act, depth, width)`` built under ``seeded(seed)`` (``depth=0``: one
    ``nn.Linear(2, 2)``). The copies are ordered activation by activation, seeds within
    (``copies``); layer ``i`` of every copy is stacked along a first axis, ``weights[i]``:
    ``(C, out, in)`` and ``biases[i]``: ``(C, 1, out)``. ``forward`` takes the copies' points one
    copy after the other, ``(C·N, 2)`` (rows ``k·N`` to ``(k+1)·N − 1`` are copy ``k``'s) and
    returns their logits in the same order, ``(C·N, 2)``, so ``fit`` trains the batch with
    cross-entropy like one classifier. Each copy reads only its own slice, with its own weights and
    activation, and ``own_gradients`` hands it exactly its own gradient, so Adam moves it as if it
    trained alone, up to float rounding (a batched product may add in another order).
    """

    def __init__(
        self,
        activations: Sequence[str],
        seeds: Sequence[int],
        depth: int = SETUP.depth,
        width: int = SETUP.width,
    ) -> None:
        super().__init__()
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
        check_positive_int("width", width)
        self.activations, self.seeds = _check_copies(activations, seeds, depth)
        self.depth, self.width = depth, width
        self.copies = tuple((act, seed) for act in self.activations for seed in self.seeds)
        self.act_fns = nn.ModuleList(
            nn.Identity() if act == "none" else get_activation(act) for act in self.activations
        )
        layers = [
            linear_layers(_initial_classifier(act, depth, width, seed)) for act, seed in self.copies
        ]
        self.weights = nn.ParameterList(
            nn.Parameter(torch.stack([copy_layers[i].weight.detach() for copy_layers in layers]))
            for i in range(depth + 1)
        )
        self.biases = nn.ParameterList(
            nn.Parameter(
                torch.stack([copy_layers[i].bias.detach()[None] for copy_layers in layers])
            )
            for i in range(depth + 1)
        )

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(C·N, 2)``, copy by copy → logits ``(C·N, 2)``, in the same order."""
        n_copies = len(self.copies)
        if x.dim() != 2 or x.shape[1] != 2 or x.shape[0] % n_copies:
            raise ValueError(
                f"input has shape {tuple(x.shape)}; expected (C·N, 2) with C={n_copies} copies"
            )
        x = x.reshape(n_copies, -1, 2)  # (C, N, 2): copy k's points in x[k]
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = torch.baddbmm(b, x, w.transpose(1, 2))  # (C, N, out): each copy its own layer
            if i < self.depth:  # each activation on its own block of copies
                x = per_block(self.act_fns, x, len(self.seeds))
        # fit's loss is the mean over all C copies: undo its 1/C in the backward pass
        return own_gradients(x.reshape(-1, 2), n_copies)

    def member(self, k: int) -> nn.Module:
        """Copy ``k`` (``copies[k]``) as a stand-alone classifier, the module ``train_stack``
        trains: ``(N, 2)`` → ``(N, 2)`` logits."""
        check_member(k, len(self.copies))
        module = _initial_classifier(self.copies[k][0], self.depth, self.width, 0)
        with torch.no_grad():  # the initial weights drawn above are all overwritten
            for layer, w, b in zip(linear_layers(module), self.weights, self.biases, strict=True):
                layer.weight.copy_(w[k])
                layer.bias.copy_(b[k, 0])
        return module.eval()


def train_stacks(
    dataset: str = SETUP.dataset,
    activations: Sequence[str] = STACK_ACTIVATIONS,
    seeds: Sequence[int] = SETUP.seeds,
    depth: int = SETUP.depth,
    width: int = SETUP.width,
    steps: int = SETUP.steps,
    lr: float = SETUP.lr,
) -> dict[tuple[str, int], StackResult]:
    """``train_stack`` for every activation and seed at once: ``{(activation, seed): result}``.

    One ``StackBatch`` holds all the copies; copy ``(act, seed)`` trains on
    ``make_dataset(dataset, seed=seed)``, from ``train_stack``'s initial weights, with one
    ``fit`` (full-batch Adam, cross-entropy, ``steps`` steps, learning rate ``lr``). Each copy's
    loss at every step is recorded by a forward hook. ``depth=0`` trains single ``Linear(2, 2)``
    layers (then ``activations`` must be ``("none",)``). The activations and seeds batched
    together are part of what defines a run (a batched product may add in another order): the
    same arguments always give the same numbers. Cached: asking again is instant and hands back
    the caller's own copies of the models. The caller's global RNG is left as it was.
    """
    if dataset not in DATASET_NAMES:
        raise ValueError(
            f"unknown data set {dataset!r}; expected one of: {', '.join(DATASET_NAMES)}"
        )
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    check_positive_int("width", width)
    check_positive_int("steps", steps)
    activations, seeds = _check_copies(activations, seeds, depth)
    cached = _trained_stacks(dataset, activations, seeds, depth, width, steps, float(lr))
    return {
        key: replace(r, model=copy.deepcopy(r.model), losses=list(r.losses))
        for key, r in cached.items()
    }


@lru_cache(maxsize=16)
def _trained_stacks(
    dataset: str,
    activations: tuple[str, ...],
    seeds: tuple[int, ...],
    depth: int,
    width: int,
    steps: int,
    lr: float,
) -> dict[tuple[str, int], StackResult]:
    data = {seed: make_dataset(dataset, seed=seed) for seed in seeds}
    batch = StackBatch(activations, seeds, depth=depth, width=width)
    x = torch.cat([data[seed].x for _, seed in batch.copies])  # (C·N, 2), copy by copy
    y = torch.cat([data[seed].y for _, seed in batch.copies])  # (C·N,)
    per_step: list[Tensor] = []  # each copy's own loss at every forward pass of fit

    def record(_module: nn.Module, _inputs: object, logits: Tensor) -> None:
        own = F.cross_entropy(logits.detach(), y, reduction="none")  # (C·N,)
        per_step.append(own.reshape(len(batch.copies), -1).mean(dim=1))  # (C,)

    handle = batch.register_forward_hook(record)
    try:
        with one_thread():  # as in _trained_stack: tiny matrices, one thread
            fit(batch, x, y, loss="cross_entropy", steps=steps, lr=lr)
    finally:
        handle.remove()
    losses = torch.stack(per_step[:steps]).T.tolist()  # (C, steps)
    results = {}
    for k, (act, seed) in enumerate(batch.copies):
        model = batch.member(k)
        results[act, seed] = StackResult(act, model, losses[k], accuracy(model, data[seed]))
    return results


@dataclass(frozen=True)
class DecisionRegions:
    """A classifier evaluated on a square grid: ``xs``/``ys``: ``(R,)``, ``prob``: ``(R, R)``.

    ``prob[r, c]`` is the probability of class 1 at the point ``(xs[c], ys[r])``.
    """

    xs: Tensor
    ys: Tensor
    prob: Tensor


def decision_regions(
    model: nn.Module, extent: float = 2.5, resolution: int = 120
) -> DecisionRegions:
    """Evaluate ``model`` (``(N, 2)`` → ``(N, 2)`` logits) on a ``resolution²`` grid.

    The grid is made on the model's device and in its dtype; results stay there.
    """
    check_positive_int("resolution", resolution)
    if not extent > 0:
        raise ValueError(f"extent must be positive, got {extent!r}")
    first = next(model.parameters(), None)  # evaluate where the model lives, in its dtype
    axis = torch.linspace(-extent, extent, resolution)
    if first is not None:
        axis = axis.to(device=first.device, dtype=first.dtype)
    yy, xx = torch.meshgrid(axis, axis, indexing="ij")
    points = torch.stack([xx.reshape(-1), yy.reshape(-1)], dim=1)  # (R², 2)
    with torch.no_grad():
        prob = model(points).softmax(dim=-1)[:, 1].reshape(resolution, resolution)
    return DecisionRegions(xs=axis, ys=axis, prob=prob)


# ---- tables, as the lesson prints them ---------------------------------------------------------


def warp_table(
    bends: Mapping[str, Tensor],
    scales: Mapping[str, Tensor],
    folded: Mapping[str, float],
    flattened: Mapping[str, float],
    bent_above: float = 0.01,
) -> str:
    """What each network did to the grid, one line per activation, headed in the current language.

    ``bends``: activation → ``(L,)`` line bends (``line_bend``); ``scales``: activation →
    ``(L, P)`` area scales (``area_scale``); ``folded``, ``flattened``: activation → share of the
    grid's points in ``[0, 1]``. Columns: the largest bend, how many of the ``L`` lines bend more
    than ``bent_above``, the range of the area scale, the folded and flattened shares.
    """
    header = (
        pad("", 5)
        + pad(tr("largest bend"), 13, ">")
        + pad(tr("lines bent"), 14, ">")
        + pad(tr("area scale"), 16, ">")
        + pad(tr("folded"), 8, ">")
        + pad(tr("flat"), 7, ">")
    )
    lines = [header]
    for act, bend in bends.items():
        lo, hi = scales[act].min().item(), scales[act].max().item()
        bent = pad(f"{int((bend > bent_above).sum())} / {len(bend)}", 14, ">")
        lines.append(
            pad(tr("none") if act == "none" else act, 5)
            + f"{bend.max().item():>13.2f}{bent}"
            + tr("{lo:>8.2f} to {hi:<5.2f}", lo=lo, hi=hi)
            + f"{folded[act]:>7.0%}{flattened[act]:>7.0%}"
        )
    return "\n".join(lines)


def _loss_text(value: float) -> str:
    """A final loss to 3 decimals (the 4th digit of a trained loss moves between CPUs)."""
    return f"{value:>8.3f}" if value >= 0.001 else f"{'<0.001':>8}"


def results_table(
    runs: Mapping[tuple[str, int], StackResult],
    names: Sequence[str],
    seeds: Sequence[int],
    best: Mapping[int, float],
    floor: Mapping[int, float],
) -> str:
    """The experiment's table: accuracy and final loss of each model on each seed, then the best
    straight line's accuracy and the floor (lowest linear loss) on each seed.

    ``runs``: ``(name, seed) → StackResult`` for every name in ``names`` (``"single layer"`` and
    ``"none"`` are labelled in the current language; activation names stay as they are) and seed
    in ``seeds``;
    ``best``, ``floor``: seed → accuracy in ``[0, 1]``, seed → loss.
    """
    seed_heads = "".join(pad(tr("seed {seed}", seed=s), 8, ">") for s in seeds)
    lines = [
        pad("", 20)
        + pad(tr("accuracy"), 8 * len(seeds), ">")
        + pad("", 11)
        + pad(tr("final loss"), 8 * len(seeds), ">"),
        pad(tr("model"), 12)
        + pad(tr("params"), 8, ">")
        + seed_heads
        + pad(tr("mean"), 8, ">")
        + "   "
        + seed_heads,
    ]
    for name in names:
        accs = [runs[name, seed].accuracy for seed in seeds]
        label = {"single layer": tr("single layer"), "none": tr("none")}.get(name, name)
        lines.append(
            pad(label, 12)
            + f"{count_parameters(runs[name, seeds[0]].model):>8,}"
            + "".join(f"{a:>8.1%}" for a in accs)
            + f"{sum(accs) / len(accs):>8.1%}   "
            + "".join(_loss_text(runs[name, seed].losses[-1]) for seed in seeds)
        )
    lines.append(pad(tr("best straight line"), 20) + "".join(f"{best[s]:>8.1%}" for s in seeds))
    lines.append(
        pad(tr("floor: lowest linear loss"), 28 + 8 * len(seeds) + 3)
        + "".join(_loss_text(floor[s]) for s in seeds)
    )
    return "\n".join(lines)


def _check_stack_activation(activation: str) -> str | None:
    """``None`` for "none"; the registry name otherwise (``ValueError`` if unknown)."""
    if activation == "none":
        return None
    get_activation(activation)  # raises ValueError naming the valid names
    return activation
