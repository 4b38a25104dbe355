"""A small mixture of experts (专家 expert): ``FeedForward`` experts and a top-k router."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from ._checks import check_last_dim, check_positive_int
from .minimind import FeedForward, MiniMindConfig


@dataclass(frozen=True)
class Routing:
    """One forward pass's routing decision, detached from the graph.

    ``scores``: ``(*, num_experts)`` softmax over experts; ``experts``: ``(*, top_k)`` chosen
    expert indices; ``weights``: ``(*, top_k)`` their mixing weights, summing to one per token.
    """

    scores: Tensor
    experts: Tensor
    weights: Tensor


class MoEFeedForward(nn.Module):
    """Route each token to ``top_k`` of ``num_experts`` MiniMind ``FeedForward`` experts.

    The router ``gate`` is ``Linear(hidden_size, num_experts, bias=False)``; its softmax scores
    pick the top-k experts, whose weights are renormalised to sum to one; the output is the
    weighted sum of the chosen experts' outputs. Keys follow MiniMind's MoE (``gate.weight``,
    ``experts.{i}.gate_proj.weight``, ...). ``(*, hidden_size)`` → ``(*, hidden_size)``; the last
    decision is kept in ``last_routing``.
    """

    def __init__(self, config: MiniMindConfig, num_experts: int = 4, top_k: int = 1) -> None:
        super().__init__()
        check_positive_int("num_experts", num_experts)
        check_positive_int("top_k", top_k)
        if top_k > num_experts:
            raise ValueError(f"top_k={top_k} must not exceed num_experts={num_experts}")
        self.hidden_size = config.hidden_size
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(config.hidden_size, num_experts, bias=False)
        self.experts = nn.ModuleList(FeedForward(config) for _ in range(num_experts))
        self.last_routing: Routing | None = None

    def route(self, x: Tensor) -> Routing:
        """Scores, chosen experts and weights for ``x`` of shape ``(*, hidden_size)``."""
        check_last_dim(x, self.hidden_size)
        scores = self.gate(x).softmax(dim=-1)  # (*, E)
        weights, experts = scores.topk(self.top_k, dim=-1)  # (*, k)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return Routing(scores=scores, experts=experts, weights=weights)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        routing = self.route(x)
        self.last_routing = Routing(*(t.detach() for t in (routing.scores, routing.experts,
                                                            routing.weights)))
        flat = x.reshape(-1, self.hidden_size)  # (N, h)
        experts = routing.experts.reshape(-1, self.top_k)  # (N, k)
        weights = routing.weights.reshape(-1, self.top_k)  # (N, k)
        if x.device.type == "meta":  # shapes only: no data to dispatch on
            return x.new_empty(x.shape)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token, slot = torch.where(experts == e)  # the tokens that chose expert e
            if token.numel() == 0:
                continue
            contribution = expert(flat[token]) * weights[token, slot].unsqueeze(-1)
            out = out.index_add(0, token, contribution)
        return out.reshape(x.shape)
