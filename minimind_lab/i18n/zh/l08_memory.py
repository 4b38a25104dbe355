"""Chinese for l08_memory (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
