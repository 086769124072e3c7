"""The load generator behind ``benchmarks/load.py`` (the CLI), split along its seams:

- ``measure``: constants, measuring helpers (CPU, memory, percentiles) and the server processes;
- ``client``: the per-game slot, the recorder of figures, the lean keep-alive HTTP client;
- ``targets``: the HTTP side of Menagerie and of the baseline;
- ``run``: one measured phase (players, spectators, faults) and its figures;
- ``verify``: the throwaway database and the checks after a run;
- ``phases``: one target's servers, setup and phases, and the printed line.
"""
