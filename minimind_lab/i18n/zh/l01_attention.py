"""Chinese for l01_attention (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l01_attention.py: the Jacobian heatmaps
    "Attention mixes earlier positions; the MLP stays on the diagonal": (
        "注意力混入更早位置的信息；MLP 只留在对角线上"
    ),
    "attention": "注意力",
    "MLP": "MLP",
    "{name}: {nonzero} of {total} blocks non-zero": "{name}：{total} 个块中 {nonzero} 个非零",
    "input position j (nudged)": "输入位置 j（被扰动）",
    "output position i (moves)": "输出位置 i（随之变化）",
    # mathtext has no CJK glyphs, and a line holding a "$" is all mathtext: the formula gets a
    # line of its own, the Chinese the next (matplotlib decides line by line)
    r"$\|\partial y_i / \partial x_j\|_F$  (white: exactly 0)": (
        r"$\|\partial y_i / \partial x_j\|_F$" "\n（白色：恰为 0）"
    ),
    # plots/l01_attention.py: the perturbation bars (figure and widget)
    "output position i": "输出位置 i",
    r"$\|\Delta y_i\|$ (output change)": r"$\|\Delta y_i\|$" "\n（输出的变化）",
    "Nudge position {position}: attention moves {moved} positions, the MLP moves {mlp_moved}": (
        "扰动位置 {position}：注意力改变 {moved} 个位置，MLP 改变 {mlp_moved} 个"
    ),
    # plots/l01_attention.py: where a block's parameters live
    "  MLP {share:.0%}": "  MLP 占 {share:.0%}",
    "RMSNorms": "RMSNorm",
    "RMSNorms: at most {share:.2%}\nof a block, too thin to see": (
        "RMSNorm：至多占块的 {share:.2%}，\n细得看不见"
    ),
    "The MLP holds most of every block's parameters": "每个块的参数大部分都在 MLP 里",
    "parameters per block (millions)": "每个块的参数量（百万）",
    # lessons/l01_attention.py: the parameter-split table's headers
    "model": "模型",
    "version": "版本",
    "attn params": "注意力参数",
    "MLP params": "MLP 参数",
    "MLP share": "MLP 占比",
    # widgets/l01_attention.py
    "Which outputs move when one token changes?": "改动一个 token，哪些输出会跟着变？",
    "nudge j": "扰动 j",
    "Nudging input position <b>{position}</b>: attention changes outputs at positions "
    "{first}–{last} ({count} of {seq_len}, largest {largest:.3f}); the MLP changes "
    "position(s) {mlp_moved} only ({mlp_largest:.3f}). Earlier positions never move: "
    "the mask is causal.": (
        "扰动输入位置 <b>{position}</b>：注意力改变了位置 {first}–{last} 的输出（{seq_len} 个位置中的 "
        "{count} 个，最大 {largest:.3f}）；MLP 只改变了位置 {mlp_moved}（{mlp_largest:.3f}）。"
        "更早的位置从来不动：掩码是因果的。"
    ),
    # exercises/attention.py
    "causal attention weights match the reference on {n} cases.": (
        "因果注意力权重在全部 {n} 个用例上都与参考实现一致。"
    ),
    # exercises/attention.py: the cases and the known mistakes an ExerciseError names
    "one position, q and k of shape (1, 4)": "单个位置，q 和 k 的形状为 (1, 4)",
    "a batch of heads, q and k of shape (2, 3, 5, 8)": "一批注意力头，q 和 k 的形状为 (2, 3, 5, 8)",
    "float64 inputs of shape (6, 4)": "形状为 (6, 4) 的 float64 输入",
    "large scores, q and k of shape (4, 16) times 30": "很大的分数，q 和 k 的形状为 (4, 16) 再乘以 30",
    "{case} (draw {i} of {n})": "{case}（第 {i} 次抽取，共 {n} 次）",
    "the softmax runs over dim 0 (the batch, or the heads); it runs over the keys, dim=-1, "
    "so that each row (one query) sums to one": (
        "softmax 作用在了 dim 0 上（批或注意力头所在的维度）；它应作用在键所在的 dim=-1 上，使每一行（一个查询）的和为 1"
    ),
    "a function fn(q, k) returning attention weights": ("一个返回注意力权重的函数 fn(q, k)"),
    "your code calls the checker's own reference, causal_attention_weights; write the "
    "weights yourself": (
        "你的代码调用了检查器自己的参考实现 causal_attention_weights；请自己写出这些权重"
    ),
    "a row whose scores are all -inf before the softmax is 0/0 (the diagonal masked too?), "
    "and an exp without each row's maximum subtracted overflows": (
        "softmax 之前分数全为 -inf 的一行会得到 0/0（是不是把对角线也遮住了？），而不先减去每行最大值的 exp 会溢出"
    ),
    "the scores are divided by √T (T = the number of positions); the scale is √d, d = the "
    "size of a query (q.shape[-1])": (
        "分数除以了 √T（T 为位置数）；缩放因子应为 √d，d 是查询向量的大小（q.shape[-1]）"
    ),
    "the scores are k·qᵀ, the transpose of q·kᵀ: entry (i, j) must be query i with key j "
    "(q @ k.transpose(-2, -1))": (
        "分数算成了 k·qᵀ，即 q·kᵀ 的转置：第 (i, j) 项应是查询 i 与键 j 的点积（q @ k.transpose(-2, -1)）"
    ),
    "the mask hides the diagonal too (triu(0) or tril(-1)): position i must see itself, so "
    "row 0 has nothing left and becomes NaN; mask only j > i": (
        "掩码把对角线也遮住了（triu(0) 或 tril(-1)）：位置 i 必须能看到自己，否则第 0 行什么都不剩，变成 NaN；只遮住 j > i"
    ),
    "the mask is applied after the softmax and the rows renormalised: right in exact "
    "arithmetic, but where every allowed weight underflows to 0 a row is 0/0 = NaN; set "
    "the future scores to -inf before the softmax": (
        "掩码加在了 softmax 之后、再把各行重新归一化：精确算术下是对的，但当允许的权重全部下溢为 0 时，这一行就是 0/0 = NaN；应在 softmax 之前把未来的分数设为 -inf"
    ),
    "exp of the scores without subtracting each row's maximum overflows (inf/inf = NaN); "
    "use softmax, which subtracts it": (
        "没有先减去每行最大值就对分数取 exp，会溢出（inf/inf = NaN）；请用 softmax，它会先减去最大值"
    ),
    "the scores are not divided by √d (d = the query size) before the softmax": (
        "softmax 之前没有把分数除以 √d（d 为查询向量的大小）"
    ),
    "the scores are divided by d where the reference divides by √d": (
        "分数除以了 d，而参考实现除以的是 √d"
    ),
    "no causal mask: every position reads later positions too": (
        "没有因果掩码：每个位置也读到了更晚的位置"
    ),
    "the mask is the wrong way round: it hides the past and keeps the future (use tril, "
    "not triu)": "掩码方向反了：它遮住了过去、留下了未来（应该用 tril，而不是 triu）",
    "the softmax runs over the wrong dimension (dim=-2, the queries); each row (one query) "
    "should sum to one": (
        "softmax 作用在了错误的维度上（dim=-2，即查询所在的维度）；每一行（一个查询）的和应为 1"
    ),
    "the mask is applied after the softmax, so the rows no longer sum to one; set the "
    "future scores to -inf before the softmax": (
        "掩码加在了 softmax 之后，所以各行的和不再为 1；应在 softmax 之前把未来的分数设为 -inf"
    ),
    "the future scores are set to 0, not -inf, so exp(0) = 1 still gives them weight": (
        "未来的分数被设为 0 而不是 -inf，exp(0) = 1 仍然给了它们权重"
    ),
}
