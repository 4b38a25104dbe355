"""Lesson 08's machinery: the corpus, the three models, training, the analyses, plots, widget.

Most tests use ``TINY``, a task and models small enough to train in a fraction of a second; only
the parameter counts and the widget use the lesson's own ``SETUP``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import nbformat
import pytest
import torch
from matplotlib.figure import Figure

import minimind_lab as ml
from minimind_lab._threads import fixed_threads
from minimind_lab.i18n import language
from minimind_lab.i18n.table import display_width
from minimind_lab.lessons import l08
from minimind_lab.widgets import WIDGET_REGISTRY

TINY = l08.Setup(
    n_subjects=4, n_relations=3, n_attributes=4, n_noise=4, n_fill=1, hidden_size=16,
    intermediate_size=48, num_attention_heads=2, num_key_value_heads=1,
    attention_only_hidden_size=32, mlp_only_intermediate_size=64, steps=6, long_steps=8,
    batch_size=8, eval_size=60, patch_size=60, seeds=(0, 1), top_k=5,
)  # fmt: skip


@pytest.fixture(scope="module")
def tiny_task() -> l08.FactTask:
    return l08.fact_task(TINY)


@pytest.fixture(scope="module")
def tiny_corpus(tiny_task: l08.FactTask) -> l08.Corpus:
    return l08.make_corpus(tiny_task, 200, seed=3)


@pytest.fixture(scope="module")
def tiny_run() -> l08.TrainedModel:
    return l08.train_model("full", 0, setup=TINY)


# --- setup and corpus ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_relations": 1}, "n_relations must be at least 2"),
        ({"lr": 0.0}, "lr must be a finite number > 0"),
        ({"lr": float("nan")}, "lr must be a finite number > 0"),
        ({"seeds": ()}, "seeds must be a non-empty tuple"),
        ({"seeds": [0, 1]}, "seeds must be a non-empty tuple"),
        ({"steps": 0}, "steps must be a positive integer"),
        ({"training_threads": 0}, "training_threads must be a positive integer"),
        ({"intermediate_size": 2.5}, "intermediate_size must be a positive integer"),
        ({"n_fill": -1}, "n_fill must be a non-negative integer"),
        ({"patch_size": 61}, "patch_size must be at most eval_size=60"),
    ],
)
def test_setup_refuses_bad_values(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TINY, **change)


def test_vocabulary_layout(tiny_task: l08.FactTask) -> None:
    names = tiny_task.token_names()
    assert len(names) == tiny_task.vocab_size == 3 + 4 + 3 + 4 + 4
    assert names[: tiny_task.subject0 + 1] == ["<bos>", "M", "it", "s0"]
    assert names[tiny_task.relation0] == "r0" and names[tiny_task.attribute0] == "a0"
    assert names[tiny_task.noise0] == "n0" and names[-1] == "n3"
    assert tiny_task.facts.shape == (4, 3) and tiny_task.n_facts == 12
    again = l08.fact_task(TINY)
    assert torch.equal(again.facts, tiny_task.facts)  # the table depends on fact_seed only
    other = l08.fact_task(dataclasses.replace(TINY, fact_seed=1))
    assert not torch.equal(other.facts, tiny_task.facts)


def test_every_sequence_asks_each_kind_once_as_labelled(
    tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    ids, kinds = tiny_corpus.ids, tiny_corpus.kinds
    n = len(tiny_corpus)
    assert ids.shape == kinds.shape == (n, tiny_task.seq_len)
    assert (ids[:, 0] == tiny_task.BOS).all() and (ids[:, 1:] != tiny_task.BOS).all()
    rows = torch.arange(n)
    at = {}
    for code, kind in enumerate(l08.KINDS):
        assert ((kinds == code).sum(1) == 1).all(), kind
        at[kind] = (kinds == code).float().argmax(1)
    assert ((kinds >= 0).sum(1) == 3).all()
    subject_at = tiny_task.is_subject(ids).float().argmax(1)
    assert (tiny_task.is_subject(ids).sum(1) == 1).all()
    # recall: the subject right before the relation; the answer is their fact
    assert (subject_at == at["recall"] - 1).all()
    recall_answer = tiny_task.answer(ids[rows, subject_at], ids[rows, at["recall"]])
    assert torch.equal(ids[rows, at["recall"] + 1], recall_answer)
    # copy: two markers; the graded one is the second, and the answer follows the first too
    assert ((ids == tiny_task.MARK).sum(1) == 2).all()
    first = (ids == tiny_task.MARK).float().argmax(1)
    assert (at["copy"] > first).all() and (ids[rows, at["copy"]] == tiny_task.MARK).all()
    assert torch.equal(ids[rows, at["copy"] + 1], ids[rows, first + 1])
    # fetch: "it" then another relation, after the subject; the answer is the subject's fact
    assert (ids[rows, at["fetch"] - 1] == tiny_task.IT).all() and (at["fetch"] > subject_at).all()
    assert (ids[rows, at["fetch"]] != ids[rows, at["recall"]]).all()
    fetch_answer = tiny_task.answer(ids[rows, subject_at], ids[rows, at["fetch"]])
    assert torch.equal(ids[rows, at["fetch"] + 1], fetch_answer)


def test_corpus_is_seeded_and_leaves_the_global_rng_alone(tiny_task: l08.FactTask) -> None:
    torch.manual_seed(11)
    state = torch.get_rng_state()
    a, b = l08.make_corpus(tiny_task, 50, seed=5), l08.make_corpus(tiny_task, 50, seed=5)
    assert torch.equal(a.ids, b.ids) and torch.equal(a.kinds, b.kinds)
    assert not torch.equal(a.ids, l08.make_corpus(tiny_task, 50, seed=6).ids)
    assert torch.equal(torch.get_rng_state(), state)


def test_corpus_rejects_bad_arguments(tiny_task: l08.FactTask) -> None:
    with pytest.raises(ValueError, match="n must be a positive integer"):
        l08.make_corpus(tiny_task, 0, seed=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        l08.make_corpus(tiny_task, 5, seed=-1)
    with pytest.raises(ValueError, match=r"ids must be a \(N, T\) tensor"):
        l08.Corpus(torch.zeros(5, dtype=torch.long), torch.zeros(5, dtype=torch.long))
    with pytest.raises(ValueError, match="kinds must have the shape of ids"):
        l08.Corpus(torch.zeros(2, 4, dtype=torch.long), torch.zeros(2, 3, dtype=torch.long))
    with pytest.raises(ValueError, match="kinds must be -1 or a code below 3"):
        l08.Corpus(torch.zeros(2, 4, dtype=torch.long), torch.full((2, 4), 3))


def test_sequence_table_reads_one_row(tiny_task: l08.FactTask, tiny_corpus: l08.Corpus) -> None:
    table = l08.sequence_table(tiny_task, tiny_corpus, row=2)
    names = tiny_task.token_names()
    assert [t[1] for t in table] == [names[i] for i in tiny_corpus.ids[2].tolist()]
    assert [t[2] for t in table[:-1]] == [t[1] for t in table[1:]] and table[-1][2] == ""
    assert sorted(t[3] for t in table if t[3]) == sorted(l08.KINDS)
    with pytest.raises(ValueError, match="row must be below 200"):
        l08.sequence_table(tiny_task, tiny_corpus, row=200)


def test_relation_only_accuracy_is_the_best_guess_without_the_subject(
    tiny_task: l08.FactTask,
) -> None:
    facts = tiny_task.facts
    best = 0
    for r in range(facts.shape[1]):
        column = facts[:, r].tolist()
        best += max(column.count(a) for a in range(tiny_task.n_attributes))
    assert l08.relation_only_accuracy(tiny_task) == best / facts.numel()
    assert l08.relation_only_accuracy(l08.fact_task()) == pytest.approx(0.1484, abs=1e-4)


# --- models --------------------------------------------------------------------------------------


def test_the_lessons_three_models_have_equal_non_embedding_parameters() -> None:
    task = l08.fact_task()
    counts = {}
    for name in l08.MODEL_NAMES:
        model = l08.build_model(name, 0, task)
        total, inner = l08.parameter_counts(model)
        assert total - inner == model.model.embed_tokens.weight.numel()
        counts[name] = inner
    assert counts == {"full": 98_624, "attention-only": 98_688, "MLP-only": 98_496}
    full = l08.build_model("full", 0, task)
    assert full.config.intermediate_size == 192 and full.config.version == "minimind2"
    assert l08.build_model("attention-only", 0, task).model.layers[0].mlp is None
    assert l08.build_model("MLP-only", 0, task).model.layers[0].self_attn is None


def test_build_model_is_seeded_and_leaves_the_global_rng_alone(tiny_task: l08.FactTask) -> None:
    torch.manual_seed(123)
    state = torch.get_rng_state()
    a = l08.build_model("full", 4, tiny_task, TINY)
    b = l08.build_model("full", 4, tiny_task, TINY)
    assert torch.equal(torch.get_rng_state(), state)
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters(), strict=True))
    with pytest.raises(ValueError, match="unknown model 'mlp-only'"):
        l08.model_config("mlp-only", tiny_task, TINY)
    with pytest.raises(ValueError, match="expected a MiniMindForCausalLM"):
        l08.parameter_counts(torch.nn.Linear(2, 2))


# --- training ------------------------------------------------------------------------------------


def test_training_numbers_do_not_depend_on_the_callers_thread_count() -> None:
    # train_and_evaluate trains on setup.training_threads threads whatever the caller set, so a
    # learner's machine with more cores gets the stored numbers. The lesson's sizes: at TINY's,
    # torch does not split the work, and the caller's count would not show.
    before = torch.get_num_threads()
    try:
        runs = []
        for threads in (1, 3):
            torch.set_num_threads(threads)
            runs.append(l08.train_and_evaluate("full", 0, 6))
            assert torch.get_num_threads() == threads
    finally:
        torch.set_num_threads(before)
    assert runs[0].log.losses == runs[1].log.losses
    assert runs[0].accuracy == runs[1].accuracy


def test_fixed_threads_refuses_a_bad_count() -> None:
    with pytest.raises(ValueError, match="positive integer, got 0"):
        with fixed_threads(0):
            pass


def test_train_model_trains_once_hands_out_copies_and_restores_rng_and_threads() -> None:
    setup = dataclasses.replace(TINY, fact_seed=7)  # a cache entry of its own
    torch.manual_seed(5)
    state, threads = torch.get_rng_state(), torch.get_num_threads()
    before = l08.training_run_count()
    first = l08.train_model("attention-only", 1, setup=setup)
    assert l08.training_run_count() == before + 1
    assert torch.equal(torch.get_rng_state(), state) and torch.get_num_threads() == threads
    second = l08.train_model("attention-only", 1, setup=setup)
    assert l08.training_run_count() == before + 1  # a cache hit
    assert second.model is not first.model and second.accuracy == first.accuracy
    with torch.no_grad():
        first.model.lm_head.weight.zero_()
    third = l08.train_model("attention-only", 1, setup=setup)
    assert third.model.lm_head.weight.abs().sum() > 0  # the cache kept its own model
    assert len(first.log.losses) == setup.steps and set(first.accuracy) == set(l08.KINDS)
    assert all(len(v) == setup.steps for v in first.log.batch_accuracy.values())
    longer = l08.train_model("attention-only", 1, steps=setup.long_steps, setup=setup)
    assert len(longer.log.losses) == setup.long_steps and l08.training_run_count() == before + 2


def test_training_lowers_the_loss_on_the_answers(tiny_run: l08.TrainedModel) -> None:
    longer = l08.train_model("full", 0, steps=60, setup=TINY)
    assert longer.log.losses[-1] < 0.5 * longer.log.losses[0]
    assert all(0.0 <= v <= 1.0 for v in tiny_run.accuracy.values())
    assert not tiny_run.model.training  # handed back in eval mode


def test_train_model_and_train_on_answers_refuse_bad_input(tiny_task: l08.FactTask) -> None:
    with pytest.raises(ValueError, match="unknown model 'tiny'"):
        l08.train_model("tiny", 0, setup=TINY)
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        l08.train_model("full", 0, steps=0, setup=TINY)
    with pytest.raises(ValueError, match="setup must be an l08.Setup"):
        l08.train_model("full", 0, setup={"steps": 3})
    model = l08.build_model("full", 0, tiny_task, TINY)
    corpus = l08.make_corpus(tiny_task, 10, seed=0)
    with pytest.raises(ValueError, match="corpus has 10 sequences; 3·4 needed"):
        l08.train_on_answers(model, corpus, steps=3, batch_size=4, lr=1e-3)


def test_learning_curve_averages_blocks_of_steps(tiny_run: l08.TrainedModel) -> None:
    steps, values = l08.learning_curve(tiny_run.log, "recall", window=2)
    raw = tiny_run.log.batch_accuracy["recall"]
    assert steps == [2, 4, 6]
    assert values == pytest.approx([(raw[0] + raw[1]) / 2, (raw[2] + raw[3]) / 2, sum(raw[4:]) / 2])
    with pytest.raises(ValueError, match="unknown kind 'copies'"):
        l08.learning_curve(tiny_run.log, "copies")


def test_printed_labels_and_lines_follow_the_language() -> None:
    """The notebook's tables and lines: kinds, models and knockouts in Chinese in the Chinese
    edition (the English unchanged), items joined by the language's comma, a column of labels
    padded by display width."""
    assert [l08.kind_label(k) for k in (*l08.KINDS, *l08.NEXT_TOKEN)] == [
        "recall", "copy", "fetch", "next token",
    ]  # fmt: skip
    assert l08.listing(["recall 0.996", "copy 1.000"]) == "recall 0.996, copy 1.000"
    assert l08.listing(["a", "b"], sep=";") == "a; b"
    with language("zh"):
        kinds = [l08.kind_label(k) for k in (*l08.KINDS, *l08.NEXT_TOKEN)]
        assert kinds == ["回忆", "复制", "取回", "下一个 token"]
        assert l08.model_label("attention-only") == "仅注意力"
        assert l08.knockout_label("attention 1") == "注意力 1"
        assert l08.listing(["回忆 0.996", "复制 1.000"]) == "回忆 0.996，复制 1.000"
        assert l08.listing(["a", "b"], sep=";") == "a；b"
        labels = l08.padded(map(l08.model_label, l08.ALL_MODEL_NAMES))
    assert len({display_width(label) for label in labels}) == 1  # one column after them
    assert [label.rstrip() for label in labels][:2] == ["完整模型", "仅注意力"]
    assert l08.padded(["ab", "a"], align=">") == ["ab", " a"] and l08.padded([]) == []
    with pytest.raises(ValueError, match="sep must be one of"):
        l08.listing(["a"], sep="/")


def test_accuracy_table_and_spread(tiny_run: l08.TrainedModel) -> None:
    other = l08.train_model("full", 1, setup=TINY)
    table = l08.accuracy_table([tiny_run, other])
    assert table["full"]["copy"] == [tiny_run.accuracy["copy"], other.accuracy["copy"]]
    assert l08.spread([0.2, 0.4, 0.9]) == pytest.approx((0.5, 0.2, 0.9))
    with pytest.raises(ValueError, match="at least one"):
        l08.accuracy_table([])
    with pytest.raises(ValueError, match="at least one"):
        l08.spread([])


def test_accuracy_per_kind_counts_the_graded_positions(
    tiny_run: l08.TrainedModel, tiny_corpus: l08.Corpus
) -> None:
    model = tiny_run.model
    with torch.no_grad():
        prediction = model(tiny_corpus.ids[:, :-1]).argmax(-1)
    kinds, targets = tiny_corpus.kinds[:, :-1], tiny_corpus.ids[:, 1:]
    expected = {
        k: (prediction[kinds == c] == targets[kinds == c]).float().mean().item()
        for c, k in enumerate(l08.KINDS)
    }
    assert l08.accuracy_per_kind(model, tiny_corpus) == pytest.approx(expected)
    no_copy = l08.Corpus(tiny_corpus.ids, tiny_corpus.kinds.masked_fill(tiny_corpus.kinds == 1, -1))
    with pytest.raises(ValueError, match="no graded position of kind 'copy'"):
        l08.accuracy_per_kind(model, no_copy)


# --- knockouts and patching ----------------------------------------------------------------------


def test_zeroing_every_mlp_is_the_same_model_without_mlps(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    model = tiny_run.model
    config = l08.model_config("full", tiny_task, TINY).derive(use_mlp=False)
    bare = ml.MiniMindForCausalLM(config).eval()
    bare.load_state_dict(model.state_dict(), strict=False)  # the MLP weights have no place
    ids = tiny_corpus.ids[:, :-1]
    both = {("mlp", 0): torch.zeros_like, ("mlp", 1): torch.zeros_like}
    with torch.no_grad(), l08.replaced_outputs(model, both):
        zeroed = model(ids)
    with torch.no_grad():
        torch.testing.assert_close(zeroed, bare(ids))
        intact = model(ids)
    assert not torch.allclose(intact, zeroed)
    assert all(not m._forward_hooks for m in model.modules())  # the hooks came off
    table = l08.knockout_accuracies(model, tiny_corpus, {"none": [], "both": list(both)})
    assert table["none"] == l08.accuracy_per_kind(model, tiny_corpus)
    assert set(table) == {"none", "both"}


def test_replaced_outputs_removes_its_hooks_on_error_and_refuses_bad_targets(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask
) -> None:
    model = tiny_run.model
    with pytest.raises(RuntimeError, match="boom"):
        with l08.replaced_outputs(model, {("self_attn", 1): torch.zeros_like}):
            raise RuntimeError("boom")
    assert all(not m._forward_hooks for m in model.modules())
    with pytest.raises(ValueError, match="sublayer must be 'mlp' or 'self_attn'"):
        with l08.replaced_outputs(model, {("attention", 0): torch.zeros_like}):
            pass
    with pytest.raises(ValueError, match="layer must be an integer from 0 to 1, got 2"):
        with l08.replaced_outputs(model, {("mlp", 2): torch.zeros_like}):
            pass
    no_mlp = l08.build_model("attention-only", 0, tiny_task, TINY)
    with pytest.raises(ValueError, match="layer 0 of this model has no mlp"):
        with l08.replaced_outputs(no_mlp, {("mlp", 0): torch.zeros_like}):
            pass


def test_activation_patching_measures_what_it_says(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    results = l08.activation_patching(tiny_run.model, tiny_task, tiny_corpus, seed=1)
    assert set(results) == set(l08.SUBJECT_KINDS)
    for kind, r in results.items():
        assert r.kind == kind and 0 < r.n <= len(tiny_corpus)
        assert set(r.patched) == {(0, "subject"), (0, "last"), (1, "subject"), (1, "last"),
                                  ("all", "last")}  # fmt: skip
        assert set(r.hidden) == {(0, "subject"), (1, "subject"), (2, "subject")}
        # the last layer's MLP at the subject feeds nothing that reaches the answer
        assert r.patched[1, "subject"] == pytest.approx(r.p_corrupt, abs=1e-7)
        # the stream into layer 0 at the subject is the subject's embedding: all of it returns
        assert r.hidden[0, "subject"] == pytest.approx(r.p_clean, abs=1e-6)
        assert r.restored(0, "subject", site="hidden") == pytest.approx(1.0, abs=1e-4)
        # after the last layer nothing reads the subject's position any more
        assert r.hidden[2, "subject"] == pytest.approx(r.p_corrupt, abs=1e-7)
        with pytest.raises(ValueError, match="no mlp patch at"):
            r.restored(2, "last")
        with pytest.raises(ValueError, match="site must be .mlp. or .hidden. here"):
            r.restored(0, "last", site="attention")
    assert all(not m._forward_hooks for m in tiny_run.model.modules())
    no_subject = tiny_corpus.ids.clone()
    no_subject[tiny_task.is_subject(no_subject)] = tiny_task.noise0
    with pytest.raises(ValueError, match="exactly one subject"):
        l08.activation_patching(
            tiny_run.model, tiny_task, l08.Corpus(no_subject, tiny_corpus.kinds), seed=1
        )


def test_the_corruption_changes_the_subject_and_every_measured_answer_only(
    tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    c = l08.corrupt_subjects(tiny_task, tiny_corpus, seed=1)
    rows = torch.arange(len(tiny_corpus))
    changed = c.ids != c.corrupt
    assert (changed.sum(1) <= 1).all()  # nothing but the subject ever changes ...
    assert changed[rows, c.subject][c.usable].all()  # ... and on every measured row it does
    assert tiny_task.is_subject(c.corrupt[rows, c.subject]).all()
    for kind in l08.SUBJECT_KINDS:
        relation = c.ids[rows, c.last[kind]]
        assert torch.equal(c.answer[kind], tiny_corpus.ids[rows, c.last[kind] + 1])
        new_answer = tiny_task.answer(c.corrupt[rows, c.subject], relation)
        assert (new_answer[c.usable] != c.answer[kind][c.usable]).all()
    assert c.usable.float().mean() > 0.9
    again = l08.corrupt_subjects(tiny_task, tiny_corpus, seed=1)
    assert torch.equal(again.corrupt, c.corrupt)


def test_restoring_every_position_or_the_final_stream_gives_back_the_clean_run(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    model = tiny_run.model
    c = l08.corrupt_subjects(tiny_task, tiny_corpus, seed=1)
    sites = [("mlp", 0), ("mlp", 1), ("hidden", 0), ("hidden", 1), ("hidden", 2)]
    clean, clean_logits = l08.cache_outputs(model, c.ids, sites)
    everywhere = torch.ones_like(c.ids, dtype=torch.bool)
    for layer in range(3):  # the whole stream at any depth, at every position
        logits = l08.restored_logits(model, c.corrupt, clean, {("hidden", layer): everywhere})
        torch.testing.assert_close(logits, clean_logits, atol=1e-5, rtol=1e-5)
    for kind in l08.SUBJECT_KINDS:  # the final stream at the graded position decides the answer
        logits = l08.restored_logits(model, c.corrupt, clean, {("hidden", 2): c.last[kind]})
        p_clean = l08.answer_probability(clean_logits, c, kind)
        assert l08.answer_probability(logits, c, kind) == pytest.approx(p_clean, abs=1e-6)
    # one position off (the token after the subject) restores nothing of the embedding's swap
    logits = l08.restored_logits(model, c.corrupt, clean, {("hidden", 0): c.subject + 1})
    corrupt_logits = model(c.corrupt).detach()
    torch.testing.assert_close(logits, corrupt_logits, atol=1e-5, rtol=1e-5)
    with pytest.raises(ValueError, match="no clean output cached"):
        l08.restored_logits(model, c.corrupt, clean, {("mlp", 5): c.subject})
    with pytest.raises(ValueError, match="hidden-state layer must be an integer from 0"):
        l08.cache_outputs(model, c.ids, [("hidden", 3)])
    with pytest.raises(ValueError, match="site must be one of mlp, self_attn, hidden"):
        l08.cache_outputs(model, c.ids, [("attn", 0)])
    assert all(not m._forward_hooks for m in model.modules())


def test_restored_refuses_a_corruption_that_changed_nothing() -> None:
    flat = l08.PatchingResult("recall", 0.4, 0.4, {(0, "last"): 0.4}, n=10)
    with pytest.raises(ValueError, match="did not change p\\(answer\\) for recall"):
        flat.restored(0, "last")
    fine = l08.PatchingResult("recall", 0.9, 0.1, {(0, "last"): 0.5}, n=10)
    assert fine.restored(0, "last") == pytest.approx(0.5)


# --- key-value reading ---------------------------------------------------------------------------


def test_the_mlp_output_is_a_sum_of_value_vectors(
    tiny_run: l08.TrainedModel, tiny_corpus: l08.Corpus
) -> None:
    model = tiny_run.model
    ids = tiny_corpus.ids[:20, :-1]
    for layer in (0, 1):
        a, out = l08.mlp_coefficients(model, ids, layer)
        mlp = model.model.layers[layer].mlp
        assert a.shape == (20, ids.shape[1], 48) and out.shape == (20, ids.shape[1], 16)
        summed = sum(a[..., j, None] * mlp.down_proj.weight[:, j] for j in range(48))
        torch.testing.assert_close(out, summed, atol=1e-5, rtol=1e-5)
        logits = l08.value_logits(model, layer)
        expected = model.lm_head.weight @ (model.model.norm.weight[:, None] * mlp.down_proj.weight)
        torch.testing.assert_close(logits, expected.T)
    with pytest.raises(ValueError, match="layer must be an integer from 0 to 1"):
        l08.value_logits(model, 5)


def test_top_contexts_and_its_checks() -> None:
    coefficients = torch.tensor([[0.1, -3.0], [2.0, 0.5], [-1.0, 1.0]])
    rows, values = l08.top_contexts(coefficients, unit=1, k=2)
    assert rows.tolist() == [0, 2] and values.tolist() == [-3.0, 1.0]
    assert l08.top_contexts(coefficients, unit=0, k=10)[0].tolist() == [1, 2, 0]
    with pytest.raises(ValueError, match="unit must be an integer from 0 to 1, got 2"):
        l08.top_contexts(coefficients, unit=2, k=1)
    with pytest.raises(ValueError, match=r"coefficients must be \(N, m\)"):
        l08.top_contexts(coefficients[0], unit=0, k=1)


def test_key_value_reading_and_unit_summaries(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    reading = l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, layer=1, k=10)
    n = 2 * len(tiny_corpus)  # one recall and one fetch question per sequence
    assert reading.coefficients.shape == (n, 48) and reading.answers.shape == (n,)
    assert reading.favourite.shape == (2, 48) and reading.logits.shape == (48, tiny_task.vocab_size)
    attributes = range(tiny_task.attribute0, tiny_task.noise0)
    assert all(int(f) in attributes for f in reading.favourite.flatten())
    for rates in (reading.hit_rate, reading.control_hit_rate, reading.relation_purity):
        assert rates.shape == (48,) and ((rates >= 0) & (rates <= 1)).all()
    top = reading.coefficients.abs().topk(10, dim=0).indices  # (10, m)
    for j in (0, 7):  # purity: the largest share of a unit's top contexts with one answer
        answers = reading.answers[top[:, j]].tolist()
        assert reading.answer_purity[j] == max(answers.count(a) for a in answers) / 10
    # the hit rate scores the favourite for the sign each top context fired with
    positive = reading.coefficients[top[:, 3], 3] > 0
    expected = torch.where(positive, reading.favourite[0, 3], reading.favourite[1, 3])
    assert reading.hit_rate[3] == (reading.answers[top[:, 3]] == expected).float().mean()
    names = tiny_task.token_names()
    summary = l08.unit_summary(reading, 3, names, n_contexts=4, n_tokens=5)
    assert len(summary.contexts) == 4 and len(summary.promoted) == 5 and summary.sign in (1, -1)
    values = [v for _, v in summary.promoted]
    assert values == sorted(values, reverse=True)
    assert summary.promoted[0][1] == pytest.approx(float((summary.sign * reading.logits[3]).max()))
    generic = l08.read_unit(tiny_run.model, tiny_corpus, 1, 3, names, n_contexts=4, n_tokens=5)
    assert generic.hit_rate is None and generic.promoted == summary.promoted
    with pytest.raises(ValueError, match="names must name all"):
        l08.unit_summary(reading, 3, names[:-1])
    with pytest.raises(ValueError, match="k=1000 exceeds"):
        l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, layer=0, k=1000)


# --- plots ---------------------------------------------------------------------------------------


def test_plots_draw_results_and_refuse_empty_ones(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    table = l08.accuracy_table([tiny_run])
    assert isinstance(l08.plot_model_comparison(table, floors={"recall": 0.3}), Figure)
    curves = {"full": [l08.learning_curve(tiny_run.log, "recall", window=2)]}
    curves["full, longer"] = curves["full"]
    fig = l08.plot_learning_curves(curves, "recall")
    assert [line.get_linestyle() for line in fig.axes[0].lines] == ["-", "--"]
    panels = {0: {"full": curves["full"][0], "full, longer": curves["full"][0]}, 1: {}}
    panels[1] = panels[0]
    fig = l08.plot_learning_curve_panels(panels, "recall", title="per seed")
    assert [ax.get_title() for ax in fig.axes] == ["seed 0", "seed 1"]
    assert fig.axes[0].get_legend() is not None and fig.axes[1].get_legend() is None
    labels = ("none", "MLP 0", "MLP 1", "MLP 0 and 1", "attention 1")
    knock = {label: {k: [1.0 - i / 10] for k in l08.KINDS} for i, label in enumerate(labels)}
    fig = l08.plot_knockout(knock)
    colours = {}  # the first bar of each knockout: every one has a colour of its own
    for patch, label in zip(fig.axes[0].patches[:: len(l08.KINDS)], labels, strict=True):
        colours[label] = patch.get_facecolor()[:3]
    assert len(set(colours.values())) == len(labels)
    patching = l08.activation_patching(tiny_run.model, tiny_task, tiny_corpus, seed=1)
    fig = l08.plot_patching_panels({k: [v] for k, v in patching.items()}, title="both")
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert len(fig.axes) == 2 and ticks == ["layer 0\nMLP", "layer 1\nMLP", "all\nMLPs",
                                            "whole stream\ninto layer 1"]  # fmt: skip
    reading = l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, layer=1, k=10)
    unit = l08.unit_summary(reading, 0, tiny_task.token_names())
    assert isinstance(l08.plot_unit(unit), Figure)
    assert isinstance(l08.plot_hit_rates([reading]), Figure)
    for bad in (
        lambda: l08.plot_model_comparison({}),
        lambda: l08.plot_knockout({"a": {"recall": []}}),
        lambda: l08.plot_learning_curves({}, "recall"),
        lambda: l08.plot_patching([]),
        lambda: l08.plot_patching_panels({"recall": [patching["fetch"]]}),
        lambda: l08.plot_hit_rates([]),
        lambda: l08.model_color("transformer"),
    ):
        with pytest.raises(ValueError):
            bad()


# --- widget --------------------------------------------------------------------------------------

#: The widget on a tiny setup (two layers, as the widget's knockout menu expects): seconds less.
WIDGET_SETUP = dataclasses.replace(TINY, steps=30)


def test_widget_reads_units_and_knockouts_without_training_again() -> None:
    assert WIDGET_REGISTRY["mlp_memory"][0] == "08"
    widget = l08.memory_explorer(WIDGET_SETUP)  # trains (or fetches) the full model of seed 0
    runs = l08.training_run_count()
    run = l08.train_model("full", WIDGET_SETUP.seeds[0], setup=WIDGET_SETUP)
    task = l08.fact_task(WIDGET_SETUP)
    held_out = l08.make_corpus(task, WIDGET_SETUP.eval_size, WIDGET_SETUP.eval_seed)
    expected = l08.knockout_accuracies(run.model, held_out, l08.KNOCKOUTS)
    text = widget.text.value
    assert "Layer 1, unit" in text and "Knockout <b>none</b>" in text
    assert f"recall {expected['none']['recall']:.3f}" in text
    image = widget.image.value
    widget.controls["knockout"].value = "MLP 0"
    assert f"recall {expected['MLP 0']['recall']:.3f}" in widget.text.value
    assert widget.image.value != image
    widget.controls["layer"].value = 0
    widget.controls["unit"].value = 5
    assert "<b>Layer 0, unit 5</b>" in widget.text.value and widget.last_error is None
    assert l08.training_run_count() == runs  # no redraw trained anything
    with pytest.raises(ValueError, match="unit must be an integer from 0 to 47, got 48"):
        l08.draw_memory(0, 48, "none", WIDGET_SETUP)
    with pytest.raises(ValueError, match="knockout must be one of"):
        l08.draw_memory(0, 1, "attention 0", WIDGET_SETUP)
    with pytest.raises(ValueError, match="layer must be an integer from 0 to 1"):
        l08.draw_memory(2, 1, "none", WIDGET_SETUP)
    fig, html = l08.draw_memory(1, 7, "MLP 1", WIDGET_SETUP)  # the figure: the same summary
    assert isinstance(fig, Figure) and html == widget.draw(1, 7, "MLP 1")[1]
    assert isinstance(widget.draw(1, 7, "none")[0], bytes)


def test_memory_panels_refuse_what_they_cannot_show(tiny_run, tiny_task, tiny_corpus) -> None:
    with pytest.raises(ValueError, match="max_logit > 0"):
        l08.new_memory_panels(4, l08.KINDS, 0.0)
    panels = l08.new_memory_panels(4, l08.KINDS, 1.0)
    reading = l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, layer=1, k=10)
    summary = l08.unit_summary(reading, 0, tiny_task.token_names(), n_tokens=3)
    accuracy = dict.fromkeys(l08.KINDS, 0.5)
    with pytest.raises(ValueError, match="lists 3 promoted tokens; the panels show 4"):
        l08.update_memory_panels(panels, summary, accuracy, None, "none")
    summary = l08.unit_summary(reading, 0, tiny_task.token_names(), n_tokens=4)
    l08.update_memory_panels(panels, summary, accuracy, None, "none")
    assert [t.get_text() for t in panels.token_labels] == [n for n, _ in summary.promoted]
    assert not any(bar.get_visible() for bar in panels.knocked_bars)


# --- your own MiniMind: a checkpoint of MiniMind's real shape, tiny width -------------------------

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "08_what_the_mlp_buys.ipynb"


def _minimind_checkpoint(folder: Path, version: str) -> Path:
    """A file as MiniMind's trainer writes it: ``{key: tensor.half()}`` of the model's state
    dict, MiniMind's keys, no ``module.``/``_orig_mod.`` prefix (the trainer strips them), the
    6400-token vocabulary; 3 layers of width 32 to stay fast."""
    config = ml.MiniMindConfig(
        version=version, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
        vocab_size=6400, max_position_embeddings=128,
    )  # fmt: skip
    with ml.seeded(0):
        model = ml.MiniMindForCausalLM(config)
    path = folder / f"full_sft_32_{version}.pth"
    torch.save({k: v.half() for k, v in model.state_dict().items()}, path)
    return path


@pytest.mark.parametrize("version", ["minimind2", "minimind3"])
def test_the_lessons_own_minimind_cells_run_on_a_minimind_sized_checkpoint(
    tmp_path: Path, version: str
) -> None:
    """Section 9 of the notebook, exactly as a learner runs it, pointed at a checkpoint with
    MiniMind's vocabulary and more layers than the lesson's model (no tokenizer here)."""
    path = _minimind_checkpoint(tmp_path, version)
    state = torch.load(path, weights_only=True)
    assert all(v.dtype == torch.float16 for v in state.values())
    assert "model.layers.2.mlp.down_proj.weight" in state
    assert not any(k.startswith(("module.", "_orig_mod.")) for k in state)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = next(c.source for c in nb.cells if c.cell_type == "code")
    cells = [c.source for c in nb.cells if "own-minimind" in c.metadata.get("tags", [])]
    line = "CHECKPOINT, HEADS = checkpoint_file, 4"
    assert len(cells) >= 3 and line in cells[0]
    heads = 4 if version == "minimind2" else None  # minimind-3: q_norm gives the head count
    cells[0] = cells[0].replace(line, f"CHECKPOINT, HEADS = {str(path)!r}, {heads}")
    task = l08.fact_task()
    namespace = {
        "task": task,
        "held_out": l08.make_corpus(task, 50, seed=1),
        "names": task.token_names(),
        "checkpoint_file": tmp_path / "the_lessons_own.pth",
        "run": None,  # the learner's branch must not touch the lesson's model
    }
    imports = "\n".join(x for x in first.splitlines() if not x.startswith("%"))
    exec(compile(imports, "first cell", "exec"), namespace)
    for i, source in enumerate(cells):
        exec(compile(source, f"own-minimind cell {i}", "exec"), namespace)
    assert namespace["OWN"] is False and namespace["cfg"].version == version
    assert namespace["cfg"].vocab_size == 6400 and namespace["cfg"].num_hidden_layers == 3
    probe = namespace["probe"]
    assert probe.kind_names == l08.NEXT_TOKEN and probe.ids.max() < 6400
    assert set(namespace["mine_knockouts"]) == {"none", "MLP 0", "MLP 1", "MLP 2"}
    unit = namespace["mine_unit"]
    assert unit.layer == 2 and len(unit.contexts) == 5
    assert all(name.isdigit() for name, _ in unit.promoted)  # token ids, without a tokenizer


def test_sample_probe_is_the_models_own_seeded_text(tmp_path: Path) -> None:
    model = ml.load_minimind_model(_minimind_checkpoint(tmp_path, "minimind2"),
                                   num_attention_heads=4).float()  # fmt: skip
    torch.manual_seed(3)
    state = torch.get_rng_state()
    probe = l08.sample_probe(model, n=3, length=10, seed=5)
    assert torch.equal(torch.get_rng_state(), state)
    assert probe.ids.shape == (3, 10) and (probe.ids[:, 0] == l08.MINIMIND_BOS_ID).all()
    assert torch.equal(probe.ids, l08.sample_probe(model, n=3, length=10, seed=5).ids)
    assert (probe.kinds[:, :-1] == 0).all() and (probe.kinds[:, -1] == l08.NO_ANSWER).all()
    with pytest.raises(ValueError, match="length must be at least 2"):
        l08.sample_probe(model, n=1, length=1, seed=0)
    with pytest.raises(ValueError, match="start_id must be a token id from 0 to 6399"):
        l08.sample_probe(model, n=1, length=4, seed=0, start_id=6400)


class _FakeTokenizer:
    """What the lesson uses of a Hugging Face tokenizer: ``__call__`` and ``decode``."""

    def __call__(self, text: str) -> dict[str, list[int]]:
        return {"input_ids": [ord(ch) % 50 for ch in text]}

    def decode(self, ids: list[int]) -> str:
        return {0: "", 1: " "}.get(ids[0], chr(ord("a") + ids[0] % 26))


def test_text_probes_and_names_read_a_tokenizer() -> None:
    tokenizer = _FakeTokenizer()
    probe = l08.next_token_probe(torch.tensor([tokenizer("hello")["input_ids"]]))
    assert probe.ids.shape == (1, 5) and probe.kinds.tolist() == [[0, 0, 0, 0, -1]]
    names = l08.vocabulary_names(50, tokenizer)
    assert names[0] == "<0>" and names[1] == " " and names[2] == "c" and len(names) == 50
    assert l08.vocabulary_names(3) == ["0", "1", "2"]
    with pytest.raises(ValueError, match="ids must be a \\(N, T\\) tensor of token ids"):
        l08.next_token_probe(torch.tensor([7]))


def test_read_unit_names_no_previous_token_at_a_rows_first_position(
    tiny_run: l08.TrainedModel,
) -> None:
    ids = torch.tensor([[5, 6, 7, 8], [9, 10, 11, 12]])
    probe = l08.next_token_probe(ids)
    names = [f"t{i}" for i in range(tiny_run.model.config.vocab_size)]
    unit = l08.read_unit(tiny_run.model, probe, 1, 0, names, n_contexts=6)
    previous = {(t, p) for p, t, _, _ in unit.contexts}
    assert ("t5", "") in previous and ("t9", "") in previous  # not row 0's first token
    assert ("t10", "t9") in previous


# --- controls, patching grid, path patching, distinct facts, stored sweep ---------------------


def test_the_controls_have_the_full_models_budget_and_their_own_mlps() -> None:
    task = l08.fact_task(l08.SETUP)
    full = l08.parameter_counts(l08.build_model("full", 0, task))[1]
    for name in l08.CONTROL_MODEL_NAMES:
        model = l08.build_model(name, 0, task)
        if name != "MLPs removed":
            assert abs(l08.parameter_counts(model)[1] / full - 1) < 0.005, name
    removed = l08.build_model("MLPs removed", 0, task)
    assert removed.config.hidden_size == 64 and len(removed.model.layers) == 2
    assert all(block.mlp is None for block in removed.model.layers)

    def trained(name: str) -> int:  # trainable parameters outside the embedding
        model = l08.build_model(name, 0, task)
        grad = sum(p.numel() for p in model.parameters() if p.requires_grad)
        return grad - model.model.embed_tokens.weight.numel()

    assert trained("MLPs removed") == 24_768 and trained("frozen MLP") == 24_896
    narrow = l08.build_model("narrow attention-only", 0, task)
    assert narrow.config.hidden_size == 64 and len(narrow.model.layers) == 8
    assert all(block.mlp is None for block in narrow.model.layers)
    plain = l08.build_model("plain MLP", 0, task)
    assert all(isinstance(block.mlp, ml.PlainFFN) for block in plain.model.layers)
    frozen = l08.build_model("frozen MLP", 0, task)
    assert not any(p.requires_grad for block in frozen.model.layers for p in block.mlp.parameters())
    with pytest.raises(ValueError, match="unknown model 'wide'"):
        l08.build_model("wide", 0, task)


def test_a_frozen_mlp_stays_at_its_initial_weights_in_training() -> None:
    run = l08.train_model("frozen MLP", 0, setup=TINY)
    start = l08.build_model("frozen MLP", 0, l08.fact_task(TINY), TINY)
    for trained, initial in zip(run.model.model.layers, start.model.layers, strict=True):
        for a, b in zip(trained.mlp.parameters(), initial.mlp.parameters(), strict=True):
            assert torch.equal(a, b)
        assert not torch.equal(trained.self_attn.q_proj.weight, initial.self_attn.q_proj.weight)


def test_attention_weights_reproduce_the_attention_output(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    model, ids = tiny_run.model, tiny_corpus.ids[:7, :-1]
    for layer in (0, 1):
        weights = l08.attention_weights(model, ids, layer)  # (B, H, T, T)
        attn = model.model.layers[layer].self_attn
        seen: dict = {}
        hook = attn.register_forward_pre_hook(lambda _m, args, s=seen: s.update(x=args[0]))
        handle = attn.register_forward_hook(lambda _m, _a, out, s=seen: s.update(out=out))
        with torch.no_grad():
            model(ids)
        hook.remove()
        handle.remove()
        b, t, _ = seen["x"].shape
        v = attn.v_proj(seen["x"]).view(b, t, attn.num_kv_heads, attn.head_dim).transpose(1, 2)
        v = v.repeat_interleave(attn.num_heads // attn.num_kv_heads, dim=1)
        mixed = (weights @ v).transpose(1, 2).reshape(b, t, -1)
        assert torch.allclose(attn.o_proj(mixed), seen["out"], atol=1e-5)
        assert torch.allclose(weights.sum(-1), torch.ones(b, attn.num_heads, t), atol=1e-5)
        assert (weights.triu(1) == 0).all()  # the causal mask
    with pytest.raises(ValueError, match="layer must name"):
        l08.attention_weights(model, ids, 2)


def test_copy_attention_reads_the_copy_chunks(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    ca = l08.copy_attention(tiny_run.model, tiny_task, tiny_corpus)
    heads = tiny_run.model.config.num_attention_heads
    assert ca.previous.shape == ca.induction.shape == (heads,)
    assert ((ca.previous >= 0) & (ca.previous <= 1)).all()
    assert 0 < ca.induction_chance < ca.previous_chance < 1  # M₂ sits after x₁
    roles = l08.position_roles(tiny_task, tiny_corpus)
    x1 = roles["x₁"].float().argmax(1)
    weights = l08.attention_weights(tiny_run.model, tiny_corpus.ids[:, :-1], 0)
    rows = torch.arange(len(x1))
    assert torch.allclose(ca.previous, weights[rows, :, x1, x1 - 1].mean(0))
    deeper = l08.build_model("narrow attention-only", 0, tiny_task, TINY)
    with pytest.raises(ValueError, match="exactly 2 layers"):
        l08.copy_attention(deeper, tiny_task, tiny_corpus)


def test_fact_exposures_count_two_questions_per_sequence(
    tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    counts = l08.fact_exposures(tiny_task, tiny_corpus)
    assert counts.shape == (4, 3) and int(counts.sum()) == 2 * len(tiny_corpus)
    row = tiny_corpus.rows(0, 1)
    one = l08.fact_exposures(tiny_task, row)
    s = int(row.ids[0][tiny_task.is_subject(row.ids[0])]) - tiny_task.subject0
    asked = row.ids[0, :-1][(row.kinds[0, :-1] == 0) | (row.kinds[0, :-1] == 2)]
    for r in (asked - tiny_task.relation0).tolist():
        assert one[s, r] == 1
    broken = l08.Corpus(torch.zeros_like(row.ids), torch.full_like(row.kinds, -1))
    with pytest.raises(ValueError, match="exactly one subject"):
        l08.fact_exposures(tiny_task, broken)


def test_every_position_has_exactly_one_role(
    tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    roles = l08.position_roles(tiny_task, tiny_corpus)
    assert tuple(roles) == l08.ROLES
    total = sum(mask.long() for mask in roles.values())
    assert (total == 1).all()
    ids = tiny_corpus.ids[:, :-1]
    assert (ids[roles["M₁"]] == tiny_task.MARK).all() and (ids[roles["it"]] == tiny_task.IT).all()
    assert tiny_task.is_subject(ids[roles["s"]]).all()


def test_patching_grid_is_exact_where_the_causal_mask_says_so(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    grids = l08.patching_grid(tiny_run.model, tiny_task, tiny_corpus.rows(0, 120), seed=7)
    assert set(grids) == set(l08.SUBJECT_KINDS)
    for g in grids.values():
        assert g.logit_share.shape == g.probability_share.shape == (4, len(l08.ROLES))
        assert g.sites == ("attention 0", "MLP 0", "attention 1", "MLP 1")
        # the last layer's MLP at the subject: nothing later reads that position
        assert g.share("MLP 1", "s") == 0.0
        # <bos> is never corrupted: restoring it changes nothing
        assert all(abs(g.share(site, "<bos>")) < 1e-6 for site in g.sites)
    with pytest.raises(ValueError, match="no cell"):
        grids["recall"].share("MLP 2", "s")
    with pytest.raises(ValueError, match="metric must be"):
        grids["recall"].share("MLP 0", "s", metric="loss")


def test_path_patching_of_nothing_held_matches_the_grid(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    rows = tiny_corpus.rows(0, 120)
    paths = l08.path_patching(tiny_run.model, tiny_task, rows, seed=7)
    grids = l08.patching_grid(tiny_run.model, tiny_task, rows, seed=7)
    for kind, last in (("recall", "r"), ("fetch", "r'")):
        p, g = paths[kind], grids[kind]
        assert p.attention == pytest.approx(g.share("attention 0", last), abs=1e-5)
        assert p.mlp0 == pytest.approx(g.share("MLP 0", last), abs=1e-5)
        assert p.n == g.n


def test_distinct_facts_count_each_fact_once(
    tiny_run: l08.TrainedModel, tiny_task: l08.FactTask, tiny_corpus: l08.Corpus
) -> None:
    reading = l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, 1, k=5)
    m = reading.coefficients.shape[1]
    assert reading.distinct_facts.shape == reading.random_distinct_facts.shape == (m,)
    top = reading.coefficients.abs().topk(5, dim=0).indices
    for j in (0, m - 1):
        assert reading.distinct_facts[j] == len(set(reading.facts[top[:, j]].tolist()))
    assert int(reading.facts.max()) < tiny_task.n_facts
    again = l08.key_value_reading(tiny_run.model, tiny_task, tiny_corpus, 1, k=5)
    assert torch.equal(again.random_distinct_facts, reading.random_distinct_facts)  # seeded


def test_sweep_record_round_trips_and_picks_each_models_best(tmp_path: Path) -> None:
    settings = l08.SweepSettings(
        lr_models=("full", "attention-only"), lrs=(1e-3, 3e-3), lr_steps=4,
        step_models=("full",), step_counts=(2, 4), threshold=1e-6,
    )  # fmt: skip
    setup = dataclasses.replace(TINY, steps=4)
    seen = []
    record = l08.run_sweep(setup, settings, progress=lambda _r, row: seen.append(row))
    assert len(record.rows) == len(seen) == 2 * 2 * 2 + 2  # (2, 4 steps) at best lr: 4 is shared
    path = l08.save_sweep(record, tmp_path / "sweep.json")
    back = l08.load_sweep(path)
    assert back.setup == setup and back.settings == settings and back.rows == record.rows
    for name in settings.lr_models:
        means = {lr: sum(record.facts(name, lr, 4)) for lr in settings.lrs}
        assert means[record.best_lr(name)] == max(means.values())
    assert record.steps_to_threshold("full") == [2, 2]  # a threshold near 0: the smallest budget
    with pytest.raises(ValueError, match="no run of 'full' at lr 0.5"):
        record.accuracies("full", 0.5, 4)
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="not a lesson-08 sweep record"):
        l08.load_sweep(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="unknown model"):
        l08.SweepSettings(lr_models=("wide",))


def test_a_failed_sweep_write_leaves_the_old_record(tmp_path: Path) -> None:
    target = tmp_path / "sweep.json"
    target.write_text("old")
    record = l08.SweepRecord(TINY, l08.SWEEP, (l08.SweepRow("full", 1e-3, 4, 0, {"x": object()}),))
    with pytest.raises(TypeError):
        l08.save_sweep(record, target)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == [
        "sweep.json"
    ]


def test_the_stored_sweep_repeats_one_point_within_its_seed_spread() -> None:
    """Re-train one stored point (the plain MLP, seed 0, at the lesson's learning rate) and check
    it against the record: within the spread of the record's seeds there, and at least 0.02 (a
    run on another CPU ends elsewhere by about a seed's difference, README 'Where the numbers
    repeat')."""
    record = l08.load_sweep()
    assert record.setup == l08.SETUP and record.settings == l08.SWEEP
    expected = len(l08.SWEEP.lr_models) * len(l08.SWEEP.lrs) * len(l08.SETUP.seeds)
    assert len(record.rows) >= expected
    row = l08.sweep_point("plain MLP", 0, l08.SETUP.steps, l08.SETUP.lr)
    stored = record.facts("plain MLP", l08.SETUP.lr, l08.SETUP.steps)
    now = (row.accuracy["recall"] + row.accuracy["fetch"]) / 2
    assert abs(now - stored[0]) <= max(max(stored) - min(stored), 0.02)


def test_a_test_run_trains_each_model_once_across_processes(monkeypatch, tmp_path) -> None:
    """Under run.py test (MINIMIND_LAB_RUN_CACHE set), a model another process of the run trained
    is read back, not trained again, and it is the same model; without the variable it trains."""
    from minimind_lab.lessons._run_cache import RUN_CACHE_ENV
    from minimind_lab.lessons.l08_memory.training import _train_once_per_run

    setup = dataclasses.replace(TINY, fact_seed=11)  # an entry of its own
    monkeypatch.setenv(RUN_CACHE_ENV, str(tmp_path))
    before = l08.training_run_count()
    first = _train_once_per_run("full", 0, 6, setup)  # as the first process of a run would
    second = _train_once_per_run("full", 0, 6, setup)  # as any later one would
    assert l08.training_run_count() == before + 1
    assert second.accuracy == first.accuracy and second.log == first.log
    for a, b in zip(first.model.parameters(), second.model.parameters(), strict=True):
        assert torch.equal(a, b)
    monkeypatch.delenv(RUN_CACHE_ENV)
    _train_once_per_run("full", 0, 6, setup)
    assert l08.training_run_count() == before + 2


def test_the_sweeps_progress_plans_as_many_runs_as_the_sweep_trains(monkeypatch) -> None:
    """``planned_runs`` (the progress bars' totals) counts each run ``run_sweep`` makes, a run
    both sweeps share once; training is replaced by a stand-in that returns at once."""
    from minimind_lab.lessons.l08_memory import sweep

    def fake_point(name: str, seed: int, steps: int, lr: float, setup=l08.SETUP) -> l08.SweepRow:
        return l08.SweepRow(name, lr, steps, seed, {"recall": lr * 10, "fetch": lr * 10})

    monkeypatch.setattr(sweep, "sweep_point", fake_point)
    trained: list[str] = []
    record = sweep.run_sweep(l08.SETUP, l08.SWEEP, lambda record, row: trained.append(row.model))
    planned = sweep.planned_runs(l08.SETUP, l08.SWEEP)
    assert sum(planned.values()) == len(record.rows) == len(trained)
    assert planned == {name: trained.count(name) for name in planned}
