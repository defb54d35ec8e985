"""The hardware seam: dice, buttons, LED strips and their simulated twins.

Device threads here never touch the referee or the UI; they post small typed messages
through a callback (the owner passes ``queue.put``) and the owner applies them.
"""
