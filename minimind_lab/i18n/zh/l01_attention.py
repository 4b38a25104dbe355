"""Chinese for l01_attention (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l01_attention.py: the Jacobian heatmaps
    "Attention mixes earlier positions; the MLP stays on the diagonal": (
        "注意力混合之前的各个位置；MLP 只停在对角线上"
    ),
    "attention": "注意力",
    "MLP": "MLP",
    "{name}: {nonzero} of {total} blocks non-zero": "{name}：{total} 个块中 {nonzero} 个非零",
    "input position j (nudged)": "输入位置 j（被扰动）",
    "output position i (moves)": "输出位置 i（随之变化）",
    r"$\|\partial y_i / \partial x_j\|_F$  (white: exactly 0)": (
        "‖∂y_i/∂x_j‖_F（白色：恰为 0）"  # no mathtext: its fonts have no CJK glyphs
    ),
    # plots/l01_attention.py: the perturbation bars (figure and widget)
    "output position i": "输出位置 i",
    "‖Δy_i‖ (output change)": "‖Δy_i‖（输出的变化）",
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
    # widgets/l01_attention.py
    "Which outputs move when one token changes?": "改动一个 token，哪些输出会跟着变？",
    "nudge j": "扰动 j",
    "Nudging input position <b>{position}</b>: attention changes outputs at positions "
    "{first}–{last} ({count} of {seq_len}, largest {largest:.3f}); the MLP changes "
    "position(s) {mlp_moved} only ({mlp_largest:.3f}). Earlier positions never move: "
    "the mask is causal.": (
        "扰动输入位置 <b>{position}</b>：注意力改变位置 {first}–{last} 的输出（{seq_len} 个中的 "
        "{count} 个，最大 {largest:.3f}）；MLP 只改变位置 {mlp_moved}（{mlp_largest:.3f}）。"
        "更早的位置从不变化：掩码是因果的。"
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
