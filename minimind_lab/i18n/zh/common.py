"""Chinese shared by every lesson: the lessons' short titles (``minimind_lab.lessons.registry``,
README.zh.md's table) and the widget frame (``minimind_lab.widgets.base``)."""

ZH: dict[str, str] = {
    "Attention vs MLP": "注意力与 MLP",
    "Linear collapse": "线性坍缩",
    "Activations": "激活函数",
    "The plain FFN": "普通 FFN",
    "Gating and SwiGLU": "门控与 SwiGLU",
    "MiniMind's FeedForward": "MiniMind 的 FeedForward",
    "What the MLP buys": "MLP 换来了什么",
    "How much an MLP holds": "MLP 能装下多少",
    "Toward MoE": "走向 MoE",
    # The line a passing exercise checker prints (minimind_lab.exercises._compare).
    "Correct: {message}": "正确：{message}",
    "Nothing drawn: {message}": "未能绘制：{message}",
    "Cannot draw this setting:": "无法绘制这组设置：",
}
