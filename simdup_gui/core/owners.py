"""Who besides the user can change a file or a folder: its owner, its mode bits (a group
write bit counts unless the group is the owner's own private group), a POSIX ACL that
names other accounts, and every folder above it (a folder another account owns or can
write lets them rename what is below and put their own in its place).

Used by the actions (act/trust.py: which kept copies may justify acting) and for simdup's
own folders (ourfiles.py: caches and data only this user can change).
"""

from __future__ import annotations

import os
import stat
import struct

ACL_XATTR = "system.posix_acl_access"
_ACL_USER, _ACL_GROUP, _ACL_WRITE = 0x02, 0x08, 0x02


def uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _group_is_private(gid: int, owner_uid: int) -> bool:
    """A user-private group (Debian's default: one group per user, named after them): no
    other member listed, and no other account has it as its primary group."""
    try:
        import grp
        import pwd

        g = grp.getgrgid(gid)
        user = pwd.getpwuid(owner_uid)
        others = [p.pw_name for p in pwd.getpwall() if p.pw_gid == gid and p.pw_uid != owner_uid]
    except (ImportError, KeyError, OSError):
        return False
    return (g.gr_name == user.pw_name and user.pw_gid == gid and not others
            and not set(g.gr_mem) - {user.pw_name})


def acl_lets_others_write(path: str) -> bool:
    """Whether ``path`` has a POSIX ACL entry that gives a named account or group write
    access (``setfacl -m u:eve:rw``): the mode shows it only as the group write bit."""
    try:
        raw = os.getxattr(path, ACL_XATTR, follow_symlinks=False)
    except (OSError, AttributeError):  # no ACL, or no xattrs here
        return False
    for at in range(4, len(raw) - 7, 8):  # a 4-byte version, then (tag, perm, id) entries
        tag, perm, _ = struct.unpack_from("<HHI", raw, at)
        if tag in (_ACL_USER, _ACL_GROUP) and perm & _ACL_WRITE:
            return True
    return False


def others_can_write(st: os.stat_result, path: str | None = None) -> bool:
    """Whether an account other than the owner can write (or, for a folder, create, rename
    and delete in) what has status ``st`` (at ``path``, for its ACL)."""
    if st.st_mode & stat.S_IWOTH:
        return True
    if not st.st_mode & stat.S_IWGRP:
        return False
    if path is not None and acl_lets_others_write(path):
        return True
    return not _group_is_private(st.st_gid, st.st_uid)


def _folders_above(path: str) -> list[str]:
    """Every folder holding ``path``, innermost first: those of the path as written (each
    link on the way is a name another account may change) and those of its real path."""
    out: list[str] = []
    for p in (os.path.abspath(path), os.path.realpath(path)):
        folder = os.path.dirname(p)
        while True:
            if folder not in out:
                out.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return out


def chain_problem(path: str, owners: set[int] | None = None) -> str | None:
    """Why another account could replace ``path`` through a folder above it, or None.
    Each folder above it (as written and as it really is) must belong to an account of
    ``owners`` (default: this user) or to root, and no other account may write it; only a
    root-owned folder with the sticky bit (``/tmp``) may be written by others, and not as
    the path's own folder. A link on the way must belong to such an account too."""
    allowed = (owners or {uid()}) | {0}
    own = {os.path.dirname(os.path.abspath(path)), os.path.dirname(os.path.realpath(path))}
    for folder in _folders_above(path):
        try:
            lst = os.lstat(folder)
            st = os.stat(folder)
        except OSError as e:
            return f"its folder {folder} cannot be checked ({e.strerror or e})"
        if stat.S_ISLNK(lst.st_mode) and lst.st_uid not in allowed:
            return f"lies under {folder}, a link that belongs to another account"
        if st.st_uid not in allowed:
            return f"lies under {folder}, a folder of another account (uid {st.st_uid})"
        if others_can_write(st, folder):
            sticky_root = st.st_mode & stat.S_ISVTX and st.st_uid == 0
            if folder in own or not sticky_root:
                where = "in" if folder in own else "under"
                return f"lies {where} {folder}, a folder other accounts can write"
    return None
