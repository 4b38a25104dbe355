"""Chinese shared by every lesson: the widget frame (``minimind_lab.widgets.base``)."""

ZH: dict[str, str] = {
    "Nothing drawn: {message}": "未能绘制：{message}",
    "Cannot draw this setting:": "无法绘制这组设置：",
}
