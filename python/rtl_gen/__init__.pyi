from ._native import *  # noqa: F401,F403
from ._native import __version__ as __version__
