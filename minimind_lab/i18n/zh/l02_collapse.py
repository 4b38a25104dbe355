"""Chinese for l02_collapse (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {
    # plots/l02_collapse.py: the warped grids
    "input grid": "输入网格",
    "A linear map keeps lines straight; every activation bends them, ReLU "
    "flattens regions, GELU and SiLU fold the plane over (black)": (
        "线性映射让直线保持笔直；每种激活函数都会把线弯折，ReLU 压平区域，"
        "GELU 和 SiLU 把平面翻折过来（黑点）"
    ),
    "no activation (linear)": "无激活函数（线性）",
    "first coordinate": "第一个坐标",
    "second coordinate": "第二个坐标",
    "folded": "翻折",
    "{name}\nfolded {folded:.0%}, flattened {flat:.0%}": (
        "{name}\n翻折 {folded:.0%}，压平 {flat:.0%}"
    ),
    # plots/l02_collapse.py: the decision regions
    "Without an activation the boundary is one straight line; with one it winds between the arms": (
        "没有激活函数，边界是一条直线；有了激活函数，边界在两臂之间蜿蜒"
    ),
    "class {label}": "类别 {label}",
    "{name}: {accuracy:.1%} correct": "{name}：准确率 {accuracy:.1%}",
    # plots/l02_collapse.py: loss curves and rank
    "Without an activation the loss stalls; with one it falls far below": (
        "没有激活函数，损失停滞不前；有了激活函数，损失降得低得多"
    ),
    "training step": "训练步数",
    "cross-entropy loss": "交叉熵损失",
    "measured rank": "实测的秩",
    "Wider than h = {h} adds no rank": "宽度超过 h = {h} 不会增加秩",
    "width m (log scale)": "宽度 m（对数刻度）",
    "rank of W₂·W₁": "W₂·W₁ 的秩",
    # lessons/l02_collapse.py: the tables the lesson prints
    "largest bend": "最大弯曲度",
    "lines bent": "弯曲的线",
    "area scale": "面积缩放",
    "flat": "压平",
    "{lo:>8.2f} to {hi:<5.2f}": "{lo:>8.2f} 到 {hi:<5.2f}",
    "accuracy": "准确率",
    "final loss": "最终损失",
    "model": "模型",
    "params": "参数量",
    "seed {seed}": "种子 {seed}",
    "mean": "平均",
    "single layer": "单层",
    "none": "无",
    "best straight line": "最好的直线",
    "floor: lowest linear loss": "下限：线性模型的最低损失",
    # widgets/l02_collapse.py
    "no activation": "无激活函数",
    "Grid through Linear → {label} → Linear": "网格经过 Linear → {label} → Linear",
    "{n}-layer stack, {label}: {accuracy:.1%} correct": (
        "{n} 层堆叠，{label}：准确率 {accuracy:.1%}"
    ),
    "<b>{label}</b>: the grid is folded over at {folded:.0%} of its points and "
    "flattened at {flat:.0%}. Stack: training accuracy {accuracy:.3f}, final "
    "loss {loss:.3f}. A single linear classifier reaches training accuracy "
    "{linear:.3f} on the same points.": (
        "<b>{label}</b>：网格上有 {folded:.0%} 的点被翻折，{flat:.0%} 的点被压平。"
        "堆叠：训练准确率 {accuracy:.3f}，最终损失 {loss:.3f}。"
        "单个线性分类器在同样的点上的训练准确率为 {linear:.3f}。"
    ),
    "activation": "激活函数",
    "What the activation adds to a stack of linear layers": "激活函数给一叠线性层带来了什么",
    # exercises/collapse.py
    "the collapsed layer matches W2·W1 and W2·b1 + b2 on {n} pairs of layers.": (
        "在全部 {n} 对层上，坍缩后的层都与 W2·W1 和 W2·b1 + b2 一致。"
    ),
    # exercises/collapse.py: the cases, the known mistakes and the checker's own messages
    "square layers 8 → 8 → 8": "方形的层 8 → 8 → 8",
    "a wide middle 8 → 32 → 8": "中间层很宽 8 → 32 → 8",
    "rectangular layers 4 → 6 → 3": "非方形的层 4 → 6 → 3",
    "the first layer without a bias (bias=None)": "第一层没有偏置（bias=None）",
    "the second layer without a bias (bias=None)": "第二层没有偏置（bias=None）",
    "float64 layers 3 → 5 → 2": "float64 的层 3 → 5 → 2",
    "a function fn(first, second) of two nn.Linear layers": (
        "一个接收两个 nn.Linear 层的函数 fn(first, second)"
    ),
    "a tensor made with torch.empty holds whatever was in memory; a missing bias counts as "
    "zeros (torch.zeros)": (
        "用 torch.empty 造的张量里是内存中原有的任意值；缺失的偏置应当算作全零（torch.zeros）"
    ),
    "your code calls ml.collapse_linear (or the checker's reference), the package's own "
    "answer; multiply the layers out yourself": (
        "你的代码调用了 ml.collapse_linear（或检查器的参考实现），那是本包自己的答案；请自己把两层乘出来"
    ),
    "the product is in the wrong order: W1·W2; the layer applied first stands on "
    "the right, W = W2·W1": "乘积的顺序反了：W1·W2；先作用的层应放在右边，W = W2·W1",
    "the weight is W1·W2ᵀ-like (transposed); nn.Linear stores (out, in), so W = W2·W1": (
        "权重像是 W1·W2ᵀ（转置了）；nn.Linear 存的是 (out, in)，所以 W = W2·W1"
    ),
    "bias is b1 + b2: b1 must pass through the second layer's weight, W2·b1 + b2": (
        "偏置是 b1 + b2：b1 必须经过第二层的权重，应为 W2·b1 + b2"
    ),
    "bias is b2 only: W2·b1 is missing (the first layer's bias goes through the "
    "second layer's weight)": "偏置只有 b2：缺了 W2·b1（第一层的偏置要经过第二层的权重）",
    "bias is W2·b1 only: the second layer's own bias b2 is missing": (
        "偏置只有 W2·b1：缺了第二层自己的偏置 b2"
    ),
    "{case}: your function returned a {kind}; expected an nn.Linear or a (weight, bias) "
    "pair": "{case}：你的函数返回了 {kind}；应返回 nn.Linear 或 (weight, bias) 二元组",
    "{case}: your layer has no bias; the collapsed bias is W2·b1 + b2, which is "
    "not zero here": "{case}：你的层没有偏置；坍缩后的偏置是 W2·b1 + b2，在这里不为零",
}
