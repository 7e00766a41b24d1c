"""Lazy public surfaces: a package's ``__init__`` names what it offers, but imports a module
only when one of its names is first used. Worker processes that need one module (the
fingerprinting worker imports scan.fingerprint) then do not import the whole engine."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_exports(package: str, exports: dict[str, str]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """(__getattr__, __dir__) for ``package`` whose public ``exports`` map each name to the
    relative module that defines it (".pipeline")."""

    def __getattr__(name: str) -> object:
        try:
            module = exports[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)  # later look-ups are plain attributes
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
