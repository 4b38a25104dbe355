"""The browser suite: every lesson in JupyterLab, driven in headless Chromium."""
