"""Chinese for l06_sizing (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
