"""Chinese for l03_activations (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
