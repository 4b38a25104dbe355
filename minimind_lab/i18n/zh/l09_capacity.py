"""Chinese for l09_capacity (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # lessons/l09_capacity.py: the four kinds of model (tables, legends, the widget)
    "MiniMind2 block (SwiGLU MLP)": "MiniMind2 块（SwiGLU MLP）",
    "no MLP (removed)": "无 MLP（直接移除）",
    "no MLP, more attention blocks (equal params)": "无 MLP，多个注意力块（等参数量）",
    "plain SiLU MLP (equal params)": "朴素 SiLU MLP（等参数量）",
    "two MiniMind2 blocks (SwiGLU MLPs)": "两个 MiniMind2 块（SwiGLU MLP）",
    "two blocks, no MLPs (removed)": "两个块，无 MLP（直接移除）",
    # lessons/l09_capacity.py: the paper's findings
    "~2 bits/param at 1,000 exposures, 1 block": "曝光 1,000 次约 2 比特/参数，1 个块",
    "~2 bits/param at 1,000 exposures, 2 blocks": "曝光 1,000 次约 2 比特/参数，2 个块",
    "≥1 bit/param at 100 exposures, 1 block": "曝光 100 次至少 1 比特/参数，1 个块",
    "≥1 bit/param at 100 exposures, 2 blocks": "曝光 100 次至少 1 比特/参数，2 个块",
    "removing MLPs keeps the ratio at 1,000, 1 block (full ÷ no MLP)": (
        "曝光 1,000 次时去掉 MLP 比值不变，1 个块（完整 ÷ 无 MLP）"
    ),
    "removing MLPs keeps the ratio at 1,000, 2 blocks (full ÷ no MLP)": (
        "曝光 1,000 次时去掉 MLP 比值不变，2 个块（完整 ÷ 无 MLP）"
    ),
    "removing MLPs costs >1.5× at 100, 1 block (full ÷ no MLP)": (
        "曝光 100 次时去掉 MLP 降到不足 1/1.5，1 个块（完整 ÷ 无 MLP）"
    ),
    "removing MLPs costs >1.5× at 100, 2 blocks (full ÷ no MLP)": (
        "曝光 100 次时去掉 MLP 降到不足 1/1.5，2 个块（完整 ÷ 无 MLP）"
    ),
    "LLaMA ≈1.3× worse at 100, traced to its gated MLP (plain ÷ gated)": (
        "曝光 100 次时 LLaMA 只有 GPT-2 的约 1/1.3，归因于门控 MLP（朴素 ÷ 门控）"
    ),
    # plots/l09_capacity.py
    "2 bits/parameter (paper)": "2 比特/参数（论文）",
    "the whole table": "整张事实表",
    "{exposures} exposures per fact": "每条事实曝光 {exposures} 次",
    ": full block up to {best:.1f} bits/parameter": "：完整块最高 {best:.1f} 比特/参数",
    "parameters (embedding included)": "参数量（含词嵌入）",
    "bits held": "存储的比特数",
    "h = {hidden_size}: accuracy per fact": "h = {hidden_size}：事实准确率",
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
    # exercises/capacity.py: the cases
    "8 facts, |A| = 4, logits over the attributes only": "8 条事实，|A| = 4，logits 只覆盖属性",
    "6 facts, |A| = 5, logits over a vocabulary of 20 (as in the lesson)": (
        "6 条事实，|A| = 5，logits 覆盖 20 个 token 的词表（与本课相同）"
    ),
    "a model that knows nothing: equal logits, |A| = 8": "一无所知的模型：logits 全部相等，|A| = 8",
    "a sure model: logit 30 on every answer, |A| = 16": (
        "完全确定的模型：每个答案的 logit 都是 30，|A| = 16"
    ),
    "float64, 5 facts, |A| = 6, vocabulary 12": "float64，5 条事实，|A| = 6，词表大小 12",
    "large logits (up to a few hundred), |A| = 4": "很大的 logits（可达几百），|A| = 4",
    "one fact, |A| = 2": "只有一条事实，|A| = 2",
    "a model worse than a uniform guess on every fact, |A| = 4": (
        "每条事实都比均匀瞎猜还差的模型，|A| = 4"
    ),
    # exercises/capacity.py: the likely mistakes
    "either exp of a large logit overflows (inf/inf = NaN), or a probability underflows to "
    "0 and a one-hot times its log2 is 0·(−∞) = NaN; take the right token's "
    "log-probability with log_softmax(...).gather or F.cross_entropy, which stay finite": (
        "要么是对很大的 logit 取 exp 溢出了（inf/inf = NaN），要么是某个概率下溢为 0，one-hot 乘以它的 log2 得到 0·(−∞) = NaN；请用 log_softmax(...).gather 或 F.cross_entropy 取正确 token 的对数概率，它们都保持有限"
    ),
    "each fact is capped at 0 (clamp(max=0)), so no fact adds bits; a fact holds up to "
    "log2|A| bits, and below 0 only when the model does worse than a uniform guess; drop "
    "the clamp": (
        "对每条事实取了 0 上限（clamp(max=0)），于是没有一条事实能增加比特；一条事实最多存下 log2|A| 比特，只有模型比均匀瞎猜还差时才低于 0；去掉 clamp"
    ),
    "the total is capped at 0 (clamp(max=0)); a model that knows the facts holds more than "
    "0 bits; drop the clamp": (
        "对总和取了 0 上限（clamp(max=0)）；知道这些事实的模型存下的比特数大于 0；去掉 clamp"
    ),
    "log10 where log2 is meant: bits are base-2 logarithms (log2|A|, and the cross-entropy "
    "divided by ln 2)": (
        "该用 log2 的地方用了 log10：比特是以 2 为底的对数（log2|A|，以及除以 ln 2 的交叉熵）"
    ),
    "the cross-entropy is in base 10 (divided by ln 10) while log2|A| is in bits; divide "
    "it by ln 2": ("交叉熵以 10 为底（除以了 ln 10），而 log2|A| 以比特计；应除以 ln 2"),
    "your code calls the lesson's own measure (l09.stored_bits, or the checker's reference "
    "fact_bits); write the bits yourself": (
        "你的代码调用了本课自己的度量（l09.stored_bits，或检查器的参考实现 fact_bits）；请自己算出比特数"
    ),
    "a function fn(logits, targets, num_attributes) returning bits": (
        "一个返回比特数的函数 fn(logits, targets, num_attributes)"
    ),
    "natural log: your bits are in nats (ln|A| − CE in nats); use log2 for both, or divide "
    "by ln 2": (
        "用了自然对数：你算出的单位是奈特（ln|A| − 以奈特计的 CE）；两者都用 log2，或者除以 ln 2"
    ),
    "the cross-entropy is in nats while log2|A| is in bits; divide the cross-entropy by "
    "ln 2": "交叉熵以奈特计，而 log2|A| 以比特计；把交叉熵除以 ln 2",
    "each fact is floored at 0: a fact the model knows worse than a uniform guess must "
    "cost bits (the measure sums log2|A| − CE over the facts, as the loss is summed); "
    "drop the clamp": (
        "对每条事实取了 0 下限：模型知道得比均匀瞎猜还差的事实必须扣掉比特（这个度量对所有事实"
        "求 log2|A| − CE 的和，正如损失是求和的）；去掉 clamp"
    ),
    "the total is floored at 0: a model that does worse than a uniform guess holds "
    "fewer than 0 bits; drop the clamp": (
        "对总和取了 0 下限：比均匀瞎猜还差的模型存下的比特数小于 0；去掉 clamp"
    ),
    "the mean over the facts; the table's bits are the sum": (
        "这是对事实取的均值；整张表的比特数是求和"
    ),
    "the probability of the right attribute stands where its cross-entropy (−log2 p) should": (
        "正确属性的概率放在了它的交叉熵（−log2 p）该在的位置"
    ),
    "the probability of the right attribute times log2|A|; a fact's bits are log2|A| "
    "minus its cross-entropy −log2 p": (
        "这是正确属性的概率乘以 log2|A|；一条事实的比特数是 log2|A| 减去它的交叉熵 −log2 p"
    ),
    "log2|A| for every fact the model gets right (argmax); the measure uses the "
    "cross-entropy, so an unsure right answer holds less": (
        "对模型答对（argmax）的每条事实都记 log2|A|；这个度量用的是交叉熵，"
        "所以没有把握的正确答案存下的比特更少"
    ),
    "the baseline is log2 of the vocabulary size ({vocab}); it is log2|A| "
    "({num_attributes} attributes), the bits of a uniform guess among them": (
        "基线用了词表大小（{vocab}）的 log2；应该是 log2|A|（{num_attributes} 个属性），"
        "即在属性间均匀瞎猜时的比特数"
    ),
    "this is the cross-entropy summed over the facts, in bits (the loss); a fact holds "
    "log2|A| minus it": (
        "这是以比特计、对所有事实求和的交叉熵（即损失）；一条事实存下的是 log2|A| 减去它"
    ),
    "the subtraction is reversed: CE − log2|A|; a fact holds log2|A| − CE": (
        "减法反了：CE − log2|A|；一条事实存下的是 log2|A| − CE"
    ),
    "the log2|A| baseline is missing: this is minus the loss; a fact holds log2|A| − CE": (
        "缺了 log2|A| 基线：这是损失取负；一条事实存下的是 log2|A| − CE"
    ),
    "the softmax runs over the facts (dim 0), not over the tokens of each fact (dim -1)": (
        "softmax 沿事实那一维（dim 0）做了，而不是沿每条事实的 token（dim -1）"
    ),
    # exercises/capacity.py: results of the wrong kind
    "{case}: your function returned a {kind}; expected the bits as a real number (a float, "
    "or a 0-dim tensor)": (
        "{case}：你的函数返回了 {kind}；应当返回比特数，一个实数（float，或 0 维张量）"
    ),
    "{case}: you returned one number per fact (shape {shape}); the table's bits are "
    "their sum, one number": (
        "{case}：你为每条事实各返回了一个数（形状 {shape}）；整张表的比特数是它们的和，只有一个数"
    ),
    "{case}: your result has shape {shape}; expected one number (a float or a 0-dim "
    "tensor)": "{case}：你的结果形状是 {shape}；应当是一个数（float 或 0 维张量）",
    # exercises/capacity.py
    "your bits match the reference on {n} cases.": "你的比特数在全部 {n} 个用例上与参考实现一致。",
}
