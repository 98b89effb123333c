"""uro: routing compiler, P4 generator and control-plane agent for time-sliced optical DCNs.

Data flows one way: schedule -> routing -> tables -> p4gen -> agent -> daemon.
"""

__version__ = "0.1.0"
