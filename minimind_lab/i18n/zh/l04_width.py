"""Chinese for l04_width (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l04_width.py: the fits
    "targets (thick, pale)": "目标（粗线、浅色）",
    "output {k} (ω = {omega:.2g})": "输出 {k}（ω = {omega:.2g}）",
    "{act}, m/h = {ratio} (m = {m}), seed {seed}: MSE {mse}": (
        "{act}，m/h = {ratio}（m = {m}），种子 {seed}：MSE {mse}"
    ),
    "token coordinate t": "token 坐标 t",
    "output value": "输出值",
    # the loss curves
    "{who}: training MSE, one line per seed ({seeds} per width)": (
        "{who}：训练 MSE，每个种子一条线（每个宽度 {seeds} 个种子）"
    ),
    "training step (full-batch Adam)": "训练步数（全批量 Adam）",
    "MSE (log scale)": "MSE（对数坐标）",
    # the width sweep
    "Final MSE after {steps} steps: median of {seeds} seeds, bars min–max": (
        "训练 {steps} 步后的最终 MSE：{seeds} 个种子的中位数，误差棒为最小–最大"
    ),
    "width ratio m/h (weights 2·h·m)": "宽度比 m/h（权重数 2·h·m）",
    "final MSE (log scale)": "最终 MSE（对数坐标）",
    # the equal-parameter control
    "one hidden layer of {m} units": "1 个隐藏层，{m} 个单元",
    "{layers} hidden layers of {m} units": "{layers} 个隐藏层，各 {m} 个单元",
    "one layer of {m}, no activation (linear)": "1 层 {m} 个单元，无激活函数（线性）",
    "{parameters:,} weights each: dots are seeds, bars are medians": (
        "各 {parameters:,} 个权重：点是各个种子，横线是中位数"
    ),
    "activation": "激活函数",
    # sparsity
    "exactly 0 (solid)": "恰为 0（实心）",
    "|a| < {tol:g}·rms (hatched)": "|a| < {tol:g}·rms（斜线）",
    "Hidden entries exactly 0 and below {tol:g}·rms, per activation": (
        "各激活函数的隐藏值：恰为 0 与低于 {tol:g}·rms 的比例"
    ),
    "fraction of hidden entries": "占全部隐藏值的比例",
    "Hidden values in units of each layer's rms (±3 shown)": (
        "隐藏值，以各层自己的 rms 为单位（只画 ±3 以内）"
    ),
    "hidden activation a / rms(a)": "隐藏激活值 a / rms(a)",
    "count (log scale)": "个数（对数坐标）",
    # the widget's picture
    "fit: outputs (thin) vs targets (pale), ω = {omegas}": (
        "拟合：输出（细线）对目标（浅色），ω = {omegas}"
    ),
    "training step": "训练步数",
    "loss: final MSE {mse}": "损失：最终 MSE {mse}",
    "{act}, m/h = {ratio}, seed {seed}: m = {m} hidden units, 2·h·m = {parameters:,} parameters": (
        "{act}，m/h = {ratio}，种子 {seed}：m = {m} 个隐藏单元，2·h·m = {parameters:,} 个参数"
    ),
    # widgets/l04_width.py
    "<b>{act}</b>, h = {h}, m = {m} (m/h = {ratio}): parameters 2·h·m = {parameters:,}; "
    "final MSE after {steps} steps: median {median} over seeds {seeds} (range {low}–{high}); "
    "shown: seed {seed}, {exact_zero:.0%} of its hidden entries exactly 0, "
    "{dead} dead units, a token uses {used:.1f} of {m} units on average": (
        "<b>{act}</b>，h = {h}，m = {m}（m/h = {ratio}）：参数量 2·h·m = {parameters:,}；"
        "训练 {steps} 步后的最终 MSE：种子 {seeds} 的中位数 {median}（范围 {low}–{high}）；"
        "图中为种子 {seed}：{exact_zero:.0%} 的隐藏值恰为 0，死神经元 {dead} 个，"
        "平均每个 token 用到 {m} 个单元中的 {used:.1f} 个"
    ),
    "How wide should the FFN be?": "FFN 该有多宽？",
    # exercises/ffn.py
    "your forward pass matches PlainFFN.forward on {n} cases.": (
        "你写的前向传播在全部 {n} 个用例上都与 PlainFFN.forward 一致。"
    ),
}
