"""What one `pan` invocation works on, kept in click's ``ctx.obj``: no module-level state.

The root command makes an ``AppContext`` per invocation and closes it when the command ends.
`pan table` makes one per line, handing it the Store and Recorder the shell keeps open, so a
line costs one parse and one committed transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from typer._click.globals import get_current_context  # the copy of click that typer runs (0.22 on)

from pancli.core.errors import StoreError

if TYPE_CHECKING:
    from pathlib import Path

    from pancli.app.recorder import Recorder
    from pancli.storage.store import Store


@dataclass
class AppContext:
    """What one invocation of pan (or one line of the table shell) works with."""

    db: str | None = None              # --db / PANCLI_DB; None: the default path
    session_name: str | None = None    # a session pinned by `pan table NAME`
    store: Store | None = None         # the open Store, once a command needs it
    recorder: Recorder | None = None   # the current session's Recorder, cached
    in_shell: bool = False             # a line of `pan table`: hints name its words (`help`, not `pan -h`)
    quiet: bool = False                # what the command prints is dropped (`pan table --quiet`)
    # Asked for three times a line, so the answers are kept: the path the database resolves to,
    # and the (recorder, session name) already checked against the current session in this context.
    resolved: tuple[str, Path] | None = None
    checked: tuple[Recorder, str | None] | None = None
    seen_version: tuple[Store, int] | None = None  # the store and its data version at the shell's last look

    def open_store(self, create: bool = False) -> Store:
        if self.store is not None and self.resolved is not None and self.resolved[0] == self.db:
            return self.store
        from pancli.storage.paths import resolve_path  # noqa: PLC0415 the database layer: only commands that open it
        from pancli.storage.store import Store  # noqa: PLC0415 the database layer: only commands that open it

        path = resolve_path(self.db)
        self.resolved = (self.db, path) if self.db is not None else None  # PANCLI_DB and HOME may change
        if self.store is None or self.store.path != path:
            if self.store is not None:
                self.store.close()
            self.store, self.recorder = None, None
            self.store = Store(path, create=create)
        return self.store

    def open_recorder(self, name: str | None = None, create: bool = False) -> Recorder:
        store = self.open_store(create=create)
        name = name or self.session_name
        rec = self.recorder
        if rec is not None and self.checked == (rec, name):
            return rec  # already checked in this context: only its own commands change the current session
        from pancli.app.recorder import Recorder  # noqa: PLC0415 the recorder: only commands that record or read a session

        if rec is None or rec.store is not store or name not in (None, rec.session.name) \
                or rec.session.id != _current_id(store, name):
            rec = self.recorder = Recorder(store, store.session(name))
            rec.steady = self.in_shell  # the shell has it look at the log again at each line
        self.checked = (rec, name)
        return rec

    def forget_session(self) -> None:
        """After `session new|use|close`: the next command looks the current session up again."""
        self.recorder = self.checked = None

    def new_line(self) -> None:
        """A line of the shell begins: another process may have recorded, or made another
        session current, since the last one, so both are looked at again (once, by the first
        look of the line). Not inside a script's group: holding the write lock, it lets nothing in."""
        if self.store is not None:
            if self.store.in_group:
                return
            # SQLite's data version changes when another connection commits, and only then.
            try:
                seen = self.store, self.store.data_version()
            except StoreError:  # a database that cannot answer: the line's command says why
                seen = None
            if seen is not None and self.seen_version == seen:
                return
            self.seen_version = seen
        self.checked = None
        if self.recorder is not None:
            self.recorder.look_again()

    def for_line(self) -> AppContext:
        """A context for one line of the shell, sharing what this one has open and has checked
        in this line (see ``new_line``)."""
        line = object.__new__(AppContext)  # a copy as dataclasses.replace makes, at a tenth of its cost
        line.__dict__.update(self.__dict__)
        return line

    def adopt(self, other: AppContext) -> None:
        """Keep what a line opened, forgot or checked, for the rest of the line and the next."""
        self.store, self.recorder, self.checked = other.store, other.recorder, other.checked
        self.resolved = other.resolved  # the path --db resolved to, for the next line's open_store

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
        self.store = self.recorder = None


def _current_id(store: Store, name: str | None) -> int:
    return store.session(name).id if name else int(store.setting("current_session") or 0)


def app_context() -> AppContext:
    """The context of the command being run."""
    ctx = get_current_context()
    obj = ctx.find_object(AppContext)
    if obj is None:  # a command invoked without the root (a test calling a sub-group directly)
        obj = ctx.find_root().ensure_object(AppContext)
    return obj
