"""Chinese for l07_feedforward (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
