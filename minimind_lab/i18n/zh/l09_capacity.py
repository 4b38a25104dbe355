"""Chinese for l09_capacity (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # lessons/l09_capacity.py: the four kinds of model (tables, legends, the widget)
    "MiniMind2 block (SwiGLU MLP)": "MiniMind2 block（SwiGLU MLP）",
    "no MLP (removed)": "无 MLP（直接移除）",
    "no MLP, more attention blocks (equal params)": "无 MLP，多个注意力 block（等参数量）",
    "plain SiLU MLP (equal params)": "朴素 SiLU MLP（等参数量）",
    # plots/l09_capacity.py
    "2 bits/parameter (paper)": "2 比特/参数（论文）",
    "the whole table": "整张事实表",
    "{exposures} exposures per fact": "每条事实曝光 {exposures} 次",
    ": full block up to {best:.1f} bits/parameter": "：完整 block 最高 {best:.1f} 比特/参数",
    "parameters (embedding included)": "参数量（含词嵌入）",
    "bits held": "存储的比特数",
    "h = {hidden_size}: accuracy per fact": "h = {hidden_size}：事实的答对比例",
    "exposures per fact": "每条事实的曝光次数",
    "facts answered right": "答对的事实占比",
    "chosen": "所选模型",
    "{exposures} exposures: up to {best:.2f} bits/parameter": (
        "曝光 {exposures} 次：最高 {best:.2f} 比特/参数"
    ),
    # widgets/l09_capacity.py
    "h = {h}: {params:,} parameters ({rest:,} outside the embedding), "
    "{low:,.0f}–{high:,.0f} bits, <b>{per:.2f} bits/parameter</b>": (
        "h = {h}：{params:,} 个参数（词嵌入之外 {rest:,} 个），"
        "{low:,.0f}–{high:,.0f} 比特，<b>{per:.2f} 比特/参数</b>"
    ),
    "{label}, {exposures} exposures: ": "{label}，曝光 {exposures} 次：",
    "; ": "；",
    "model": "模型",
    "exposures": "曝光次数",
    "Lesson 09: how much each architecture holds": "第 09 课：每种架构能存下多少",
    # exercises/capacity.py
    "your bits match the reference on {n} cases.": "你的比特数在全部 {n} 个用例上与参考实现一致。",
}
