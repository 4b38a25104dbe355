"""Chinese for l10_moe (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l10_moe.py
    "raw inputs\n(control)": "原始输入\n（对照）",
    "MLP hidden layer\nact(gate)·up": "MLP 隐藏层\nact(gate)·up",
    "same kind": "同类",
    "different kinds": "不同类",
    "one seed (of {n})": "单个种子（共 {n} 个）",
    "random sets (chance)": "随机集合（偶然水平）",
    "Overlap of top features by kind: inputs vs the MLP's hidden layer": (
        "按类别看最强特征的重合：输入 vs MLP 隐藏层"
    ),
    "Jaccard overlap of top-feature sets": "最强特征集合的 Jaccard 相似度",
    "mixing weight": "混合权重",
    "token": "token",
    "expert (tokens routed to it)": "专家（路由到它的 token 数）",
    "Each token goes to {top_k} of {num_experts} experts; weights sum to 1": (
        "每个 token 去 {num_experts} 个专家中的 {top_k} 个；权重之和为 1"
    ),
    "Each token goes to {top_k} of {num_experts} experts; weights are raw router scores": (
        "每个 token 去 {num_experts} 个专家中的 {top_k} 个；权重是路由器的原始分数"
    ),
    "expert {expert} ({load})": "专家 {expert}（{load}）",
    "Parameters: dense FFN, MoE stored, MoE used per token": (
        "参数量：稠密 FFN、MoE 存储的、MoE 每个 token 用到的"
    ),
    "Stored grows with E and S, used per token with k and S": (
        "存储量随 E 和 S 增长，每个 token 用到的随 k 和 S 增长"
    ),
    "parameters": "参数量",
    # widgets/l10_moe.py
    "dense FFN": "稠密 FFN",
    "MoE total\n(E={experts}{shared})": "MoE 总参数量\n（E={experts}{shared}）",
    "MoE active\n(k={k}{shared})": "MoE 激活参数量\n（k={k}{shared}）",
    " (top_k {top_k} clamped to {k})": "（top_k {top_k} 被截为 {k}）",
    "{experts} routed experts, top_k = {k}{clamped}, {shared} shared; h = {h}, m = {m}<br>": (
        "{experts} 个路由专家，top_k = {k}{clamped}，{shared} 个共享专家；h = {h}，m = {m}<br>"
    ),
    "total = router h·E + (E + S)·3hm = {router:,} + {n}·{expert:,} = {total:,}<br>": (
        "总参数量 = 路由器 h·E + (E + S)·3hm = {router:,} + {n}·{expert:,} = {total:,}<br>"
    ),
    "active per token = router + (k + S)·3hm = {router:,} + {n}·{expert:,} = {active:,}<br>": (
        "每个 token 的激活参数量 = 路由器 + (k + S)·3hm = {router:,} + {n}·{expert:,} = "
        "{active:,}<br>"
    ),
    "tokens per routed expert: {load}": "每个路由专家分到的 token 数：{load}",
    "experts E": "专家数 E",
    "top-k": "top-k",
    "shared S": "共享专家 S",
    "A small mixture of experts: routing and parameters": "一个小型混合专家层：路由与参数量",
    # exercises/routing.py
    "rescaled to sum to one": "重新缩放为和为 1",
    "raw softmax scores": "原始 softmax 分数",
    "your routing picks the same experts and weights ({mode}) on {n} cases.": (
        "你的路由在 {n} 个用例上选出的专家和权重（{mode}）都与参考一致。"
    ),
}
