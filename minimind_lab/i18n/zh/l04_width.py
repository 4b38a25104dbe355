"""Chinese for l04_width (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # lessons/l04_width.py: the tables the lesson prints
    "median MSE": "MSE 中位数",
    "at lr": "学习率",
    "lowest": "最低者",
    "best two apart": "前两名相差",
    "steps to MSE < {threshold:g}": "MSE < {threshold:g} 所需步数",
    "never": "未达到",
    "range": "范围",
    "steps to < {threshold:g}": "降到 < {threshold:g} 的步数",
    "deep / wide": "深 / 宽",
    "lr (wide)": "学习率（宽）",
    "lr (deep)": "学习率（深）",
    "linear (none)": "线性（无激活函数）",
    "{n} seeds": "{n} 个种子",
    "exactly 0": "恰为 0",
    "<{tol:.0%} rms": "低于 {tol:.0%} rms",
    "dead": "死单元",
    "live off": "活单元中关掉",
    "units used": "用到的单元",
    # the lesson's printed lines: values in a row, a yes/no fact
    "{items}, {item}": "{items}、{item}",
    "True": "是",
    "False": "否",
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
        "图中为种子 {seed}：{exact_zero:.0%} 的隐藏值恰为 0，死单元 {dead} 个，"
        "平均每个 token 用到 {m} 个单元中的 {used:.1f} 个"
    ),
    "How wide should the FFN be?": "FFN 该有多宽？",
    # exercises/ffn.py: the plain FFN's checker (its success line, cases and known mistakes)
    "your forward pass matches PlainFFN.forward on {n} cases.": (
        "你写的前向传播在全部 {n} 个用例上都与 PlainFFN.forward 一致。"
    ),
    "PlainFFN(8, 32, 'gelu'), x of shape (5, 8)": "PlainFFN(8, 32, 'gelu')，x 的形状为 (5, 8)",
    "PlainFFN(8, 16, 'relu', bias=True), x of shape (2, 3, 8)": (
        "PlainFFN(8, 16, 'relu', bias=True)，x 的形状为 (2, 3, 8)"
    ),
    "PlainFFN(6, 12, 'silu', bias=True) in float64, x of shape (4, 6)": (
        "float64 下的 PlainFFN(6, 12, 'silu', bias=True)，x 的形状为 (4, 6)"
    ),
    "PlainFFN(8, 32, 'gelu', dropout=0.2) in training mode, x of shape (4, 8)": (
        "训练模式下的 PlainFFN(8, 32, 'gelu', dropout=0.2)，x 的形状为 (4, 8)"
    ),
    "PlainFFN(8, 32, 'gelu', dropout=0.3) in eval mode, x of shape (4, 8)": (
        "评估模式下的 PlainFFN(8, 32, 'gelu', dropout=0.3)，x 的形状为 (4, 8)"
    ),
    "your code runs the module's own forward (ffn(x), ffn.forward(x) or "
    "{kind}.forward(ffn, x)); write the forward pass from its parts ({parts})": (
        "你的代码运行了模块自己的 forward（ffn(x)、ffn.forward(x) 或 {kind}.forward(ffn, x)）；请用它的部件（{parts}）写出前向传播"
    ),
    "a function fn(ffn, x) computing a PlainFFN's forward pass": (
        "一个计算 PlainFFN 前向传播的函数 fn(ffn, x)"
    ),
    "the forward pass needs no division and no exp of its own: look for a tensor made with "
    "torch.empty, or a division": (
        "前向传播本身不需要除法，也不需要自己取 exp：找找有没有用 torch.empty 造的张量，或者除法"
    ),
    "dropout applied in eval mode: F.dropout defaults to training=True; use ffn.dropout, "
    "which follows ffn.train() and ffn.eval() (or pass training=ffn.training)": (
        "评估模式下也用了 dropout：F.dropout 默认 training=True；请用 ffn.dropout，它会跟随 ffn.train() 和 ffn.eval()（或者传入 training=ffn.training）"
    ),
    "the dropout probability is fixed at 0.5; this module's is {p} (use ffn.dropout, or "
    "ffn.dropout.p)": (
        "dropout 概率被写死为 0.5；这个模块的是 {p}（请用 ffn.dropout，或 ffn.dropout.p）"
    ),
    "ReLU written as clamp(max=0), which keeps the negative part; ReLU is clamp(min=0), or "
    "call ffn.act_fn": (
        "ReLU 写成了 clamp(max=0)，它保留的是负的部分；ReLU 是 clamp(min=0)，或者直接调用 ffn.act_fn"
    ),
    "PlainFFN(8, 32, 'gelu', dropout=0.5) in training mode, x of shape (4, 8)": (
        "训练模式下的 PlainFFN(8, 32, 'gelu', dropout=0.5)，x 的形状为 (4, 8)"
    ),
    "the activation is applied after down_proj instead of between the two layers": (
        "激活函数用在了 down_proj 之后，而不是两层之间"
    ),
    "no activation: down_proj(up_proj(x)) is one linear map (lesson 02)": (
        "没有激活函数：down_proj(up_proj(x)) 只是一个线性映射（第 02 课）"
    ),
    "the activation is applied twice, between the layers and after down_proj": (
        "激活函数用了两次：两层之间一次，down_proj 之后又一次"
    ),
    "bias missing: F.linear with the weight alone drops up_proj's and down_proj's bias": (
        "漏了偏置：只拿权重调用 F.linear，会丢掉 up_proj 和 down_proj 的偏置"
    ),
    "tanh approximation of GELU used where the exact erf one is expected "
    "(ffn.act_fn is nn.GELU())": (
        "用了 GELU 的 tanh 近似，而这里要的是精确的 erf 版本（ffn.act_fn 是 nn.GELU()）"
    ),
    "dropout missing: in training mode ffn.dropout acts on down_proj's output": (
        "漏了 dropout：训练模式下，ffn.dropout 作用在 down_proj 的输出上"
    ),
    "dropout in the wrong place: on the hidden units instead of on down_proj's output": (
        "dropout 放错了位置：放在了隐藏单元上，而不是 down_proj 的输出上"
    ),
    "{name} used whatever the module's activation is; call ffn.act_fn ({own} here)": (
        "不管模块的激活函数是什么，都用了 {name}；请调用 ffn.act_fn（这里是 {own}）"
    ),
    # exercises/ffn.py: SwiGLU's checker (lesson 05), which shares the file: its cases, success
    # line and known mistakes
    "GatedFFN(8, 24, 'silu'), x of shape (5, 8)": "GatedFFN(8, 24, 'silu')，x 的形状为 (5, 8)",
    "GatedFFN(6, 16, 'silu', bias=True), x of shape (2, 3, 6)": (
        "GatedFFN(6, 16, 'silu', bias=True)，x 的形状为 (2, 3, 6)"
    ),
    "your SwiGLU matches the reference on {n} cases.": (
        "你写的 SwiGLU 在全部 {n} 个用例上都与参考实现一致。"
    ),
    "a function fn(ffn, x) computing SwiGLU from a GatedFFN's layers": (
        "一个用 GatedFFN 的各层计算 SwiGLU 的函数 fn(ffn, x)"
    ),
    "GELU's tanh form on the gate (approximate='tanh'): that is GEGLU, with GELU's tanh "
    "approximation; SwiGLU's gate is SiLU": (
        "门控分支用了 GELU 的 tanh 形式（approximate='tanh'）：那是用 GELU tanh 近似的 GEGLU；SwiGLU 的门控是 SiLU"
    ),
    "GatedFFN(8, 24, 'silu') in float64, x of shape (4, 8)": (
        "float64 下的 GatedFFN(8, 24, 'silu')，x 的形状为 (4, 8)"
    ),
    "SiLU applied to the up branch instead of the gate": (
        "SiLU 用在了 up 分支（内容分支）上，而不是门控分支上"
    ),
    "sigmoid on the gate: that is GLU; SwiGLU's gate is SiLU(x) = x·σ(x)": (
        "门控分支用了 sigmoid：那是 GLU；SwiGLU 的门控是 SiLU(x) = x·σ(x)"
    ),
    "GELU on the gate: that is GEGLU; SwiGLU's gate is SiLU": (
        "门控分支用了 GELU：那是 GEGLU；SwiGLU 的门控是 SiLU"
    ),
    "no activation on the gate: that is the bilinear variant": (
        "门控分支没有激活函数：那是双线性（bilinear）变体"
    ),
    "SiLU on both branches; only the gate gets it": "两个分支都用了 SiLU；只有门控分支该用它",
    "the branches are added; SwiGLU multiplies them element-wise (逐元素相乘)": (
        "两个分支被加在了一起；SwiGLU 要把它们逐元素相乘"
    ),
    "SiLU applied after the product; it belongs on the gate branch alone": (
        "SiLU 用在了乘积之后；它只属于门控分支"
    ),
    "the up branch is missing: down(SiLU(gate(x))) is a plain FFN": (
        "缺了 up 分支：down(SiLU(gate(x))) 是一个朴素 FFN"
    ),
    "bias missing: F.linear with the weight alone drops the projections' bias": (
        "漏了偏置：只拿权重调用 F.linear，会丢掉各个投影的偏置"
    ),
}
