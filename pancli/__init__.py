"""pancli: dealer assistant and scorekeeper for Panguingue and the other games called Pan."""

__version__ = "0.3.0"
