"""Chinese for l01_attention (see ``minimind_lab.i18n.zh``)."""

ZH: dict[str, str] = {}
