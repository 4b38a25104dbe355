"""Chinese shared by every lesson: the lessons' short titles (``minimind_lab.lessons.registry``,
README.zh.md's table) and the widget frame (``minimind_lab.widgets.base``)."""

ZH: dict[str, str] = {
    "Attention vs MLP": "注意力与 MLP",
    "Linear collapse": "线性坍缩",
    "Activations": "激活函数",
    "The plain FFN": "朴素 FFN",
    "Gating and SwiGLU": "门控与 SwiGLU",
    "MiniMind's FeedForward": "MiniMind 的 FeedForward",
    "What the MLP buys": "MLP 换来了什么",
    "How much an MLP holds": "MLP 能装下多少",
    "Toward MoE": "走向 MoE",
    # Activations' display labels and formulas (minimind_lab.activations): the names stay as
    # Chinese writing keeps them; only the words are translated.
    "ReLU": "ReLU",
    "GELU": "GELU",
    "GELU (tanh form)": "GELU（tanh 近似）",
    "SiLU / Swish": "SiLU / Swish",
    "sigmoid": "sigmoid",
    "tanh": "tanh",
    "identity": "恒等",
    "max(0, x)": "max(0, x)",
    "x·Φ(x), Φ the standard normal CDF": "x·Φ(x)，Φ 为标准正态分布的累积分布函数",
    "0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))": "0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))",
    "x·σ(x)": "x·σ(x)",
    "x·σ(x) (the same function as silu)": "x·σ(x)（与 silu 是同一个函数）",
    "σ(x) = 1 / (1 + e^(−x))": "σ(x) = 1 / (1 + e^(−x))",
    "(e^x − e^(−x)) / (e^x + e^(−x))": "(e^x − e^(−x)) / (e^x + e^(−x))",
    "x": "x",
    # The line a passing exercise checker prints (minimind_lab.exercises._compare).
    "Correct: {message}": "正确：{message}",
    "Not written yet: replace the line that raises NotImplementedError with your code, "
    "then run the cell again.": "还没写：把抛出 NotImplementedError 的那一行换成你的代码，再运行这个单元格。",
    # How a checker reports a difference (minimind_lab.exercises._compare).
    "{case}: your code raised {error}: {message}": "{case}：你的代码抛出了 {error}：{message}",
    "{name} must be {expected}, got {value!r} (type {kind})": (
        "{name} 应当是{expected}，实际是 {value!r}（类型 {kind}）"
    ),
    "{name} must be {expected}; you passed a module, an instance of {kind}: pass the class "
    "itself ({kind}), not {kind}(config)": (
        "{name} 应当是{expected}；你传入的是一个模块，即 {kind} 的实例：请传入类本身（{kind}），而不是 {kind}(config)"
    ),
    "{name} must be {expected}; you passed a module, an instance of {kind}: pass your function": (
        "{name} 应当是{expected}；你传入的是一个模块，即 {kind} 的实例：请传入你写的函数"
    ),
    "{name} must be {expected}; you passed the module class {kind}: pass your function": (
        "{name} 应当是{expected}；你传入的是模块类 {kind}：请传入你写的函数"
    ),
    "argument {i}": "第 {i} 个参数",
    "{case}: your code changed the weights of {name} in place; read them, never write into them": (
        "{case}：你的代码原地改动了 {name} 的权重；只读取它们，不要写入"
    ),
    "{case}: your code changed its input {name} in place (an in-place operation such as "
    "{name} /= ..., {name}.clamp_(...) or {name}[...] = ...); the caller's tensor must "
    "stay as it was, so compute a new one ({name} = {name} / ...)": (
        "{case}：你的代码原地改动了输入 {name}（原地操作，比如 {name} /= ...、{name}.clamp_(...) 或 {name}[...] = ...）；调用者的张量必须保持原样，所以请算出一个新张量（{name} = {name} / ...）"
    ),
    "{case}: your {what} is a {kind}, expected a torch.Tensor of shape {shape}": (
        "{case}：你的{what}是 {kind}，应为形状 {shape} 的 torch.Tensor"
    ),
    "{case}: {mistake}": "{case}：{mistake}",
    "{case}: your {what} has shape {got}, expected {expected}": (
        "{case}：你的{what}形状为 {got}，应为 {expected}"
    ),
    "{case}: right values, but your {what} is {got} where the input is {expected}; the dtype "
    "should follow the input": (
        "{case}：数值正确，但输入是 {expected}，你的{what}却是 {got}；dtype 应当跟随输入"
    ),
    "{case}: your {what} is {got}, expected {expected} (the input's dtype)": (
        "{case}：你的{what}是 {got}，应为 {expected}（输入的 dtype）"
    ),
    "your {what} holds NaN or infinity (first at index {where}) where the reference is "
    "finite; {cause}": "你的{what}在参考答案有限的地方出现了 NaN 或无穷大（第一处在索引 {where}）；{cause}",
    "your {what} holds NaN or infinity (first at index {where}) where the reference is "
    "finite": "你的{what}在参考答案有限的地方出现了 NaN 或无穷大（第一处在索引 {where}）",
    "{wrong} of {total} entries of your {what} differ from the reference; the largest gap at "
    "index {index}: got {got:.5g}, expected {expected:.5g}": (
        "你的{what}有 {wrong}/{total} 个元素与参考答案不同；最大差距在索引 {index}："
        "得到 {got:.5g}，应为 {expected:.5g}"
    ),
    "output": "输出",
    "attention weights": "注意力权重",
    "bias": "偏置",
    "derivative": "导数",
    "total": "总和",
    "weight": "权重",
    "weights": "权重",
    "Nothing drawn: {message}": "未能绘制：{message}",
    "Cannot draw this setting:": "无法绘制这组设置：",
}
