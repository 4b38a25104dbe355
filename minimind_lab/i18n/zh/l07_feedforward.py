"""Chinese for l07_feedforward (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l07_feedforward.py
    "One pass widens {hidden} → {widest} on two branches, then narrows back": (
        "一次前向：两条分支各自升维 {hidden} → {widest}，再降回"
    ),
    "last dimension (features per token)": "最后一维（每个 token 的特征数）",
    "feature (of m)": "特征（共 m 个）",
    "token": "token",
    "Where act(gate) ≈ 0 the product is ≈ 0, whatever up holds": (
        "act(gate) ≈ 0 处乘积也 ≈ 0，无论 up 是多少"
    ),
    # widgets/l07_feedforward.py
    "MiniMind2: int(8h/3) rounded up to a multiple of 64": (
        "MiniMind2：int(8h/3) 向上取整到 64 的倍数"
    ),
    "minimind-3: ceil(h·π/64)·64": "minimind-3：ceil(h·π/64)·64",
    "intermediate_size m = {m} ({rule}); parameters = {params:,} = 3·{h}·{m}; "
    "after down_proj: {after}<br>": (
        "intermediate_size m = {m}（{rule}）；参数量 = {params:,} = 3·{h}·{m}；"
        "down_proj 之后：{after}<br>"
    ),
    "one pass on {n} tokens: output mean {mean:.3f}, std {std:.3f}; "
    "closed gates (|act(gate)| &lt; {below}): {closed:.1%}": (
        "在 {n} 个 token 上前向一次：输出均值 {mean:.3f}，标准差 {std:.3f}；"
        "关闭的门（|act(gate)| &lt; {below}）：{closed:.1%}"
    ),
    "hidden size": "隐藏维度",
    "activation": "激活函数",
    "version": "版本",
    "MiniMind's FeedForward: width, parameters and one pass": (
        "MiniMind 的 FeedForward：中间维度、参数量与一次前向"
    ),
    # exercises/feedforward.py
    "your FeedForward matches ml.FeedForward on {n} configs.": (
        "你的 FeedForward 在 {n} 个配置上都与 ml.FeedForward 一致。"
    ),
}
