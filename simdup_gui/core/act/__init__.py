"""From groups to changes on disk, safely: choose what to keep (marking), plan an action and
check it against the files as they are now (actions), act through directory descriptors
(fileops), record every step in a signed journal (journal), and finish or reverse it later
(recovery), and free the originals a link action holds once their bytes are safe
(release). Every action holds one lock per user (lock).

Flow: :func:`mark_all_but_one` -> :func:`plan_action` -> :func:`execute` (journal) ->
:func:`undo` / :func:`resume`; after a hardlink / symlink action, :func:`release`.
"""

from .._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "ActionRefused": ".actions",
    "Plan": ".actions",
    "ActionReport": ".outcome",
    "execute": ".actions",
    "plan_action": ".actions",
    "ActionLocked": ".lock",
    "action_lock": ".lock",
    "KEEP_RULES": ".marking",
    "KeepRule": ".marking",
    "mark_all_but_one": ".marking",
    "resume": ".recovery",
    "undo": ".recovery",
    "ReleaseRefused": ".release",
    "ReleaseReport": ".release",
    "release": ".release",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
