"""Game-AI adapters: observation tensors, OpenSpiel and PettingZoo.
"""
