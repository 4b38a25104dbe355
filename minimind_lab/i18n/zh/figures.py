"""Chinese for the figures' captions and the README gallery (``minimind_lab.figures``)."""

ZH: dict[str, str] = {
    # The README gallery.
    "## Figures": "## 图集",
    "Every file in `{folder}/` is drawn by the same plot function the lesson notebook calls;\n"
    "`python -m minimind_lab.figures{option}` regenerates them all in about half a minute on a "
    "2-core CPU, most of it training lesson 08's models (PNG at {dpi} dpi for slides, SVG for "
    "the web; `--only NAME`, `--list`), and\n`tests/test_figures.py` fails when a committed "
    "figure is out of date.": (
        "`{folder}/` 里的每一张图都由课程 notebook 调用的同一个绘图函数画出；\n"
        "`python -m minimind_lab.figures{option}` 在 2 核 CPU 上约半分钟即可全部重新生成，"
        "大部分时间花在训练第 08 课的模型上（PNG 为 {dpi} dpi，用于幻灯片；SVG 用于网页；"
        "可用 `--only NAME`、`--list`）。\n提交的图一旦过时，`tests/test_figures.py` 就会失败。"
    ),
    "### Lesson {number}": "### 第 {number} 课",
    ": {title}": " · {title}",
    "**`{name}`**: {caption} ([SVG]({folder}/{name}.svg); drawn by `{function}`)": (
        "**`{name}`**：{caption}（[SVG]({folder}/{name}.svg)；由 `{function}` 绘制）"
    ),
    # Panel titles a builder writes itself.
    "{name}: closed {before:.0%} → {after:.0%}": "{name}：压住 {before:.0%} → {after:.0%}",
    "Held-out accuracy, seed {seed}, {steps} steps at lr {lr:g}": (
        "留出测试集准确率：种子 {seed}，学习率 {lr:g} 下训练 {steps} 步"
    ),
    "Seed {seed}, subject swapped: share of the logit difference restored": (
        "种子 {seed}，替换主语：恢复的 logit 差比例"
    ),
    # Lesson titles (gallery headings).
    "Attention vs MLP: who does what": "注意力与 MLP：各司何职",
    "Linear collapse: why the activation is the point": "线性坍缩：激活函数为何是关键",
    "Activation curves and their derivatives": "激活函数曲线及其导数",
    "The plain FFN: up, activate, down": "朴素 FFN：升维、激活、降维",
    "Gating: from plain FFN to SwiGLU": "门控：从朴素 FFN 到 SwiGLU",
    "The 8/3 derivation": "8/3 的由来",
    "MiniMind's FeedForward, line by line": "逐行读懂 MiniMind 的 FeedForward",
    "What the MLP buys: a tiny MiniMind, trained": "MLP 换来了什么：训练一个迷你 MiniMind",
    "How much does an MLP hold? Bits per parameter, with and without it": (
        "MLP 能装下多少知识？有无 MLP 时的每参数比特数"
    ),
    "When every token shares one MLP: toward MoE": "当所有 token 共用一个 MLP：走向 MoE",
    # Captions (one per figure, as registered in minimind_lab/figures/builders.py).
    "Jacobian block norms ‖∂y_i/∂x_j‖ of a tiny block's attention and MLP: attention fills the "
    "lower triangle (it mixes positions), the MLP only the diagonal": (
        "一个小型 Transformer 块中注意力与 MLP 的雅可比矩阵分块范数 ‖∂y_i/∂x_j‖：注意力填满下三角"
        "（它在位置之间混合信息），MLP 只占对角线"
    ),
    "One grid pushed through the same layers with no activation (a linear map: rotate, scale, "
    "shear) and with ReLU (bends lines, flattens regions), GELU and SiLU (bend lines, fold the "
    "plane over: black dots mark where the map's area scale is negative)": (
        "同一张网格穿过同样的几层：不加激活函数时是线性映射（旋转、缩放、剪切）；加 ReLU 时直线被"
        "折弯、区域被压平；加 GELU 和 SiLU 时直线被折弯、平面被翻折（黑点标出映射面积缩放为负之处）"
    ),
    "Decision regions on the spirals data: a deep stack with no activation draws one straight "
    "boundary; the same stack with ReLU fits the spirals": (
        "螺旋数据上的决策区域：不加激活函数的深层堆叠只能画出一条直线边界；同样的堆叠加上 ReLU "
        "就能拟合螺旋"
    ),
    "ReLU, GELU, SiLU, sigmoid and tanh on one axis; an inset zooms on the dips and marks the "
    "minima of SiLU (≈ −0.278 at x ≈ −1.278) and GELU (≈ −0.170 at x ≈ −0.752)": (
        "ReLU、GELU、SiLU、sigmoid 与 tanh 画在同一坐标系中；插图放大负半轴的凹陷，标出 SiLU 的"
        "最小值（x ≈ −1.278 处 ≈ −0.278）和 GELU 的最小值（x ≈ −0.752 处 ≈ −0.170）"
    ),
    "The derivatives of the same activations (from autograd): ReLU's is 0 or 1, sigmoid's never "
    "exceeds 0.25": (
        "同一组激活函数的导数（由自动求导算出）：ReLU 的导数只取 0 或 1，"
        "sigmoid 的导数从不超过 0.25"
    ),
    "Swish_β(x) = x·σ(βx) for several β: β → 0 gives x/2, β = 1 is SiLU, β → ∞ gives ReLU": (
        "不同 β 下的 Swish_β(x) = x·σ(βx)：β → 0 时趋于 x/2，β = 1 即 SiLU，β → ∞ 时趋于 ReLU"
    ),
    "Final MSE of a plain FFN on lesson 04's wave task against its width m/h (½ to 8, 64 to 1,024 "
    "weights), five activations, median and range of 3 seeds: lower at m/h = 8 than at ½ for "
    "every activation (at 16× the weights; lesson 04's control compares equal weights)": (
        "朴素 FFN 在第 04 课波形任务上的最终 MSE 随宽度 m/h（½ 到 8，权重 64 到 1,024 个）的变化，"
        "五种激活函数，3 个随机种子的中位数与范围：每种激活函数在 m/h = 8 时都低于 ½ 时"
        "（权重多 16 倍；第 04 课的对照实验在等权重下比较）"
    ),
    "Plain FFN (h → 4h → h) beside SwiGLU (gate and up, h → m, multiplied element-wise, then "
    "m → h), with the tensor shape on every arrow": (
        "朴素 FFN（h → 4h → h）与 SwiGLU（门控与上投影各为 h → m，逐元素相乘，再 m → h）并排对照，"
        "每个箭头上标出张量形状"
    ),
    "Gate values act(gate_proj(x)) of the GLU, ReGLU, GEGLU and SwiGLU FFNs of the equal-budget "
    "race, trained (solid) against the same networks untrained (dashed): how many sit near zero "
    "(closed, shaded) before and after training": (
        "等参数量比赛中 GLU、ReGLU、GEGLU 与 SwiGLU 各 FFN 的门控值 act(gate_proj(x))：训练后"
        "（实线）对比同一网络训练前（虚线），训练前后各有多少落在零附近（关闭，阴影区）"
    ),
    "Parameters of a plain and a gated FFN, counted on the modules at every width m, against "
    "m/h: the gated FFN at m = 8h/3 weighs what the plain one does at 4h; real models sit near "
    "the crossing (an inset zooms in on the ones it covers)": (
        "朴素 FFN 与门控 FFN 的参数量（在每个宽度 m 上直接数模块）随 m/h 的变化：门控 FFN 在 "
        "m = 8h/3 时与朴素 FFN 在 4h 时一样重；真实模型都落在交点附近（插图放大了其中几个）"
    ),
    "Held-out accuracy per kind of a tiny MiniMind2 with MLPs, without them (same non-embedding "
    "parameters, twice as wide) and without attention, after 200 steps at one learning rate "
    "(3e-3); seed 0 only (the lesson shows 3 seeds and a learning-rate sweep): attention-only "
    "copies as well but answers fewer of the facts": (
        "迷你 MiniMind2 在三种配置下各类任务的留出测试集准确率：带 MLP、去掉 MLP（非嵌入参数量相同，"
        "宽一倍）、去掉注意力；学习率 3e-3 训练 200 步，仅种子 0"
        "（课程中展示 3 个种子与学习率扫描）："
        "只有注意力的模型复制得一样好，但答对的事实更少"
    ),
    "Activation patching in the trained full model (seed 0, subject swapped): the share of the "
    "logit difference restored by putting back one attention or MLP output at one position; "
    "only outputs at the relation, where the answer is read, bring it back": (
        "在训练好的完整模型中做激活修补（种子 0，替换主语）："
        "在某个位置放回一个注意力或 MLP 的输出，"
        "能恢复多少 logit 差；只有关系词位置（读出答案之处）的输出能把它找回来"
    ),
    "Facts answered (recall and fetch, held out) after 200 steps against the peak learning rate, "
    "3 seeds, for the full model, attention-only at twice the width and at the same width (8 "
    "layers), a plain MLP and a frozen random MLP, all with the same non-embedding parameters; "
    "read from the lesson's stored sweep": (
        "训练 200 步后答对的事实比例（事实回忆与取回，留出测试集）随峰值学习率的变化，3 个种子：完整"
        "模型、两倍宽与同等宽度（8 层）的纯注意力模型、朴素 MLP、冻结的随机 MLP，非嵌入参数量全部"
        "相同；数据取自本课保存的扫描结果"
    ),
    "Bits held against parameters at 100 and 1,000 exposures per fact, MiniMind2 models of "
    "one and two blocks in six kinds (each at its own best learning rate, 3 seeds, stored "
    "sweep), beside the paper's 2 bits per parameter": (
        "每条事实曝光 100 次与 1,000 次时，所存比特数随参数量的变化：一个和两个块的 MiniMind2 "
        "模型共六种（各自用最佳学习率，3 个种子，取自保存的扫描结果），旁边是论文的每参数 2 比特"
    ),
    "Accuracy per fact against exposures at h = 12 (stored sweep, each kind at its own best "
    "learning rate, 3 seeds; the seeds' range shaded)": (
        "h = 12 时每条事实的准确率随曝光次数的变化（保存的扫描结果，每种模型用各自的最佳学习率，"
        "3 个种子；阴影为种子间的范围）"
    ),
    "A batch of tokens of three kinds routed by a softmax router to 2 of 4 experts: which expert "
    "each token goes to, and with what weight": (
        "一批三类 token 由 softmax 路由器分配到 4 个专家中的 2 个：每个 token 去往哪个专家、"
        "权重多大"
    ),
}
