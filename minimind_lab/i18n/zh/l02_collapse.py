"""Chinese for l02_collapse (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
