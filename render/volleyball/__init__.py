"""Volleyball images: pure functions, league state in, PNG bytes out, laid out for Discord's
preview on a phone (large type, ink on paper, one idea per image, a legend).

    standings_png(state, division=1)   the division's table after the last round played:
                                       position, team, played, won, lost, sets for-against,
                                       points; promotion and relegation zones coloured when
                                       the league has several divisions; 480 px wide
                                       (a phone's: 18 px type shows 11.2 px)
    results_png(state, division, round_number)
                                       the round's results in the division (score in
                                       sets, each set's score, who played); 480 px
                                       wide, grey scale
    cup_bracket_pages(state)           the Galaxy Cup, a list of pages 480 px wide: at most
                                       three rounds stacked, from the round being played
                                       (winners bold with the sets score). While that round
                                       has more than eight matches, its draw instead, 16
                                       matches a page
"""

from render.volleyball.bracket import cup_bracket_pages
from render.volleyball.results import results_png
from render.volleyball.standings import standings_png

__all__ = ["cup_bracket_pages", "results_png", "standings_png"]
