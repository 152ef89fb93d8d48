"""The live card's text (host/card.py card_text): what happened in every step of a click, then
what happens next, within Discord's 4,000 characters of text displays; when the events are too
many, the oldest give way and what happens next is never cut."""

from host.adapter import TurnPost
from host.card import EARLIER, MAX_CARD_TEXT, card_text


def post(happened: str, body: str = "**Next:** North (Alice) places a chip.") -> TurnPost:
    return TurnPost("Rocketball #1 · North 0 – 0 South", body, 0, happened=happened, footer="f")


def test_the_events_come_before_what_happens_next():
    text = card_text(post("• North places a vortex on d3.\n• South rolls d4 = 2."), "⏰ soon")
    assert text.index("North places") < text.index("South rolls") < text.index("**Next:**")
    assert text.endswith("-# ⏰ soon")


def test_too_many_events_lose_the_oldest_lines_never_the_prompt():
    lines = [f"• Event {index}: " + "x" * 80 for index in range(100)]
    text = card_text(post("\n".join(lines)), "⏰ soon")
    assert len(text) <= MAX_CARD_TEXT - len("f") - 10
    assert EARLIER in text and lines[-1] in text and lines[0] not in text
    assert text.endswith("**Next:** North (Alice) places a chip.\n-# ⏰ soon")
