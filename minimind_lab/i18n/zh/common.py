"""Chinese for common (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
