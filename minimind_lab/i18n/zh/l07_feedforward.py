"""Chinese for l07_feedforward (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l07_feedforward.py
    "One pass widens {hidden} → {widest} on two branches, then narrows back": (
        "一次前向：两条分支各自升维 {hidden} → {widest}，再降回"
    ),
    "last dimension (features per token)": "最后一维（每个 token 的特征数）",
    "feature (of m)": "特征（共 m 个）",
    "token": "token",
    "Where act(gate) ≈ 0 the product is much smaller than up": ("act(gate) ≈ 0 处，乘积远小于 up"),
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
        "被压住的门控值（|act(gate)| &lt; {below}）：{closed:.1%}"
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
    # exercises/feedforward.py: the configs tried, and what a wrong module is told
    "MiniMindConfig(hidden_size=64) (MiniMind2)": "MiniMindConfig(hidden_size=64)（MiniMind2）",
    "MiniMindConfig(hidden_size=96, version='minimind3')": (
        "MiniMindConfig(hidden_size=96, version='minimind3')"
    ),
    "MiniMindConfig(hidden_size=64, intermediate_size=100)": (
        "MiniMindConfig(hidden_size=64, intermediate_size=100)"
    ),
    "MiniMindConfig(hidden_size=32, hidden_act='gelu')": (
        "MiniMindConfig(hidden_size=32, hidden_act='gelu')"
    ),
    "MiniMindConfig(hidden_size=32, dropout=0.5) (MiniMind2), training mode": (
        "MiniMindConfig(hidden_size=32, dropout=0.5)（MiniMind2），训练模式"
    ),
    "MiniMindConfig(hidden_size=32, dropout=0.5, version='minimind3'), training mode": (
        "MiniMindConfig(hidden_size=32, dropout=0.5, version='minimind3')，训练模式"
    ),
    "int(8h/3) without rounding up to a multiple of 64": "int(8h/3)，没有向上取整到 64 的倍数",
    "8h/3 truncated to a multiple of 64 (should round up)": (
        "8h/3 向下截断到 64 的倍数（应当向上取整）"
    ),
    "minimind-3's π rule": "minimind-3 的 π 规则",
    "MiniMind2's 8/3 rule": "MiniMind2 的 8/3 规则",
    "4h, the original Transformer's width": "4h，原始 Transformer 的宽度",
    "a width the config does not give": "一个 config 给不出的宽度",
    "MiniMindConfig(hidden_size=163, num_attention_heads=1, num_key_value_heads=1, "
    "version='minimind3') (h·π = 512.07, so rounding up gives 576)": (
        "MiniMindConfig(hidden_size=163, num_attention_heads=1, num_key_value_heads=1, version='minimind3')（h·π = 512.07，向上取整得 576）"
    ),
    "MiniMindConfig(hidden_size=32, dropout=0.2) (MiniMind2), training mode": (
        "MiniMindConfig(hidden_size=32, dropout=0.2)（MiniMind2），训练模式"
    ),
    "MiniMindConfig(hidden_size=32, dropout=0.3) (MiniMind2), eval mode": (
        "MiniMindConfig(hidden_size=32, dropout=0.3)（MiniMind2），评估模式"
    ),
    "h·π cut to an int before rounding up; minimind-3 rounds the real product up": (
        "h·π 在向上取整之前被截断成了整数；minimind-3 是把实数乘积直接向上取整"
    ),
    "tanh approximation of GELU used where hidden_act='gelu' asks for the exact erf one "
    "(ml.get_activation(config.hidden_act) gives it)": (
        "hidden_act='gelu' 要的是精确的 erf 版本，却用了 GELU 的 tanh 近似（ml.get_activation(config.hidden_act) 给出的就是精确版本）"
    ),
    "dropout applied in eval mode: F.dropout defaults to training=True; use "
    "nn.Dropout(config.dropout), which follows module.train() and module.eval()": (
        "评估模式下也用了 dropout：F.dropout 默认 training=True；请用 nn.Dropout(config.dropout)，它会跟随 module.train() 和 module.eval()"
    ),
    "the dropout probability is fixed at 0.5; use config.dropout ({p} here)": (
        "dropout 概率被写死为 0.5；请用 config.dropout（这里是 {p}）"
    ),
    "your module is (or runs) ml.FeedForward, the package's own answer; build the module "
    "yourself: an nn.Module with gate_proj, up_proj, down_proj, act_fn and dropout, and "
    "its forward": (
        "你的模块就是（或运行了）ml.FeedForward，那是本包自己的答案；请自己搭这个模块：一个带 gate_proj、up_proj、down_proj、act_fn 和 dropout 的 nn.Module，以及它的 forward"
    ),
    "a class or function taking a MiniMindConfig": ("一个接收 MiniMindConfig 的类或函数"),
    "width {got}, but the config sets intermediate_size={given}: "
    "a given width is used as it is, and only a missing one is derived": (
        "宽度为 {got}，但 config 设定了 intermediate_size={given}："
        "给定的宽度要原样使用，只有缺省时才推导"
    ),
    "width {got} ({reason}); {version} gives {expected}: derive it with "
    "ml.intermediate_size(config.hidden_size, config.spec.width_rule)": (
        "宽度为 {got}（{reason}）；{version} 给出的是 {expected}：请用 "
        "ml.intermediate_size(config.hidden_size, config.spec.width_rule) 推导"
    ),
    "{case}: bias present ({biases}); MiniMind's three projections are "
    "nn.Linear(..., bias=False)": (
        "{case}：有偏置（{biases}）；MiniMind 的三个投影都是 nn.Linear(..., bias=False)"
    ),
    "{case}: your module's parameters are {ours}; expected "
    "{keys} (MiniMind's names, so its checkpoints load unchanged)": (
        "{case}：你的模块的参数是 {ours}；应当是 {keys}"
        "（MiniMind 的名字，这样它的检查点才能原样加载）"
    ),
    "{case}: parameter shapes {ours}, expected {theirs}": (
        "{case}：参数形状为 {ours}，应当是 {theirs}"
    ),
    "SiLU applied to the up branch instead of the gate": (
        "SiLU 用在了 up 分支（内容分支）上，而不是门控分支上"
    ),
    "config.hidden_act ignored: SiLU used where the config asks for another activation": (
        "忽略了 config.hidden_act：config 要求别的激活函数，却用了 SiLU"
    ),
    "no gate: a plain FFN, down(act(up(x)))": "没有门控：朴素 FFN，down(act(up(x)))",
    "dropout missing: MiniMind2 applies nn.Dropout(config.dropout) after down_proj": (
        "缺了 dropout：MiniMind2 在 down_proj 之后接 nn.Dropout(config.dropout)"
    ),
    "dropout applied, but minimind-3's FeedForward has none (config.spec.ffn_dropout is False)": (
        "用了 dropout，但 minimind-3 的 FeedForward 没有 dropout（config.spec.ffn_dropout 为 "
        "False）"
    ),
    "{case}: your factory returned a {kind}, expected an nn.Module": (
        "{case}：你的工厂函数返回了一个 {kind}，应当返回 nn.Module"
    ),
}
