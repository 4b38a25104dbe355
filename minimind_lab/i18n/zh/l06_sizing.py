"""Chinese for l06_sizing (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l06_sizing.py
    "{family} (published widths)": "{family}（公布的宽度）",
    "PlainFFN, counted: 2 matrices": "PlainFFN，按模块计数：2 个矩阵",
    "GatedFFN, counted: 3 matrices": "GatedFFN，按模块计数：3 个矩阵",
    "budget of the plain FFN at m = 4h: {budget:g}h²": "普通 FFN 在 m = 4h 时的参数预算：{budget:g}h²",
    "parity: m/h = {crossing:.3f}": "持平点：m/h = {crossing:.3f}",
    "plain at m = 4h": "普通，m = 4h",
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
    "plain\nm = 4h": "普通\nm = 4h",
    "gated\nunrounded": "门控\n取整前",
    "gated\nrounded": "门控\n取整后",
    "h = {h}: m = {width}, {ratio:.3f}× the plain FFN": "h = {h}：m = {width}，是普通 FFN 的 {ratio:.3f} 倍",
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
        "4h 的普通 FFN：{plain:,} 个参数；"
        "门控 FFN：{gated:,} 个（{ratio:.3f}×）。"
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
        "{where}：{rounded} 宽与 {unrounded} 宽之间，每个单元的耗时没有在每次运行中都超过 "
        "{tolerance:.0%} 的差异：这里测不出取整的效果"
    ),
    # exercises/sizing.py
    "your {version} width rule agrees with the reference for every hidden_size from "
    "1 to {last}.": "你写的 {version} 宽度规则在 hidden_size 从 1 到 {last} 的每个取值上都与参考结果一致。",
}
