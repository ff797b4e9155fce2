"""Playing many games: agents, simulation and statistics, parallel and cluster runs, rule tests
(`.cardtest`), scenarios, logs and saves.
"""
