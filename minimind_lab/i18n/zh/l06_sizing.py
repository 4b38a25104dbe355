"""Chinese for l06_sizing (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l06_sizing.py
    "{family} (published widths)": "{family}（公布的宽度）",
    "PlainFFN, counted: 2 matrices": "PlainFFN，按模块计数：2 个矩阵",
    "GatedFFN, counted: 3 matrices": "GatedFFN，按模块计数：3 个矩阵",
    "budget of the plain FFN at m = 4h: {budget:g}h²": "朴素 FFN 在 m = 4h 时的参数预算：{budget:g}h²",
    "parity: m/h = {crossing:.3f}": "持平点：m/h = {crossing:.3f}",
    "plain at m = 4h": "朴素，m = 4h",
    "Counted at h = {hidden}: 3 matrices at m = {crossing:.3f}h weigh\n"
    "what 2 matrices at m = 4h do": (
        "h = {hidden} 时按模块计数：m = {crossing:.3f}h 的 3 个矩阵\n"
        "与 m = 4h 的 2 个矩阵参数量相同"
    ),
    "width ratio m / h": "宽度比 m / h",
    "FFN parameters / h²": "FFN 参数量 / h²",
    "zoom on the ring": "圆圈处放大",
    "Rounding costs these models a few percent at most; ×1.3 and π are choices": (
        "取整最多让这些模型多出几个百分点；×1.3 和 π 是有意的选择"
    ),
    "gated FFN parameters above 8h² (%)": "门控 FFN 参数量超出 8h² 的部分（%）",
    "plain\nm = 4h": "朴素\nm = 4h",
    "gated\nunrounded": "门控\n取整前",
    "gated\nrounded": "门控\n取整后",
    "h = {h}: m = {width}, {ratio:.3f}× the plain FFN": "h = {h}：m = {width}，是朴素 FFN 的 {ratio:.3f} 倍",
    "Rounding up to a multiple of {multiple_of} costs {overhead:.2f}% here": (
        "向上取整到 {multiple_of} 的倍数，在此多出 {overhead:.2f}%"
    ),
    "parameters / h²": "参数量 / h²",
    "hidden size h": "隐藏维度 h",
    "extra gated parameters (%)": "门控 FFN 多出的参数量（%）",
    # widgets/l06_sizing.py
    "h = {hidden_size}, multiple_of = {multiple_of}, multiplier = {multiplier:g}: "
    "intermediate_size <b>{width}</b> (unrounded {unrounded}). "
    "Plain FFN at 4h: {plain:,} parameters; "
    "gated FFN: {gated:,} ({ratio:.3f}×). "
    "Rounding adds {extra:,} parameters "
    "({overhead:.2f}%).": (
        "h = {hidden_size}，multiple_of = {multiple_of}，multiplier = {multiplier:g}："
        "intermediate_size 为 <b>{width}</b>（取整前 {unrounded}）。"
        "4h 的朴素 FFN：{plain:,} 个参数；"
        "门控 FFN：{gated:,} 个（朴素 FFN 的 {ratio:.3f} 倍）。"
        "取整增加了 {extra:,} 个参数"
        "（{overhead:.2f}%）。"
    ),
    "hidden h": "隐藏维度 h",
    "multiple of": "取整倍数",
    "multiplier": "乘数",
    "FFN width from hidden size: the 8/3 rule (MiniMind2, LLaMA) and its rounding": (
        "由隐藏维度得到 FFN 宽度：8/3 规则（MiniMind2、LLaMA）及其取整"
    ),
    # lessons/l06_sizing.py
    "on {device}, {n} runs": "在 {device} 上运行 {n} 次",
    "on {device}, {n} run": "在 {device} 上运行 {n} 次",
    "{where}: {rounded} wide costs less time per unit than {unrounded} wide by more than "
    "{tolerance:.0%} in every run: the rounding pays here": (
        "{where}：每次运行中，{rounded} 宽时每个单元的耗时都比 {unrounded} 宽时少 "
        "{tolerance:.0%} 以上：取整在这里划算"
    ),
    "{where}: {rounded} wide costs more time per unit than {unrounded} wide by more than "
    "{tolerance:.0%} in every run: the rounding does not pay here": (
        "{where}：每次运行中，{rounded} 宽时每个单元的耗时都比 {unrounded} 宽时多 "
        "{tolerance:.0%} 以上：取整在这里不划算"
    ),
    "{where}: no difference of more than {tolerance:.0%} in time per unit between {rounded} "
    "and {unrounded} wide that every run agrees on: no measurable effect of the rounding here": (
        "{where}：按每个单元的耗时算，{rounded} 宽与 {unrounded} 宽之间没有一个超过 "
        "{tolerance:.0%}、且每次运行都一致的差异：这里测不出取整的效果"
    ),
    # lessons/l06_sizing.py: the tables the lesson prints
    "exact": "精确值",
    "unrounded": "取整前",
    "rounded": "取整后",
    "+units": "+单元",
    "+weights": "+权重",
    "overhead": "开销",
    "model": "模型",
    "ratio": "比例",
    "published": "公布值",
    "recomputed": "重算值",
    "FFN width m": "FFN 宽度 m",
    "FFN width / hidden": "FFN 宽度 / 隐藏维度",
    "FFN dropout after down_proj": "down_proj 之后的 FFN dropout",
    "q/k RMSNorm per head": "每个头的 q/k RMSNorm",
    "rms_norm_eps": "RMSNorm 的 ε",
    "key/value heads (default)": "键值头数（默认）",
    "MoE routed experts": "MoE 路由专家数",
    "MoE experts per token": "MoE 每个 token 的专家数",
    "MoE shared experts": "MoE 共享专家数",
    "MoE rescales top-k weights": "MoE 对所选 k 个权重重新归一化",
    "MoE parameters, total": "MoE 总参数量",
    "MoE parameters, active per token": "MoE 每个 token 激活的参数量",
    "only if k > 1": "仅当 k > 1",
    "always": "总是",
    "True": "是",
    "False": "否",
    "kv heads": "键值头",
    "FFN width": "FFN 宽度",
    "attention/h²": "注意力/h²",
    "FFN/h²": "FFN/h²",
    "block/h²": "整块/h²",
    # exercises/sizing.py
    "your {version} width rule agrees with the reference for every hidden_size from "
    "1 to {last}.": "你写的 {version} 宽度规则在 hidden_size 从 1 到 {last} 的每个取值上都与参考结果一致。",
    # exercises/sizing.py: the known mistakes and what a wrong answer is told
    "width truncated where it should round up: this rounds {name} down to a multiple of 64": (
        "本该向上取整的宽度被截断了：这是把 {name} 向下取整到 64 的倍数"
    ),
    "width rounded to the nearest multiple of 64; the rule rounds {name} up": (
        "宽度被取整到了最近的 64 的倍数；规则是把 {name} 向上取整"
    ),
    "no rounding to a multiple of 64: this is {name} cut to an integer": (
        "没有取整到 64 的倍数：这只是把 {name} 截断为整数"
    ),
    "{name} rounded up to an integer, not to a multiple of 64": (
        "{name} 被向上取整到了整数，而不是 64 的倍数"
    ),
    "rounded up to a multiple of 256 (LLaMA-1's multiple_of), not 64": (
        "向上取整到了 256 的倍数（LLaMA-1 的 multiple_of），而不是 64"
    ),
    "this is 4h, the original Transformer's width, not the rule's": (
        "这是 4h，即原始 Transformer 的宽度，而不是这条规则给出的宽度"
    ),
    "this is minimind-3's π rule; MiniMind2 uses 8/3": "这是 minimind-3 的 π 规则；MiniMind2 用的是 8/3",
    "this is MiniMind2's 8/3 rule; minimind-3 uses π": "这是 MiniMind2 的 8/3 规则；minimind-3 用的是 π",
    "h·π is cut to an int before rounding up; minimind-3 rounds the real product up, "
    "ceil(h·π / 64)·64 (they differ when int(h·π) is a multiple of 64)": (
        "h·π 在向上取整之前被截断成了整数；minimind-3 是把实数乘积直接向上取整，"
        "即 ceil(h·π / 64)·64（当 int(h·π) 是 64 的倍数时两者不同）"
    ),
    "hidden_size={h}: your function returned {got!r} ({kind}); a width counts "
    "units, so return an int (math.ceil and int(...) give one)": (
        "hidden_size={h}：你的函数返回了 {got!r}（{kind}）；宽度是单元的个数，"
        "所以要返回 int（math.ceil 和 int(...) 都会给出 int）"
    ),
    "{n_wrong} of {n} hidden sizes differ; for hidden_size={first} you return {got}, the "
    "{version} rule gives {expected}": (
        "{n} 个隐藏维度中有 {n_wrong} 个不一致；hidden_size={first} 时你返回 {got}，"
        "而 {version} 规则给出 {expected}"
    ),
    "{message}; {diagnosis}": "{message}；{diagnosis}",
    "a function fn(hidden_size) returning the FFN width": (
        "一个返回 FFN 宽度的函数 fn(hidden_size)"
    ),
    "version must be one of {names}, got {version!r}": (
        "version 应当是 {names} 之一，实际是 {version!r}"
    ),
    "your function calls ml.intermediate_size (or the WidthRule behind it), the package's "
    "own rule; write the rule yourself with int(...), math.ceil and 64": (
        "你的函数调用了 ml.intermediate_size（或它背后的 WidthRule），那是本包自己的规则；请用 int(...)、math.ceil 和 64 自己写出规则"
    ),
}
