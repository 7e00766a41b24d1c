"""From groups to changes on disk, safely: choose what to keep (marking), plan an action and
check it against the files as they are now (actions), act through directory descriptors
(fileops), record every step in a signed journal (journal), and finish or reverse it later
(recovery). Every action holds one lock per user (lock).

Flow: :func:`mark_all_but_one` -> :func:`plan_action` -> :func:`execute` (journal) ->
:func:`undo` / :func:`resume`.
"""

from .actions import ActionRefused, Plan, Report, execute, plan_action
from .lock import ActionLocked, action_lock
from .marking import KEEP_RULES, KeepRule, mark_all_but_one
from .recovery import resume, undo

__all__ = [
    "KEEP_RULES", "ActionLocked", "ActionRefused", "KeepRule", "Plan", "Report", "action_lock",
    "execute", "mark_all_but_one", "plan_action", "resume", "undo",
]
