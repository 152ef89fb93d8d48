"""Volleyball (Rien Kooy's play-by-e-mail league, seeds/003) as a pure engine; the bot is the GM.

The rules as the bot plays them, with every ruling: docs/rules/volleyball.md.

Data (no rules):
- orders: what a manager orders, per the seed's form. Position and Concept carry the seed's
  codes 1-5; LevelPoints, PlayerSlot, SetOrder, MatchOrders, TrainingOrder, SpyOrder,
  TransferSale, TransferBid, GmOfferBid, ContractBid, AgeingSplit, RoundOrders. Every class
  has to_dict()/from_dict(). VolleyballError(problems) is the player-readable error; its
  .problems lists every problem found. set_order_problems(set_order, set_number) -> list[str]
  checks what a set's order can be judged on alone (formation, concept, risk, points).
- models: Player, Team, SeasonConfig (what the GM makes public, with defaults), Sponsor,
  ContractPlayerSpec, Fixture, FixtureResult, League (holds the seeded generator:
  league.rng() / league.store_rng(rng)).

Rules:
- creation (rule 1, rule 6 scouts): create_team(name, [PlayerDraft], config, manager_id=,
  taken_team_names=) -> Team; new_team_problems(...) -> list[str];
  scout_talent(team, name, config) -> Team; scout_problems(...) -> list[str].
- match (rules 2-5, 4's lack of devotion):
  validate_match_orders(team, orders, home=, home_advantage_points=, special_points_left=)
  -> list[str];
  play_match(home_team, away_team, home_orders, away_orders, rng, home_advantage_points=)
  -> MatchResult (sets with every rally's d100, summary(), score_line, winner);
  team_after_match(team, result, side) -> Team;
  roll_lack_of_devotion(team, devotion_used, rng) -> DevotionCheck;
  apply_lack_of_devotion(team, check) -> Team;
  default_match_orders(team, opponent=, home=, match_number=) -> MatchOrders;
  and the arithmetic: position_levels, tire, rest, half_levels, can_play, lineup_levels,
  set_totals, scoring_chance, concept_adjustment.
- orderform (the seed's text form): format_order_form(team, orders=, opponent=, home=,
  match_number=, division=, training=, spy=) -> str; parse_order_form(text, team=None)
  -> OrderForm; parse_order_forms(text, team=None) -> list[OrderForm];
  format_round_forms(team, fixtures, round_orders=None) -> str (one form per match);
  round_orders_from_forms(team_name, forms, fixtures=None) -> RoundOrders.
- rounds, training, economy, market, ageing, cup, season, managers: the results sequence,
  the season and the computer managers (see their module docstrings).
"""
