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
    "rescaled to sum to one": "已重新归一化，使和为 1",
    "raw softmax scores": "原始 softmax 分数",
    "your routing picks the same experts and weights ({mode}) on {n} cases.": (
        "你的路由在 {n} 个用例上选出的专家和权重（{mode}）都与参考一致。"
    ),
    "the weights are not rescaled to sum to one (divide by their sum over the k)": (
        "权重没有重新归一化（使和为 1，即除以这 k 个权重之和）"
    ),
    "the weights are rescaled to sum to one; here the raw softmax scores are "
    "expected (MiniMind2 with top_k = 1 keeps them)": (
        "权重被重新归一化（使和为 1）；这里要的是原始 softmax 分数（MiniMind2 在 top_k = 1 时保留它们）"
    ),
    "the weights are the raw logits; apply the softmax over the experts first": (
        "权重是原始 logits；要先在专家维上做 softmax"
    ),
    "the softmax runs over the tokens (dim 0), not over the experts (dim -1)": (
        "softmax 做在了 token 维（dim 0）上，而不是专家维（dim -1）"
    ),
    "6 tokens, 4 experts, k=1": "6 个 token，4 个专家，k=1",
    "6 tokens, 4 experts, k=2": "6 个 token，4 个专家，k=2",
    "(2, 3) tokens, 8 experts, k=3": "(2, 3) 个 token，8 个专家，k=3",
    "5 tokens, 4 experts, k=4 (all of them)": "5 个 token，4 个专家，k=4（全部专家）",
    "float64, 4 tokens, 6 experts, k=2": "float64，4 个 token，6 个专家，k=2",
    "a function fn(logits, k) returning (weights, experts)": (
        "一个返回 (weights, experts) 的函数 fn(logits, k)"
    ),
    "your code calls the package's own routing (MoEFeedForward.route, or the checker's "
    "reference top_k_routing); write the softmax, the top k and the rescaling yourself": (
        "你的代码调用了本包自己的路由（MoEFeedForward.route，或检查器的参考实现 top_k_routing）；请自己写出 softmax、取前 k 个和重新归一化"
    ),
    "exp of a large logit overflows (softmax subtracts the maximum first), and dividing by "
    "a sum of weights that is 0 gives 0/0": (
        "对很大的 logit 取 exp 会溢出（softmax 会先减去最大值），而除以和为 0 的权重会得到 0/0"
    ),
    "{case}: your function returned a {kind}; expected a pair (weights, experts)": (
        "{case}：你的函数返回了一个 {kind}；应当返回一对 (weights, experts)"
    ),
    "{case}: experts should be an int64 tensor of indices (what topk returns), "
    "got {got}": "{case}：experts 应当是 int64 的索引张量（即 topk 返回的那种），实际是 {got}",
    "{case}: experts has shape {got}, expected {expected}": (
        "{case}：experts 的形状是 {got}，应当是 {expected}"
    ),
    "{case}: you chose the k lowest scores; take the largest": (
        "{case}：你选了分数最低的 k 个；应当取最高的"
    ),
    "{case}: {bad} tokens chose other experts than the k with the highest scores": (
        "{case}：有 {bad} 个 token 选的专家不是分数最高的那 k 个"
    ),
}
