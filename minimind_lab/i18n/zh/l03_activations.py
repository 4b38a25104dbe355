"""Chinese for l03_activations (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l03_activations.py
    "plain: h ← f(Wh)": "普通堆叠：h ← f(Wh)",
    "residual: h ← h + f(Wh)": "残差：h ← h + f(Wh)",
    "pre-norm residual: h ← h + f(W·RMSNorm(h))": "Pre-Norm 残差：h ← h + f(W·RMSNorm(h))",
    "ReLU cuts negatives to 0; GELU and SiLU dip below 0 and come back": (
        "ReLU 把负输入截成 0；GELU 和 SiLU 先下探到 0 以下再回升"
    ),
    "input x (pre-activation)": "输入 x（预激活值）",
    "output f(x)": "输出 f(x)",
    "{name} min\n({x:.3f}, {value:.3f})": "{name} 最小值\n({x:.3f}, {value:.3f})",
    "zoom on the dips": "放大负半轴的凹陷",
    "Derivatives: ReLU is 0 or 1; sigmoid never passes 0.25": (
        "导数：ReLU 只取 0 或 1；sigmoid 从不超过 0.25"
    ),
    "derivative f'(x)": "导数 f'(x)",
    "input x": "输入 x",
    "{name}: f(x)": "{name}：f(x)",
    "{name}: f'(x) (autograd)": "{name}：f'(x)（自动求导）",
    "x·σ(βx): β → 0 flattens to x/2, β → ∞ sharpens to ReLU": (
        "x·σ(βx)：β → 0 时变平为 x/2，β → ∞ 时变尖为 ReLU"
    ),
    "{name} (×{factor:.2f}/layer)": "{name}（每层 ×{factor:.2f}）",
    "{block}\nper layer: {low} ×{low_factor:.2f} … {high} ×{high_factor:.2f}": (
        "{block}\n每层：{low} ×{low_factor:.2f} … {high} ×{high_factor:.2f}"
    ),
    "depth (blocks)": "深度（层数）",
    "‖∂L/∂W₁‖ (log scale)": "‖∂L/∂W₁‖（对数坐标）",
    # lessons/l03_activations.py: the tables the notebook prints
    "depth {depth}": "深度 {depth}",
    "per layer": "每层",
    "rule": "经验法则",
    "{n} seeds": "{n} 个种子",
    "g²-weighted": "g² 加权",
    "measured ÷ rule": "实测 ÷ 经验法则",
    "÷ weighted rule": "÷ 加权经验法则",
    "layer": "层",
    "{block}, {n} seeds": "{block}（{n} 个种子）",
    "plain": "普通堆叠",
    "residual": "残差",
    "prenorm": "Pre-Norm",
    # widgets/l03_activations.py
    "<b>{name}</b>: f(x) = {formula}<br>"
    "on [{lo:g}, {hi:g}]: lowest f = {lowest:.3f} at x = {at:.3f}; "
    "f' ranges {slope_min:.3f} … {slope_max:.3f}; "
    "{flat:.0%} of the range has zero slope (no gradient flows there)": (
        "<b>{name}</b>：f(x) = {formula}<br>"
        "在 [{lo:g}, {hi:g}] 上：f 的最小值为 {lowest:.3f}，位于 x = {at:.3f}；"
        "f' 的取值范围为 {slope_min:.3f} … {slope_max:.3f}；"
        "区间中有 {flat:.0%} 的斜率为零（那里没有梯度流过）"
    ),
    "activation": "激活函数",
    "x range": "x 范围",
    "Activation curve and derivative": "激活函数的曲线与导数",
    "β = {beta:.3g}: max |Swish_β − x/2| = {gap_half:.4f}, "
    "max |Swish_β − ReLU| = {gap_relu:.4f} on [{lo:g}, {hi:g}]; "
    "lowest value {lowest:.4f} (SiLU's −0.278, divided by β)": (
        "β = {beta:.3g}：在 [{lo:g}, {hi:g}] 上，max |Swish_β − x/2| = {gap_half:.4f}，"
        "max |Swish_β − ReLU| = {gap_relu:.4f}；"
        "最小值为 {lowest:.4f}（即 SiLU 的 −0.278 除以 β）"
    ),
    "x·σ(βx) at β = {beta:.3g}": "β = {beta:.3g} 时的 x·σ(βx)",
    # exercises/activations.py
    "your derivative of {name} matches the reference on {n} cases.": (
        "你写的 {name} 导数在全部 {n} 组测试上都与参考结果一致。"
    ),
    # exercises/activations.py: the cases and the known mistakes
    "random x of shape (3, 4, 5)": "形状为 (3, 4, 5) 的随机 x",
    "x on a grid from -6 to 6 in steps of 0.05 (0 included)": (
        "x 取 -6 到 6、步长 0.05 的网格（含 0）"
    ),
    "float64 x on a grid from -4 to 4 in steps of 0.05 (0 included)": (
        "float64 的 x，取 -4 到 4、步长 0.05 的网格（含 0）"
    ),
    "your code calls ml.activation_derivative (or the slope it looks up), the package's "
    "own answer; write the formula yourself with torch.erf, torch.exp, torch.sigmoid, ...": (
        "你的代码调用了 ml.activation_derivative（或它查到的斜率函数），那是本包自己的答案；请用 torch.erf、torch.exp、torch.sigmoid 等自己写出公式"
    ),
    "a function fn(x) returning the derivative at x": "一个返回 x 处导数的函数 fn(x)",
    "name must be one of {names}, got {name!r}": ("name 应当是 {names} 之一，实际是 {name!r}"),
    "your code uses autograd (torch.autograd.grad, .backward(), torch.func, ...); this "
    "exercise asks for the derivative written out by hand, and the checker runs your "
    "function under torch.no_grad()": (
        "你的代码用了自动求导（torch.autograd.grad、.backward()、torch.func 等）；这个练习要的是手写出来的导数，检查器会在 torch.no_grad() 下运行你的函数"
    ),
    "look for a division by x (0/0 = NaN at x = 0) or an exp of a large |x| that overflows "
    "(inf/inf); σ(x), tanh(x) and exp(−x²/2) stay finite": (
        "找找有没有除以 x 的地方（x = 0 处 0/0 = NaN），或对很大的 |x| 取 exp 而溢出（inf/inf）；σ(x)、tanh(x) 和 exp(−x²/2) 都保持有限"
    ),
    "Φ(x) is written as gelu(x)/x, which is 0/0 = NaN at x = 0; write Φ(x) = ½(1 + "
    "erf(x/√2)) instead": (
        "Φ(x) 写成了 gelu(x)/x，它在 x = 0 处是 0/0 = NaN；请改写为 Φ(x) = ½(1 + erf(x/√2))"
    ),
    "φ(x) lacks its 1/√(2π): the density of the standard normal is exp(−x²/2)/√(2π)": (
        "φ(x) 少了系数 1/√(2π)：标准正态分布的密度是 exp(−x²/2)/√(2π)"
    ),
    "σ(x) is written as silu(x)/x, which is 0/0 = NaN at x = 0; use torch.sigmoid(x)": (
        "σ(x) 写成了 silu(x)/x，它在 x = 0 处是 0/0 = NaN；请用 torch.sigmoid(x)"
    ),
    "this is the slope of clamp(max=0), 1 for x < 0; ReLU = clamp(min=0) has slope 1 for x "
    "> 0 and 0 elsewhere": (
        "这是 clamp(max=0) 的斜率，在 x < 0 处为 1；ReLU = clamp(min=0) 的斜率在 x > 0 处为 1，其余处为 0"
    ),
    "this is 1 − x²: the square is of tanh(x), 1 − tanh²(x)": (
        "这是 1 − x²：平方的应是 tanh(x)，即 1 − tanh²(x)"
    ),
    "this is 0; the identity's slope is 1 everywhere": "这是 0；恒等函数的斜率处处为 1",
    "this is Φ(x) + φ(x): the product rule's second term is x·φ(x), the density times x": (
        "这是 Φ(x) + φ(x)：乘积法则的第二项是 x·φ(x)，即密度乘以 x"
    ),
    "large x: -30, -10, 10, 30": "很大的 x：-30、-10、10、30",
    "this is the activation itself, not its derivative": "这是激活函数本身，而不是它的导数",
    "this is Φ(x) only: the product rule's second term x·φ(x) is missing "
    "(GELU = x·Φ(x), so its slope is Φ(x) + x·φ(x))": (
        "这只是 Φ(x)：漏掉了乘积法则的第二项 x·φ(x)（GELU = x·Φ(x)，所以它的斜率是 Φ(x) + x·φ(x)）"
    ),
    "tanh approximation of GELU used where the exact erf one is expected "
    "(this is the slope of gelu_pytorch_tanh)": (
        "这里要的是精确的 erf 形式，却用了 GELU 的 tanh 近似（这是 gelu_pytorch_tanh 的斜率）"
    ),
    "this is x·φ(x) only: the term Φ(x) is missing": "这只是 x·φ(x)：漏掉了 Φ(x) 这一项",
    "this is σ(x) only: the product rule's second term x·σ(x)(1 − σ(x)) is missing "
    "(SiLU = x·σ(x))": "这只是 σ(x)：漏掉了乘积法则的第二项 x·σ(x)(1 − σ(x))（SiLU = x·σ(x)）",
    "this is σ(x)(1 − σ(x)), the derivative of sigmoid, not of SiLU = x·σ(x)": (
        "这是 σ(x)(1 − σ(x))，即 sigmoid 的导数，而不是 SiLU = x·σ(x) 的导数"
    ),
    "the slope at x = 0 is 1 here; the reference (and autograd) use 0 there": (
        "这里 x = 0 处的斜率取了 1；参考实现（以及自动求导）在那里取 0"
    ),
    "this is 1 − tanh(x): the tanh should be squared, 1 − tanh²(x)": (
        "这是 1 − tanh(x)：tanh 应该平方，即 1 − tanh²(x)"
    ),
    "this is σ(x)(1 + σ(x)); the slope is σ(x)(1 − σ(x))": (
        "这是 σ(x)(1 + σ(x))；斜率应为 σ(x)(1 − σ(x))"
    ),
    "this is the derivative of {other}, not of {name}": "这是 {other} 的导数，而不是 {name} 的导数",
}
