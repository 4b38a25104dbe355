"""Chinese for l08_memory (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # The kinds of question (``KINDS``): data in the code; printed lines, tables and figures
    # show them in Chinese (the lesson glosses each once, in its first cell).
    "recall": "回忆",
    "copy": "复制",
    "fetch": "取回",
    # The separators between the items of a printed line (``listing``).
    ", ": "，",
    "; ": "；",
    # The one kind of a probe made of running text (your own checkpoint, the appendix).
    "next token": "下一个 token",
    # The models (``MODEL_NAMES``, ``CONTROL_MODEL_NAMES``).
    "full": "完整模型",
    "attention-only": "仅注意力",
    "MLP-only": "仅 MLP",
    "narrow attention-only": "窄的仅注意力",
    "plain MLP": "朴素 MLP",
    "frozen MLP": "冻结 MLP",
    "MLPs removed": "去掉 MLP",
    "{model}, {steps} steps": "{model}，{steps} 步",
    # Knockouts (消融) and the sublayers of the patching grid.
    "none": "无",
    "intact": "未消融",
    "attention {layer}": "注意力 {layer}",
    "MLP {layer}": "MLP {layer}",
    "MLP 0": "MLP 0",
    "MLP 1": "MLP 1",
    "MLP 0 and 1": "MLP 0 和 1",
    "MLP {first} and {second}": "MLP {first} 和 {second}",
    "{knockout} zeroed": "{knockout} 置零",
    "MLP(s) zeroed": "MLP 置零",
    # Model comparison and knockout bars.
    "Held-out accuracy per kind ({seeds} seeds)": "留出测试集上各类问题的准确率（{seeds} 个种子）",
    "Held-out accuracy per kind (1 seed)": "留出测试集上各类问题的准确率（1 个种子）",
    "Accuracy with one sublayer zeroed": "置零一个子层后的准确率",
    "accuracy": "准确率",
    "floor without context": "无上下文时的下限",
    # Learning curves.
    "{kind}: accuracy on each new batch while training": "{kind}：训练中每个新批次上的准确率",
    "training step": "训练步数",
    "{kind} accuracy": "{kind} 准确率",
    "seed {seed}": "种子 {seed}",
    # Learning-rate sweep.
    "Facts answered after {steps} steps, per learning rate": "训练 {steps} 步后答对的事实（按学习率）",
    "peak learning rate (cosine decay to 0)": "峰值学习率（余弦衰减到 0）",
    "recall and fetch accuracy": "回忆与取回的准确率",
    # Patching (激活修补).
    "{kind}: the answer is read at {where}": "{kind}：答案在 {where} 处读出",
    "position (its role in the sequence)": "位置（在序列中的角色）",
    "output restored": "恢复的输出",
    "noise": "噪声",
    "share of logit difference restored": "恢复的 logit 差比例",
    "share of p restored": "恢复的 p 比例",
    "layer {layer}\nMLP": "第 {layer} 层\nMLP",
    "all\nMLPs": "全部\nMLP",
    "whole stream\ninto layer {layer}": "进入第 {layer} 层\n的整个残差流",
    "at the subject": "在主语处",
    "at the last (relation) position": "在最后的（关系）位置",
    "{kind}: share of the answer's probability restored": "{kind}：恢复的答案概率比例",
    "{kind}: share of p(answer) restored": "{kind}：恢复的 p(答案) 比例",
    # Key-value reading (键值记忆) of one unit, and of a layer's units.
    "layer {layer}, unit {unit}: what its value promotes": (
        "第 {layer} 层单元 {unit}：其值向量提升的 token"
    ),
    "logit change per unit of |a| (a {sign})": "每单位 |a| 带来的 logit 变化（a {sign}）",
    "logit change per unit of |a|": "每单位 |a| 带来的 logit 变化",
    "Units whose top {k} contexts answer what they promote": (
        "最强 {k} 个上下文的答案正是其所提升 token 的单元"
    ),
    "share of the unit's top {k} contexts whose answer its value promotes most": (
        "单元最强的 {k} 个上下文中，答案是其值向量最提升的 token 的比例"
    ),
    "units": "单元数",
    "layer {layer}: own value": "第 {layer} 层：自身的值向量",
    "layer {layer}: another unit's": "第 {layer} 层：另一单元的值向量",
    # The widget.
    "One MLP unit as key and value": "把一个 MLP 单元读作键和值",
    "layer": "层",
    "unit": "单元",
    "zero": "置零",
    "layer {layer}, unit {unit}: value promotes": "第 {layer} 层单元 {unit}：值向量提升的 token",
    "held-out accuracy": "留出测试集准确率",
    "held-out accuracy per kind": "留出测试集上各类问题的准确率",
    "accuracy per kind, {knockout} zeroed": "各类问题的准确率，{knockout} 置零",
    "accuracy per kind, nothing zeroed": "各类问题的准确率，未置零任何子层",
    (
        "Full model, seed {seed}. <b>Layer {layer}, unit {unit}</b> fires hardest at "
        "(previous token, token → answer (a)): {contexts}. "
        "{hit_rate:.0%} of its top {k} contexts have the attribute its value "
        "promotes most ({favourite}) as their answer.<br>"
        "Knockout <b>{knockout}</b>: {accuracy}"
    ): (
        "完整模型，种子 {seed}。<b>第 {layer} 层单元 {unit}</b> 激活最强的上下文"
        "（前一个 token、token → 答案 (a)）：{contexts}。"
        "它最强的 {k} 个上下文中，有 {hit_rate:.0%} 的答案正是其值向量最提升的属性"
        "（{favourite}）。<br>"
        "消融 <b>{knockout}</b>：{accuracy}"
    ),
    # The checker (exercise: a patching hook): its cases, mistakes and success line.
    "batch 3, 5 positions, patch position 2": "批大小 3，5 个位置，修补位置 2",
    "batch 3, 4 positions, patch position 0 (the first)": "批大小 3，4 个位置，修补位置 0（第一个）",
    "batch 2, 6 positions, patch position 5 (the last)": "批大小 2，6 个位置，修补位置 5（最后一个）",
    "batch 1, 1 position, patch position 0": "批大小 1，1 个位置，修补位置 0",
    "{case}: your hook returned a {kind}; a forward hook's return value replaces the "
    "module's output, here one tensor (B, T, h): return the patched tensor itself (return "
    "patched, not (patched,))": (
        "{case}：你的钩子返回了一个 {kind}；前向钩子的返回值会替换模块的输出，而这里的输出是一个张量 (B, T, h)：请直接返回修补后的张量（return patched，而不是 (patched,)）"
    ),
    "a patch only copies values: look for a tensor made with torch.empty and not filled": (
        "修补只是复制数值：找找有没有用 torch.empty 造出来却没有填满的张量"
    ),
    "a function make_hook(clean_output, position)": ("一个函数 make_hook(clean_output, position)"),
    "make_hook must be the factory make_hook(clean_output, position) that returns a hook; "
    "this function takes three arguments, like the hook itself (module, args, output): "
    "pass make_hook, not make_hook(clean_output, position)": (
        "make_hook 应当是返回钩子的工厂函数 make_hook(clean_output, position)；这个函数接收三个参数，像是钩子本身 (module, args, output)：请传入 make_hook，而不是 make_hook(clean_output, position)"
    ),
    "your hook calls the checker's own reference, patched_output; write the patch yourself": (
        "你的钩子调用了检查器自己的参考实现 patched_output；请自己写出修补"
    ),
    (
        "{case}: make_hook returned {type}, expected a hook function hook(module, args, output)"
    ): "{case}：make_hook 返回了 {type}，应当返回一个钩子函数 hook(module, args, output)",
    (
        "{case}: your hook changed the cached clean output in place; write into the module's "
        "output (or a copy of it), never into the cache"
    ): ("{case}：你的钩子原地改动了缓存的干净输出；应写入模块的输出（或它的副本），不要写入缓存"),
    (
        "{case}: the output is unchanged; a forward hook's return value replaces the output, so "
        "return the patched tensor (returning None keeps the output as it was)"
    ): (
        "{case}：输出没有变化；前向钩子的返回值会替换模块的输出，所以要返回修补后的张量"
        "（返回 None 则输出保持原样）"
    ),
    "every position was patched: the whole clean output came back, not just one position": (
        "所有位置都被修补了：换回来的是整个干净输出，而不只是一个位置"
    ),
    (
        "the batch dimension was patched (output[position]); the position is the second "
        "dimension, output[:, position]"
    ): "修补的是批维度（output[position]）；位置是第二个维度，应为 output[:, position]",
    "the wrong position was patched ({other}, not {position}): an off-by-one?": (
        "修补错了位置（{other}，而不是 {position}）：是不是差了一位？"
    ),
    "your hook patches exactly one position, on {n} cases.": (
        "你写的钩子在全部 {n} 个用例上都只修补了一个位置。"
    ),
}
