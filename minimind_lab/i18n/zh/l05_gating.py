"""Chinese for l05_gating (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
