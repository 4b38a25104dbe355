"""Chinese for l10_moe (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
