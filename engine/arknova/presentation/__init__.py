"""The zoo builder's presentation: what is shown to people about a position, built from the
rules' own functions (the rules are :mod:`engine.arknova`; the bots' evaluation is
:mod:`engine.arknova.bot`).

- labels of answers for analysis reports and hints: :mod:`.labels`
- why a card or an action cannot be used now, costs after discounts (``Game.hints``):
  :mod:`.hints`
"""
