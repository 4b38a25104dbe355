"""MiniMind's ``FeedForward`` against its floor: the three matrix products alone.

Per size and mode, four variants run on the same input:

* ``floor``: only the matrix products, on preallocated tensors with ``out=`` (3 for forward:
  ``x@Wg.T``, ``x@Wu.T``, ``h@Wd.T``; 9 for forward+backward: those plus ``dY@Wd``, ``dY.T@h``,
  ``dG.T@x``, ``dU.T@x``, ``dG@Wg``, ``dU@Wu``). Nothing a real FFN can skip.
* ``FeedForward``: the package's module (``minimind_lab.FeedForward``), as lessons use it.
* ``reference``: the obvious functional code, ``F.linear`` ×3 + ``F.silu`` + ``*``.
* ``fused gate+up``: one ``h → 2m`` product with ``cat([Wg, Wu])``, then ``chunk``.

Forward runs under ``torch.no_grad()`` (inference); forward+backward with gradients for the input
and the weights (``.grad`` reset to None each step). Timing is manual and interleaved, because
on a shared 2-core machine the load changes by the second: after warm-up, each round times one
sample of every variant back to back (order rotating per round; a sample is one call at MiniMind
sizes, or enough calls to last ``min_sample_s``; CUDA synchronized around it), so each round's
ratio to the floor compares measurements taken within a few seconds of each other. The table shows
the median over rounds of those ratios, their min–max, and the ratio of the fastest samples (the
least-disturbed estimate). Threads are set explicitly with ``torch.set_num_threads``: the cases
run at the requested count and again at 1 thread, where the calling thread's CPU time
(``time.thread_time``) is the whole cost and does not stretch when other processes take the
cores, so its ratio to the floor is the most load-independent number here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .stats import Summary, summarize

VARIANTS = ("floor", "FeedForward", "reference", "fused gate+up")
FORWARD_GOAL = 1.10  # forward within 10 % of the floor
# The quick run's one size: where the ratio to the floor means something (benchmarks/README.md,
# "Where the FFN ratio means something"). Smaller, and the few microseconds each extra operation
# costs show as a ratio; at thousands of tokens the intermediates are so large that the allocator
# hands fresh memory pages to every call, which the floor's preallocated tensors never need.
QUICK_HIDDEN = 768
QUICK_TOKENS = 256
#: The full run's token count: inside the window where the ratio settles (128–512 tokens from
#: h = 384 on); past it the allocator's fresh pages make the ratio jump between runs.
FULL_TOKENS = 512


@dataclass
class VariantResult:
    """One variant's timing in one (size, mode) case."""

    name: str
    time: Summary
    ratio: Summary | None  # to the floor, one ratio per round
    best_ratio: float  # this variant's fastest sample over the floor's fastest
    cpu_ratio: Summary | None = None  # same, from the calling thread's CPU time (1 thread)


@dataclass
class FFNCase:
    """One (hidden, intermediate, tokens, mode) case and its variants."""

    hidden: int
    intermediate: int
    tokens: int
    mode: str
    dtype: str
    device: str
    threads: int = 1
    kernels: str = ""  # torch's CPU capability (AVX2, AVX512, DEFAULT = portable); "" off the CPU
    variants: list[VariantResult] = field(default_factory=list)
    max_abs_diff: float = 0.0
    error: str | None = None


def _variants_forward(x, wg, wu, wd, ffn) -> dict[str, Callable[[], object]]:
    import torch
    import torch.nn.functional as F

    n, m, h = x.shape[0], wg.shape[0], wg.shape[1]
    g = x.new_empty(n, m)
    u = x.new_empty(n, m)
    hid = x.new_empty(n, m).normal_()
    y = x.new_empty(n, h)
    wg_t, wu_t, wd_t = wg.t(), wu.t(), wd.t()
    wgu = torch.cat([wg, wu]).contiguous()

    def floor():
        torch.mm(x, wg_t, out=g)
        torch.mm(x, wu_t, out=u)
        torch.mm(hid, wd_t, out=y)
        return y

    def module():
        return ffn(x)

    def reference():
        return F.linear(F.silu(F.linear(x, wg)) * F.linear(x, wu), wd)

    def fused():
        gate, up = F.linear(x, wgu).chunk(2, dim=-1)
        return F.linear(F.silu(gate) * up, wd)

    return {"floor": floor, "FeedForward": module, "reference": reference, "fused gate+up": fused}


def _variants_backward(x, wg, wu, wd, ffn) -> dict[str, Callable[[], object]]:
    import torch
    import torch.nn.functional as F

    n, m, h = x.shape[0], wg.shape[0], wg.shape[1]
    bufs = {k: x.new_empty(n, m).normal_() for k in ("g", "u", "hid", "dh", "dg", "du")}
    y, dy = x.new_empty(n, h), x.new_empty(n, h).normal_()
    dx1, dx2 = x.new_empty(n, h), x.new_empty(n, h)
    dwg, dwu, dwd = torch.empty_like(wg), torch.empty_like(wu), torch.empty_like(wd)
    wg_t, wu_t, wd_t = wg.t(), wu.t(), wd.t()
    b = bufs

    def floor():
        torch.mm(x, wg_t, out=b["g"])
        torch.mm(x, wu_t, out=b["u"])
        torch.mm(b["hid"], wd_t, out=y)
        torch.mm(dy, wd, out=b["dh"])  # dL/dh
        torch.mm(dy.t(), b["hid"], out=dwd)  # dL/dWd
        torch.mm(b["dg"].t(), x, out=dwg)  # dL/dWg
        torch.mm(b["du"].t(), x, out=dwu)  # dL/dWu
        torch.mm(b["dg"], wg, out=dx1)  # dL/dx, gate path
        torch.mm(b["du"], wu, out=dx2)  # dL/dx, up path
        return dx2

    xg = x.detach().clone().requires_grad_(True)
    pg, pu, pd = (w.detach().clone().requires_grad_(True) for w in (wg, wu, wd))
    pgu = torch.cat([wg, wu]).detach().clone().requires_grad_(True)
    module_params = list(ffn.parameters())

    def clear(tensors):
        for t in tensors:
            t.grad = None

    def module():
        clear([xg, *module_params])
        ffn(xg).backward(dy)

    def reference():
        clear([xg, pg, pu, pd])
        F.linear(F.silu(F.linear(xg, pg)) * F.linear(xg, pu), pd).backward(dy)

    def fused():
        clear([xg, pgu, pd])
        gate, up = F.linear(xg, pgu).chunk(2, dim=-1)
        F.linear(F.silu(gate) * up, pd).backward(dy)

    return {"floor": floor, "FeedForward": module, "reference": reference, "fused gate+up": fused}


def bench_case(
    hidden: int,
    tokens: int,
    mode: str,
    rounds: int,
    min_sample_s: float,
    device: str = "cpu",
    dtype_name: str = "float32",
) -> FFNCase:
    """Time the four variants for one size and mode (``"forward"`` or ``"forward+backward"``)."""
    import torch
    import torch.nn.functional as F

    import minimind_lab as ml

    dtype = getattr(torch, dtype_name)
    config = ml.MiniMindConfig(hidden_size=hidden)
    gen = torch.Generator().manual_seed(0)
    ffn = ml.FeedForward(config)
    with torch.no_grad():
        for p in ffn.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * p.shape[1] ** -0.5)
    ffn = ffn.to(device=device, dtype=dtype)
    m = config.intermediate_size
    case = FFNCase(hidden, m, tokens, mode, dtype_name, device, torch.get_num_threads())
    if device == "cpu":
        case.kernels = torch.backends.cpu.get_cpu_capability()
    x = torch.randn(tokens, hidden, generator=gen).to(device=device, dtype=dtype)
    wg, wu, wd = (
        p.detach() for p in (ffn.gate_proj.weight, ffn.up_proj.weight, ffn.down_proj.weight)
    )
    with torch.no_grad():  # the three real variants must agree before they are timed
        expected = F.linear(F.silu(F.linear(x, wg)) * F.linear(x, wu), wd)
        gate, up = F.linear(x, torch.cat([wg, wu])).chunk(2, dim=-1)
        fused_out = F.linear(F.silu(gate) * up, wd)
        case.max_abs_diff = max(
            (ffn(x) - expected).abs().max().item(), (fused_out - expected).abs().max().item()
        )
    if mode == "forward":
        ffn.eval()
        variants = _variants_forward(x, wg, wu, wd, ffn)
    else:
        ffn.train()
        variants = _variants_backward(x, wg, wu, wd, ffn)
    grad_mode = torch.no_grad() if mode == "forward" else torch.enable_grad()
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    samples: dict[str, list[float]] = {k: [] for k in variants}
    ratios: dict[str, list[float]] = {k: [] for k in variants}
    cpu_ratios: dict[str, list[float]] = {k: [] for k in variants}
    names = list(variants)
    with grad_mode:
        repeat = {}
        for name, fn in variants.items():  # warm up allocator, oneDNN primitives, caches
            fn()
            fn()
            sync()
            start = time.perf_counter()
            fn()
            sync()
            # Calls per sample so one sample lasts >= min_sample_s (1 at MiniMind sizes on CPU).
            repeat[name] = max(1, math.ceil(min_sample_s / (time.perf_counter() - start)))
        for r in range(rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            this_round, this_cpu = {}, {}
            for name in order:
                fn, count = variants[name], repeat[name]
                sync()
                start, cpu_start = time.perf_counter(), time.thread_time()
                for _ in range(count):
                    fn()
                sync()
                this_cpu[name] = (time.thread_time() - cpu_start) / count
                this_round[name] = (time.perf_counter() - start) / count
                samples[name].append(this_round[name])
            for name in names:
                ratios[name].append(this_round[name] / this_round["floor"])
                cpu_ratios[name].append(this_cpu[name] / this_cpu["floor"])
    best_floor = min(samples["floor"])
    for name in variants:
        ratio = summarize(ratios[name]) if name != "floor" else None
        cpu_ratio = summarize(cpu_ratios[name]) if name != "floor" else None
        case.variants.append(
            VariantResult(
                name, summarize(samples[name]), ratio, min(samples[name]) / best_floor, cpu_ratio
            )
        )
    return case


def bench_ffn(
    hiddens: list[int], tokens: int, rounds: int, min_sample_s: float, threads: int, log=print
) -> list[FFNCase]:
    """All cases: each hidden size, forward and forward+backward; CUDA bf16 too when present."""
    import torch

    targets = [("cpu", "float32", threads)]
    if threads != 1:
        targets.append(("cpu", "float32", 1))
    if torch.cuda.is_available():
        targets.append(("cuda", "bfloat16", threads))
    cases = []
    for device, dtype, n_threads in targets:
        torch.set_num_threads(n_threads)
        for hidden in hiddens:
            for mode in ("forward", "forward+backward"):
                try:
                    case = bench_case(hidden, tokens, mode, rounds, min_sample_s, device, dtype)
                except Exception as exc:  # noqa: BLE001 - reported in the table
                    case = FFNCase(
                        hidden,
                        0,
                        tokens,
                        mode,
                        dtype,
                        device,
                        n_threads,
                        error=f"{type(exc).__name__}: {exc}"[:200],
                    )
                cases.append(case)
                if case.error:
                    log(f"  ffn h={hidden} {mode} {device}: ERROR {case.error}")
                    continue
                ratios = ", ".join(
                    f"{v.name} {v.ratio.median:.3f}" for v in case.variants if v.ratio
                )
                log(
                    f"  ffn h={hidden} {mode} {device}/{dtype}/{n_threads}t: floor "
                    f"{case.variants[0].time.median * 1e3:.1f} ms; ×floor: {ratios}"
                )
    torch.set_num_threads(threads)
    return cases
