"""The shared training loop."""

from __future__ import annotations

import copy
import math
import re

import pytest
import torch
import torch.nn.functional as F

import minimind_lab as ml


def test_fit_lowers_the_loss_and_repeats_exactly() -> None:
    def run() -> list[float]:
        gen = ml.seed_everything(0)
        x = torch.randn(64, 4, generator=gen)
        y = x[:, :1] * x[:, 1:2]
        model = torch.nn.Sequential(ml.GatedFFN(4, 16, act="silu"), torch.nn.Linear(4, 1))
        return ml.fit(model, x, y, steps=60, lr=1e-2)

    first, second = run(), run()
    assert len(first) == 60 and first[-1] < 0.5 * first[0]
    assert first == second


def test_fit_cross_entropy_and_errors() -> None:
    gen = ml.seed_everything(0)
    x = torch.randn(32, 2, generator=gen)
    labels = (x[:, 0] > 0).long()
    model = torch.nn.Linear(2, 2)
    history = ml.fit(model, x, labels, loss="cross_entropy", steps=50, lr=0.1)
    assert history[-1] < history[0]
    with pytest.raises(ValueError, match="unknown loss 'l1'"):
        ml.fit(model, x, labels, loss="l1")
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        ml.fit(model, x, labels, loss="cross_entropy", steps=0)
    with pytest.raises(ValueError, match=r"output has shape \(32, 2\) but targets .*\(32, 1\)"):
        ml.fit(model, x, x[:, :1], loss="mse")


@pytest.mark.parametrize("weight_decay", [0.0, 1e-2])
def test_the_written_out_adam_is_torchs_adam_bit_for_bit(weight_decay: float) -> None:
    """``ml.fit``'s Adam makes torch.optim.Adam's CPU update operation for operation, so every
    lesson's numbers are what torch's optimiser would give; a parameter without a gradient is
    skipped and keeps its own step count, as in torch."""
    torch.manual_seed(0)
    ours = torch.nn.Sequential(torch.nn.Linear(6, 12), torch.nn.SiLU(), torch.nn.Linear(12, 6))
    theirs = copy.deepcopy(ours)
    unused_ours, unused_theirs = (
        torch.nn.Parameter(torch.ones(3)),
        torch.nn.Parameter(torch.ones(3)),
    )
    adam = ml.Adam([*ours.parameters(), unused_ours], lr=3e-2, weight_decay=weight_decay)
    reference = torch.optim.Adam(
        [*theirs.parameters(), unused_theirs], lr=3e-2, weight_decay=weight_decay
    )
    x, y = torch.randn(64, 6), torch.randn(64, 6)
    for step in range(25):
        for model, opt in ((ours, adam), (theirs, reference)):
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            if step % 5 == 0:  # now and then the extra parameter takes part
                loss = loss + (unused_ours if model is ours else unused_theirs).sum() * 1e-3
            loss.backward()
            opt.step()
    for a, b in zip(ours.parameters(), theirs.parameters(), strict=True):
        assert torch.equal(a, b)
    assert torch.equal(unused_ours, unused_theirs) and adam.steps[-1] == 5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lr": -1.0}, "lr must be a positive finite number, got -1.0"),
        ({"lr": float("inf")}, "lr must be a positive finite number, got inf"),
        ({"eps": 0.0}, "eps must be a positive finite number, got 0.0"),
        ({"betas": (0.9, 1.0)}, r"betas must be two numbers in \[0, 1\)"),
        ({"weight_decay": -0.1}, "weight_decay must be a finite number ≥ 0, got -0.1"),
    ],
)
def test_adam_refuses_bad_settings(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ml.Adam([torch.nn.Parameter(torch.ones(2))], **kwargs)


# --- issue 19: Adam takes what torch.optim.Adam takes --------------------------------------


def test_adam_refuses_a_single_tensor_as_torch_does() -> None:
    """Old behaviour: the tensor was iterated as its rows (not leaves), so step() changed
    nothing, silently. torch.optim.Adam raises a TypeError."""
    weight = torch.nn.Linear(3, 2).weight
    with pytest.raises(TypeError):
        torch.optim.Adam(weight)
    with pytest.raises(ValueError, match=r"got a single Tensor of shape \(2, 3\); wrap it"):
        ml.Adam(weight)
    adam = ml.Adam([weight], lr=0.1)  # the fix the message names
    weight.sum().backward()
    before = weight.detach().clone()
    adam.step()
    assert not torch.equal(weight, before)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lr": True}, r"lr must be a positive finite number, got True \(type bool"),
        ({"lr": "1e-3"}, r"lr must be a positive finite number, got '1e-3' \(type str"),
        ({"weight_decay": "0"}, r"weight_decay must be a finite number ≥ 0, got .0. \(type str"),
        ({"betas": 0.9}, r"betas must be two numbers in \[0, 1\), got 0.9"),
        ({"betas": (0.9, "0.99")}, r"betas must be two numbers in \[0, 1\)"),
        ({"weight_decay": False}, r"weight_decay must be a finite number ≥ 0, got False"),
    ],
)
def test_adam_refuses_settings_of_the_wrong_type(kwargs: dict, message: str) -> None:
    """Old behaviour: lr=True was taken as a learning rate of 1; the others raised TypeErrors."""
    with pytest.raises(ValueError, match=message):
        ml.Adam([torch.nn.Parameter(torch.ones(2))], **kwargs)


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ([], "Adam got an empty parameter list"),
        ([torch.ones(2)], "none with requires_grad=True"),
        ([{"params": [torch.nn.Parameter(torch.ones(2))]}], "parameter 0 is dict"),
        ([torch.nn.Parameter(torch.ones(2)) * 2], "parameter 0 is not a leaf tensor"),
        (3, "expects an iterable of tensors such as model.parameters(), got int"),
    ],
)
def test_adam_refuses_parameters_it_could_not_train(parameters: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ml.Adam(parameters)


def test_fit_on_a_model_without_trainable_parameters_says_so() -> None:
    """Old behaviour: a RuntimeError from backward() about a tensor that does not require grad."""
    model = torch.nn.Linear(2, 1).requires_grad_(False)
    x, y = torch.ones(4, 2), torch.ones(4, 1)
    for frozen in (model, torch.nn.Identity()):  # frozen weights, and no weights at all
        with pytest.raises(ValueError, match=r"\(\w+\) has no trainable parameters"):
            ml.fit(frozen, x, y, steps=2)


@pytest.mark.parametrize(
    ("model", "inputs", "targets", "message"),
    [
        (lambda x: x, torch.ones(4, 2), torch.ones(4, 2), "model must be an nn.Module"),
        (None, [[1.0, 2.0]], torch.ones(1, 2), "inputs must be a torch.Tensor .* got list"),
        (None, torch.tensor(1.0), torch.ones(1, 2), r"inputs has shape \(\); expected one row"),
        (None, torch.ones(0, 2), torch.ones(0, 2), r"inputs has shape \(0, 2\); expected one row"),
        (None, torch.tensor([[1.0, float("nan")]]), torch.ones(1, 2), "inputs hold 1 NaN or inf"),
        (None, torch.ones(3, 2), torch.tensor([[0.0, 1.0]] * 2 + [[math.inf, 0.0]]),
         "targets hold 1 NaN or infinite value"),
    ],
)  # fmt: skip
def test_fit_refuses_data_it_would_train_on_silently_wrongly(model, inputs, targets, message):
    """Old behaviour: one NaN made every loss and weight NaN, 0 rows "trained" to nan losses,
    and a list, a 0-dim tensor or a plain function failed with AttributeError/IndexError."""
    model = torch.nn.Linear(2, 2) if model is None else model
    before = ml.fit_call_count()
    with pytest.raises(ValueError, match=message):
        ml.fit(model, inputs, targets, steps=2)
    assert ml.fit_call_count() == before  # refused before anything trained
