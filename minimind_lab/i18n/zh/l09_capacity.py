"""Chinese for l09_capacity (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
