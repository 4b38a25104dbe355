"""Chinese for l05_gating (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l05_gating.py: gate values before and after training
    "untrained": "训练前",
    "trained": "训练后",
    "gate value": "门控值",
    "density (log)": "密度（对数）",
    # the equal-budget race (lessons/l05_gating.py names the plain contenders)
    "Plain ReLU": "朴素 ReLU",
    "Plain GELU": "朴素 GELU",
    "Plain SiLU": "朴素 SiLU",
    "Bilinear": "双线性",
    # a printed list (lessons/l05_gating.py: listing)
    "{before}, {after}": "{before}；{after}",
    "{params} weights each: training loss\n(line: mean of {seeds} seeds, band: lowest–highest)": (
        "各 {params} 个权重：训练损失\n（线：{seeds} 个种子的均值；色带：最低–最高）"
    ),
    "training step": "训练步数",
    "training MSE": "训练 MSE",
    "Final loss of each of {seeds} seeds (bar: mean)": "{seeds} 个种子各自的最终损失（横线：均值）",
    "final training MSE": "最终训练 MSE",
    "{names} on its own:\nevery seed ends below 1e{exponent}": (
        "{names} 单独成图：\n每个种子最终都低于 1e{exponent}"
    ),
    "{names} on its own:\nevery seed ends at 0": "{names} 单独成图：\n每个种子最终都为 0",
    # one gated unit on a line (figure and widget)
    "{act} gate": "{act} 门控",
    "{name}: output ≈ t where open, ≈ 0 where shut": "{name}：放行处输出 ≈ t，压住处 ≈ 0",
    "{name}: output = a·t², a pure product": "{name}：输出 = a·t²，纯粹的乘积",
    "{name}: output ≈ a·t² where open, ≈ 0 where shut": "{name}：放行处输出 ≈ a·t²，压住处 ≈ 0",
    "gate: {act}({scale:g}·t)": "门控：{act}({scale:g}·t)",
    "outputs of the other variants": "其他变体的输出",
    "content: t": "内容：t",
    "output: gate · content": "输出：门控 · 内容",
    "t (both projections of one input)": "t（同一输入的两路投影）",
    "value": "数值",
    # the FFN structure diagram
    "activation\n{act}": "激活函数\n{act}",
    "element-wise\nproduct": "逐元素\n相乘",
    "2·{h}·{wide} = {n:,} weights": "2·{h}·{wide} = {n:,} 个权重",
    "2·h·{wide} = 8h² weights": "2·h·{wide} = 8h² 个权重",
    "2·h·{wide} weights": "2·h·{wide} 个权重",
    "3·{h}·{m} = {n:,} weights": "3·{h}·{m} = {n:,} 个权重",
    "3·h·{m} weights (= 8h² at m = 8h/3)": "3·h·{m} 个权重（m = 8h/3 时为 8h²）",
    "Gated": "门控",
    "Plain FFN: 2 matrices\n{count}": "朴素 FFN：2 个矩阵\n{count}",
    "{variant} FFN: 3 matrices\n{count}": "{variant} FFN：3 个矩阵\n{count}",
    # widgets/l05_gating.py
    "<b>{variant}</b>: output = {act}({scale:g}·t) · t. "
    "At t = −2: {minus:.3f}; at t = +2: {plus:.3f}; "
    "lowest {lowest:.3f} at t = {where:.2f}. "
    "Grey: the other GLU variants.": (
        "<b>{variant}</b>：输出 = {act}({scale:g}·t) · t。"
        "t = −2 时为 {minus:.3f}；t = +2 时为 {plus:.3f}；"
        "最低 {lowest:.3f}，位于 t = {where:.2f}。"
        "灰线：其他 GLU 变体。"
    ),
    "gate": "门控",
    "gate scale a": "门控斜率 a",
    "One gated unit: act(a·t) · t for each GLU variant": "单个门控单元：各 GLU 变体的 act(a·t) · t",
}
