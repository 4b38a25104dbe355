"""Lesson 08: Probes for your own MiniMind checkpoint: running text as a one-kind corpus."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ..._checks import check_nonnegative_int, check_positive_int
from ...i18n import tr_noop
from .evaluation import _logits
from .task import NO_ANSWER, Corpus

__all__ = ["MINIMIND_BOS_ID", "NEXT_TOKEN", "next_token_probe", "sample_probe", "vocabulary_names"]


#: The one kind of question of a probe made of running text: every next token.
NEXT_TOKEN: tuple[str, ...] = (tr_noop("next token"),)
#: ``<|im_start|>`` in MiniMind's tokenizer (MiniMind2 and minimind-3): the token every training
#: text starts with.
MINIMIND_BOS_ID = 1


def next_token_probe(ids: Tensor) -> Corpus:
    """Running text ``(N, T)`` as a ``Corpus`` whose one kind is ``"next token"``: every
    position but the last is graded (its answer is the token after it)."""
    if not isinstance(ids, Tensor) or ids.dim() != 2 or ids.shape[1] < 2:
        shape = tuple(ids.shape) if isinstance(ids, Tensor) else type(ids).__name__
        raise ValueError(f"ids must be a (N, T) tensor of token ids with T ≥ 2, got {shape}")
    kinds = torch.zeros_like(ids, dtype=torch.long)
    kinds[:, -1] = NO_ANSWER
    return Corpus(ids.long().clone(), kinds, NEXT_TOKEN)


def sample_probe(
    model: nn.Module, n: int, length: int, seed: int, start_id: int = MINIMIND_BOS_ID
) -> Corpus:
    """``n`` texts of ``length`` tokens that ``model`` writes itself, as a ``next_token_probe``.

    Each starts with ``start_id`` and continues by sampling every next token from the model's
    own distribution (temperature 1, a generator seeded with ``seed``; the caller's RNG is left
    alone), so the text is in the model's own language even without a tokenizer to write it.
    """
    check_positive_int("n", n)
    check_nonnegative_int("seed", seed)
    if check_positive_int("length", length) < 2:
        raise ValueError(f"length must be at least 2 (a token and the one after it), got {length}")
    vocab = model.lm_head.weight.shape[0]
    if isinstance(start_id, bool) or not isinstance(start_id, int) or not 0 <= start_id < vocab:
        raise ValueError(f"start_id must be a token id from 0 to {vocab - 1}, got {start_id!r}")
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, 1), start_id, dtype=torch.long)
    model.eval()
    for _ in range(length - 1):
        p = _logits(model, ids)[:, -1].softmax(-1)  # (n, vocab)
        ids = torch.cat([ids, torch.multinomial(p, 1, generator=g)], 1)
    return next_token_probe(ids)


def vocabulary_names(vocab_size: int, tokenizer: object | None = None) -> list[str]:
    """A name for every token id: ``tokenizer.decode([id])`` (``repr`` of it, so spaces and
    newlines show) when a tokenizer is given, else the id itself as text."""
    check_positive_int("vocab_size", vocab_size)
    if tokenizer is None:
        return [str(i) for i in range(vocab_size)]
    return [repr(tokenizer.decode([i]))[1:-1] or f"<{i}>" for i in range(vocab_size)]
