"""The zoo builder's evaluation for the bots and the analysis (not rules: the game never imports
these). The rules are the modules of :mod:`engine.arknova` itself; words for people are in
:mod:`engine.arknova.presentation`.

- the hand-weighted evaluation the searching bots use: :mod:`.evaluate`; its weights and the
  clock-free parts of a zoo's value: :mod:`.zooparts`; their memos: :mod:`.evalmemo`
- which answers a search tries: :mod:`.shortlist`
- the learned value (weights in ``engine/arknova/data/value.json``): :mod:`.learned`; the
  file's feature names and its validation: :mod:`.valuefile`; which
  hand animals its hand worth counts as homed (one per free enclosure): :mod:`.handhomes`; the
  term of an answer itself (the strength an action card is used at): ``learned.answer_term``;
  how far the look follows a seat's own chain (to the end of its last turn):
  ``learned.chain_depth``
- the analysis' measure, the expected final margin: :mod:`.margin`; a solo game's by turns
  left (its offset and spread, ``engine/arknova/data/calibration.json``): :mod:`.calibration`
"""
