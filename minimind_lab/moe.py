"""A small mixture of experts (专家 expert): ``FeedForward`` experts and a top-k router.

Both MiniMind generations are covered: MiniMind2 routes each token to 2 of 4 experts, adds one
shared expert that every token passes through, and rescales the top-k weights to sum to one only
when ``top_k > 1``; minimind-3 routes to 1 of 4, has no shared expert, and always rescales.
``MoEFeedForward.from_config`` takes a version's defaults; ``version_comparison`` sets the two
generations side by side, read off the modules themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from ._checks import check_features, check_nonnegative_int, check_positive_int
from .attention import CausalSelfAttention
from .minimind import VERSIONS, FeedForward, MiniMindConfig, check_config
from .sizing import count_parameters

#: When the chosen experts' weights are rescaled to sum to one (MiniMind's ``norm_topk_prob``).
RENORMALIZE_MODES = ("always", "if_top_k_gt_1", "never")


@dataclass(frozen=True)
class Routing:
    """One forward pass's routing decision, detached from the graph.

    ``scores``: ``(*, num_experts)`` softmax over experts; ``experts``: ``(*, top_k)`` chosen
    expert indices; ``weights``: ``(*, top_k)`` their mixing weights (summing to one per token
    when rescaled, else the raw scores; see ``MoEFeedForward.renormalize``).
    """

    scores: Tensor
    experts: Tensor
    weights: Tensor


class MoEFeedForward(nn.Module):
    """Route each token to ``top_k`` of ``num_experts`` MiniMind ``FeedForward`` experts.

    The router ``gate`` is ``Linear(hidden_size, num_experts, bias=False)``; its softmax scores
    pick the top-k experts; the output is the weighted sum of the chosen experts' outputs, plus
    the output of each of ``num_shared_experts`` experts that every token goes through.
    ``renormalize``: ``"always"`` rescales the chosen weights to sum to one (minimind-3, and the
    default here), ``"if_top_k_gt_1"`` only when ``top_k > 1`` (MiniMind2), ``"never"`` keeps
    the raw scores. Keys follow MiniMind (``gate.weight``, ``experts.{i}.gate_proj.weight``,
    ``shared_experts.{i}.up_proj.weight``, ...). ``(*, hidden_size)`` → ``(*, hidden_size)``; the
    last decision is kept in ``last_routing``.
    """

    def __init__(
        self,
        config: MiniMindConfig,
        num_experts: int = 4,
        top_k: int = 1,
        *,
        num_shared_experts: int = 0,
        renormalize: str = "always",
    ) -> None:
        super().__init__()
        config = check_config(config, "MoEFeedForward")
        num_experts = check_positive_int("num_experts", num_experts)
        top_k = check_positive_int("top_k", top_k)
        num_shared_experts = check_nonnegative_int("num_shared_experts", num_shared_experts)
        if top_k > num_experts:
            raise ValueError(f"top_k={top_k} must not exceed num_experts={num_experts}")
        if renormalize not in RENORMALIZE_MODES:
            raise ValueError(
                f"unknown renormalize={renormalize!r}; expected one of: "
                f"{', '.join(RENORMALIZE_MODES)}"
            )
        self.hidden_size = config.hidden_size
        self.num_experts = num_experts
        self.top_k = top_k
        self.renormalize = renormalize
        self.gate = nn.Linear(config.hidden_size, num_experts, bias=False)
        self.experts = nn.ModuleList(FeedForward(config) for _ in range(num_experts))
        self.shared_experts = nn.ModuleList(FeedForward(config) for _ in range(num_shared_experts))
        self.last_routing: Routing | None = None

    @classmethod
    def from_config(cls, config: MiniMindConfig) -> MoEFeedForward:
        """The MoE layer of ``config.version`` with that version's defaults (``VERSIONS``)."""
        spec = check_config(config, "MoEFeedForward.from_config").spec
        return cls(
            config,
            spec.moe_num_experts,
            spec.moe_top_k,
            num_shared_experts=spec.moe_shared_experts,
            renormalize=spec.moe_renormalize,
        )

    def route(self, x: Tensor) -> Routing:
        """Scores, chosen experts and weights for ``x`` of shape ``(*, hidden_size)``."""
        check_features(x, self.hidden_size, weight=self.gate.weight, module="MoEFeedForward")
        scores = self.gate(x).softmax(dim=-1)  # (*, E)
        weights, experts = scores.topk(self.top_k, dim=-1)  # (*, k)
        if self.renormalize == "always" or (self.renormalize == "if_top_k_gt_1" and self.top_k > 1):
            weights = weights / weights.sum(dim=-1, keepdim=True)
        return Routing(scores=scores, experts=experts, weights=weights)

    def forward(self, x: Tensor) -> Tensor:
        """``x``: ``(*, hidden_size)`` → ``(*, hidden_size)``."""
        routing = self.route(x)
        scores, chosen, mixing = routing.scores, routing.experts, routing.weights
        self.last_routing = Routing(scores.detach(), chosen.detach(), mixing.detach())
        flat = x.reshape(-1, self.hidden_size)  # (N, h)
        experts = chosen.reshape(-1, self.top_k)  # (N, k)
        weights = mixing.reshape(-1, self.top_k)  # (N, k)
        if x.device.type == "meta":  # shapes only: no data to dispatch on
            return x.new_empty(x.shape)
        if flat.shape[0] == 0:  # no token to route: an empty output that stays in the graph
            return x.clone()
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token, slot = torch.where(experts == e)  # the tokens that chose expert e
            if token.numel() == 0:
                continue
            contribution = expert(flat[token]) * weights[token, slot].unsqueeze(-1)
            out = out.index_add(0, token, contribution)
        for expert in self.shared_experts:  # every token, weight one
            out = out + expert(flat)
        return out.reshape(x.shape)


def version_comparison(hidden_size: int = 768) -> dict[str, tuple[object, object]]:
    """MiniMind2 vs minimind-3 at ``hidden_size``: aspect → ``(minimind2 value, minimind3 value)``.

    Every value is read off modules built from each version's config (on the meta device, so
    nothing is allocated): the dense FFN's width and dropout, the attention's q/k norms, the
    RMSNorm eps and default key/value heads, and the MoE layer's experts, experts per token,
    shared experts, rescaling and parameter counts (active = router + chosen + shared experts).
    """
    built = {}
    for name in VERSIONS:
        config = MiniMindConfig(hidden_size=hidden_size, version=name)
        with torch.device("meta"):
            ffn = FeedForward(config)
            attn = CausalSelfAttention.from_config(config)
            moe = MoEFeedForward.from_config(config)
        built[name] = (config, ffn, attn, moe)

    def expert_params(moe: MoEFeedForward, count: int) -> int:
        return count * count_parameters(moe.experts[0])

    aspects = {
        "FFN width m": lambda c, f, a, m: f.intermediate_size,
        "FFN width / hidden": lambda c, f, a, m: round(f.intermediate_size / c.hidden_size, 3),
        "FFN dropout after down_proj": lambda c, f, a, m: isinstance(f.dropout, nn.Dropout),
        "q/k RMSNorm per head": lambda c, f, a, m: hasattr(a, "q_norm"),
        "rms_norm_eps": lambda c, f, a, m: c.rms_norm_eps,
        "key/value heads (default)": lambda c, f, a, m: c.num_key_value_heads,
        "MoE routed experts": lambda c, f, a, m: m.num_experts,
        "MoE experts per token": lambda c, f, a, m: m.top_k,
        "MoE shared experts": lambda c, f, a, m: len(m.shared_experts),
        "MoE rescales top-k weights": lambda c, f, a, m: m.renormalize,
        "MoE parameters, total": lambda c, f, a, m: count_parameters(m),
        "MoE parameters, active per token": lambda c, f, a, m: (
            count_parameters(m.gate) + expert_params(m, m.top_k + len(m.shared_experts))
        ),
    }
    return {
        aspect: (read(*built["minimind2"]), read(*built["minimind3"]))
        for aspect, read in aspects.items()
    }
