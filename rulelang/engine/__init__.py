"""The game at run time: the state as plain data, the turn loop's building blocks, the seeded
random generator, and the words in which the runtime narrates what happens.
"""
