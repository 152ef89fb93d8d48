"""The one word wrap every image uses (render/wrap.py), measured here in characters."""

from render.wrap import wrap_words


def at_most(width: int):
    return lambda line: len(line) <= width


def test_words_are_joined_while_the_line_fits() -> None:
    assert wrap_words("the ball goes   over the net", at_most(12)) == [
        "the ball",
        "goes over",
        "the net",
    ]


def test_a_word_too_wide_alone_follows_the_caller_s_rule_and_its_last_piece_takes_the_next() -> (
    None
):
    def cut(word: str) -> list[str]:
        return [word[i : i + 4] for i in range(0, len(word), 4)]

    assert wrap_words("Featherstone a b", at_most(6), cut) == ["Feat", "hers", "tone a", "b"]
    assert wrap_words("Featherstone a", at_most(6)) == ["Featherstone", "a"]  # kept whole


def test_no_words_no_lines() -> None:
    assert wrap_words("  \n ", at_most(5)) == []
