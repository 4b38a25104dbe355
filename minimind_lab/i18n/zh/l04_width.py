"""Chinese for l04_width (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
