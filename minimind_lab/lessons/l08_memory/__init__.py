"""Lesson 08's experiment: what the MLP buys in a tiny MiniMind trained on a task with facts.

The task (``FactTask``, ``make_corpus``) mixes three kinds of question in one short sequence, and
labels every position with the kind of question its next token answers:

* **recall** (事实补全): ``s r → f[s, r]``, a fact from a fixed table that only weights can hold;
* **copy**: ``M x … M → x``, a token from earlier in the context that only attention can fetch;
* **fetch**: ``it r → f[s, r]`` for the sequence's subject ``s`` seen several tokens earlier:
  attention must bring the subject to the relation, and then the fact must be looked up.

Three MiniMind2-layout models (``model_config``) with the same number of non-embedding parameters
(full; attention-only, twice as wide; MLP-only) are trained by ``train_model`` (minibatch Adam on
the answer positions, seeded, on a fixed two threads, cached). The analyses read a trained model:
``knockout_accuracies`` (消融 ablation with forward hooks), ``activation_patching`` (激活修补) and
``key_value_reading`` (键值记忆); ``corrupt_subjects``, ``cache_outputs`` and ``restored_logits``
are the steps of the patching. For a learner's own checkpoint, ``sample_probe`` (text the model
writes itself) and ``next_token_probe`` (text from its tokenizer) make a corpus of running text.
Everything here computes; ``plots/l08_memory.py`` draws.

One module per section of the lesson: ``task``, ``models``, ``training``, ``evaluation``
(accuracy and the hooks that replace a sublayer's output), ``knockout``, ``patching``,
``key_value``, ``induction`` (the copy task's attention patterns), ``own_model``, ``tables``
(the display-width helpers its printed tables use), and ``sweep`` (the stored learning-rate and
step sweeps, written by ``python -m minimind_lab.lessons.l08_memory sweep``).
"""

from . import (
    evaluation,
    grid,
    induction,
    key_value,
    knockout,
    models,
    own_model,
    patching,
    sweep,
    tables,
    task,
    training,
)
from .evaluation import *  # noqa: F403
from .grid import *  # noqa: F403
from .induction import *  # noqa: F403
from .key_value import *  # noqa: F403
from .knockout import *  # noqa: F403
from .models import *  # noqa: F403
from .own_model import *  # noqa: F403
from .patching import *  # noqa: F403
from .sweep import *  # noqa: F403
from .tables import *  # noqa: F403
from .task import *  # noqa: F403
from .training import *  # noqa: F403

__all__ = [
    name
    for module in (
        task,
        models,
        training,
        evaluation,
        knockout,
        patching,
        key_value,
        own_model,
        sweep,
        grid,
        induction,
        tables,
    )
    for name in module.__all__
]
