"""Search backends: one small module per service, registered by name."""

from .base import Backend
from .registry import backend_class, backend_names, register, unregister

__all__ = ["Backend", "backend_class", "backend_names", "register", "unregister"]
