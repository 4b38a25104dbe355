"""Each lesson's machinery, by lesson number: ``from minimind_lab.lessons import l04``.

``lNN`` gathers lesson NN's task, probes and experiments (``lessons/lNN_topic.py``), its plots
(``plots/lNN_topic.py``) and its widget (``widgets/lNN_topic.py``), all built on the core that
``import minimind_lab as ml`` gives. Each ``lNN_topic`` module holds one ``SETUP`` (sizes, seeds)
that the notebook, the widget and the figure all read.
"""
