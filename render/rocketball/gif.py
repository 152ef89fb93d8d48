"""The round GIF's writer: render/gif.py (shared with the Rollerball movement GIF)."""

from render.gif import write_gif

__all__ = ["write_gif"]
