"""The input gate: every keystroke stream passes here before anything reads it.

A person's terminal, an SSH player's and a spectator's all send bytes; before
prompt_toolkit parses one of them into keys, :class:`InputGate` makes the stream
safe to read:

- it is decoded leniently (a byte that is not UTF-8 becomes U+FFFD, never an
  error that drops the connection);
- it is bounded in rate (a burst, then a steady allowance a second; beyond it,
  bytes are dropped, all but Enter, Ctrl-C and Ctrl-D, so a flood can neither
  block a pipe nor keep the event loop busy) and in size (one line passes at
  most :data:`LINE_KEYS` keys, and line breaks have an allowance of their own);
- a bracketed paste ends at its end mark, at a line break or control key, or
  after :data:`PASTE_CHARS` characters, so a paste begun and never ended cannot
  hold a seat; what follows is read as typed;
- a control sequence longer than any key sends (``ESC [ 1;1;1…``) is dropped,
  since prompt_toolkit's parser would spend quadratic time holding it;
- a window change (an SSH client's) is paid for from the same allowance of
  bytes, at :data:`WINDOW_CHANGE_BYTES` each, so a flood of them is cut and told
  as a flood of keys is.

:class:`GatedInput` is the prompt_toolkit input built on it, fed either by a
file descriptor (the local terminal; a pipe in tests) or by pushed bytes (an
SSH channel).  Lines typed out of turn are the full-screen table's business
(:class:`umtali.ui.app.AppScreen`): one waits, shown, and the rest are refused.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import select
import sys
import threading
import time
from asyncio import AbstractEventLoop, get_running_loop
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

from prompt_toolkit.input import PipeInput
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress

#: Bytes a stream may send at once, and then each second; the rest is dropped.
#: A person types a few bytes a second and pastes a few hundred at once.
RAW_BURST = 64 * 1024
RAW_RATE = 16 * 1024
#: What one window change costs of those bytes: about its message on the wire.  A
#: window dragged sends a few dozen; a flood of thousands is cut like one of keys.
WINDOW_CHANGE_BYTES = 64


@dataclass(frozen=True, slots=True)
class Allowance:
    """How many line breaks a stream passes at once, and then each second.

    Each line a stream sends costs its host a little work (an answer, or a line kept
    for later and a redraw), so a stranger's stream is held to a typist's pace; at
    one's own terminal only one's own game would slow, so a script may type as fast
    as the game asks.
    """

    burst: float
    rate: float


#: A connection from another terminal (an SSH player or spectator).
REMOTE = Allowance(burst=40, rate=10.0)
#: The terminal the program runs in (and the pipes of tests and scripts).
LOCAL = Allowance(burst=1000, rate=1000.0)
#: Keys one line may pass (the command line holds 200 characters; editing keys count).
LINE_KEYS = 1000
#: Characters of one paste: a command or a chat line, with room to spare.
PASTE_CHARS = 1000
#: The longest control sequence passed: far longer than any key's.
SEQUENCE_CHARS = 32

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_ALWAYS = re.compile(rb"[^\r\n\x03\x04]+")  # what a flood loses: all but these
_TOKEN = re.compile(
    r"""
      (?P<csi>\x1b\[[0-?]*[ -/]*[@-~])      # a whole control sequence (paste marks too)
    | (?P<open>\x1b\[[0-?]*[ -/]*\Z|\x1b\Z)  # one cut off at the end of what came
    | (?P<brk>[\r\n])
    | (?P<hard>[\x03\x04])                   # Ctrl-C and Ctrl-D always pass
    | (?P<ctl>[\x00-\x1f\x7f])               # other control keys, and a lone escape
    | (?P<text>[^\x00-\x1f\x7f]+)
    """,
    re.VERBOSE | re.DOTALL,
)


class _Bucket:
    """So many units at once, and so many more each second (a token bucket)."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float]) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.left = burst
        self.at = clock()

    def take(self, wanted: float) -> float:
        """As much of ``wanted`` as is allowed now."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        given = min(wanted, self.left)
        self.left -= given
        return given


class InputGate:
    """One keystroke stream's gate: bytes in, text safe for a parser out.

    >>> gate = InputGate()
    >>> gate.take(b"draw\\r\\xff")
    'draw\\r\\ufffd'
    >>> gate.take(PASTE_START.encode() + b"meld 7S 6S 5S\\rx")  # a paste ends at a line
    '\\x1b[200~meld 7S 6S 5S\\x1b[201~\\rx'
    """

    def __init__(
        self, lines: Allowance = REMOTE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._raw = _Bucket(RAW_BURST, RAW_RATE, clock)
        self._lines = _Bucket(lines.burst, lines.rate, clock)
        self._held = ""  # the start of a control sequence cut off by the end of a chunk
        self._skipping = False  # inside an overlong control sequence, until its end
        self._pasting = False
        self._pasted = 0  # characters of the paste so far
        self._spilled = False  # the paste was cut at its size: its text is dropped
        self._keys = 0  # keys of this line so far
        #: How many bytes and characters were dropped, all told.
        self.dropped = 0
        #: Told each time something is dropped (to say so, once in a while).
        self.on_drop: Callable[[], None] | None = None

    # ------------------------------------------------------------ the stream

    def take(self, data: bytes) -> str:
        """What of ``data`` passes, as text."""
        allowed = int(self._raw.take(len(data)))
        if allowed == len(data):
            return self._scan(self._decoder.decode(data))
        kept = _ALWAYS.sub(b"", data[allowed:])
        self._drop(len(data) - allowed - len(kept))
        text = self._scan(self._decoder.decode(data[:allowed]))
        # What was cut may have held a paste's end: a flood ends any paste.
        text += self._end_paste()
        self._spilled = False
        return text + self._scan(self._decoder.decode(kept))

    def take_window_change(self) -> bool:
        """Whether a window change passes: it is paid for from the stream's bytes,
        and beyond them it is dropped (and told of) as keys are."""
        if self._raw.take(WINDOW_CHANGE_BYTES) >= WINDOW_CHANGE_BYTES:
            return True
        self._drop(WINDOW_CHANGE_BYTES)
        return False

    def take_text(self, text: str) -> str:
        """What of ``text`` passes (a stream already decoded)."""
        return self.take(text.encode("utf-8", "surrogateescape"))

    def flush(self) -> str:
        """What was held back waiting for the rest of a control sequence: nothing more
        came in time, so it was a key (Escape) after all."""
        held, self._held = self._held, ""
        tail = self._decoder.decode(b"", final=True)
        return self._scan(held + tail, final=True) if held or tail else ""

    def _drop(self, count: int) -> None:
        if count <= 0:
            return
        self.dropped += count
        if self.on_drop is not None:
            self.on_drop()

    # ---------------------------------------------------------- the scanner

    def _scan(self, text: str, final: bool = False) -> str:
        text, self._held = self._held + text, ""
        out: list[str] = []
        for token in _TOKEN.finditer(text):
            kind, value = token.lastgroup or "text", token.group()
            if self._skipping:
                if kind != "text":
                    self._skipping = False  # anything but text ends the overlong sequence
                else:
                    value = self._skip(value)
                    if not value:
                        continue
            if kind == "open" and not final:
                if len(value) > SEQUENCE_CHARS:
                    self._drop(len(value))
                    self._skipping = True
                else:
                    self._held = value  # the rest may come with the next chunk
                continue
            out.append(self._token(kind, value))
        return "".join(out)

    def _skip(self, value: str) -> str:
        """The rest of an overlong control sequence is dropped: its parameter and
        intermediate characters, then its final one; what follows is returned."""
        end = re.search(r"[^\x20-\x3f]", value)
        if end is None:
            self._drop(len(value))
            return ""
        self._skipping = False
        cut = end.start() + (1 if "@" <= value[end.start()] <= "~" else 0)
        self._drop(cut)
        return value[cut:]

    def _token(self, kind: str, value: str) -> str:
        if kind == "csi" and value in (PASTE_START, PASTE_END):
            return self._paste_mark(value)
        if self._pasting or self._spilled:
            if kind in ("text", "ctl"):
                return self._pasted_text(value)
            # A line break, Ctrl-C or Ctrl-D, or a key's sequence ends the paste.
            ended, self._spilled = self._end_paste(), False
            return ended + self._typed(kind, value)
        return self._typed(kind, value)

    def _typed(self, kind: str, value: str) -> str:
        if kind == "brk":
            if self._lines.take(1) < 1:
                self._drop(1)  # the line goes on: its keys still count
                return ""
            self._keys = 0
            return value
        if kind == "hard":
            return value
        if kind in ("csi", "open"):
            if len(value) > SEQUENCE_CHARS:
                self._drop(len(value))
                return ""
            return self._count(value, 1)
        return self._count(value, len(value))

    def _pasted_text(self, value: str) -> str:
        if self._spilled:
            self._drop(len(value))
            return ""
        room = PASTE_CHARS - self._pasted
        inside, rest = value[:room], value[room:]
        self._pasted += len(inside)
        if not rest:
            return inside
        self._drop(len(rest))
        self._spilled = True  # the rest of this paste is dropped, up to a line break
        return inside + self._end_paste()

    def _count(self, value: str, keys: int) -> str:
        """``value`` as far as the line's allowance of keys goes."""
        room = LINE_KEYS - self._keys
        if room <= 0:
            self._drop(len(value))
            return ""
        if keys > room:
            self._drop(len(value) - room)
            value, keys = value[:room], room
        self._keys += keys
        return value

    def _paste_mark(self, mark: str) -> str:
        ended = self._end_paste()
        self._spilled = False
        if mark == PASTE_START:
            self._pasting, self._pasted = True, 0
            return ended + PASTE_START
        return ended  # an end mark ends the paste under way; alone, it is nothing

    def _end_paste(self) -> str:
        if not self._pasting:
            return ""
        self._pasting = False
        return PASTE_END


class ConsoleLines:
    """A line-mode console (``umtali host``'s own terminal), read line by line through
    the input gate.

    It reads the descriptor itself, a little at a time, rather than through Python's
    buffered standard input: a thread blocked in that buffer holds its lock, and the
    interpreter then aborts as it shuts down.  :meth:`stop` ends the reading.
    """

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.gate = InputGate(LOCAL)
        self._stop = threading.Event()
        self._pending = ""

    def __call__(self) -> str:
        """The next line typed; EOFError when the console closes or reading stops."""
        while not self._stop.is_set():
            if "\n" in self._pending:
                line, self._pending = self._pending.split("\n", 1)
                return line.rstrip("\r")
            try:
                if not select.select([self.fd], [], [], 0.25)[0]:
                    continue
                data = os.read(self.fd, 4096)
            except (OSError, ValueError):
                data = b""
            if not data:
                break
            self._pending += self.gate.take(data).replace("\r", "\n")
        raise EOFError

    def stop(self) -> None:
        self._stop.set()


class GatedInput(PipeInput):
    """A prompt_toolkit input whose every byte passes an :class:`InputGate`.

    Fed by a file descriptor it reads (:meth:`terminal`), or by
    bytes pushed from any thread (:meth:`send_bytes`: an SSH channel, a test).
    ``lines`` is the stream's allowance of line breaks: :data:`REMOTE` for another
    terminal's.
    """

    def __init__(
        self,
        *,
        lines: Allowance,
        fd: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.gate = InputGate(lines, clock)
        self._fd = fd
        self._lock = threading.Lock()
        self._passed: list[str] = []  # through the gate, not yet parsed
        self._keys: list[KeyPress] = []
        self._parser = Vt100Parser(self._keys.append)
        self._callbacks: list[Callable[[], None]] = []
        self._loop: AbstractEventLoop | None = None
        self._reading = False  # the descriptor is watched by the loop
        self._closed = False

    @classmethod
    def terminal(cls) -> GatedInput:
        """The local terminal's input (standard input; end-of-input if there is none)."""
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, ValueError, OSError):  # no standard input at all
            closed = cls(lines=LOCAL)
            closed.close()
            return closed
        return cls(lines=LOCAL, fd=fd)

    @property
    def from_terminal(self) -> bool:
        """Whether the bytes come from a terminal, not a pipe or a file (a script's):
        no keys to edit a line with, and nobody to see a prompt drawn."""
        return self._fd is not None and os.isatty(self._fd)

    def __enter__(self) -> GatedInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- feeding

    def send_bytes(self, data: bytes) -> None:
        with self._lock:
            if self._closed:
                return
            text = self.gate.take(data)
            if not text:
                return
            self._passed.append(text)
        self._wake()

    def window_changed(self) -> bool:
        """The client's window changed size: whether the gate lets the change through
        (a flood of them is cut, as one of keys is)."""
        with self._lock:
            return not self._closed and self.gate.take_window_change()

    def send_text(self, data: str) -> None:
        self.send_bytes(data.encode("utf-8", "surrogateescape"))

    def close(self) -> None:
        """No more input: the application reading it sees end-of-input."""
        with self._lock:
            self._closed = True
        self._wake()

    def _wake(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._ready)

    def _ready(self) -> None:
        if self._callbacks:
            self._callbacks[-1]()

    def _read_fd(self) -> None:
        """The descriptor has something: read what is there and pass it on."""
        assert self._fd is not None
        try:
            if not select.select([self._fd], [], [], 0)[0]:
                return
            data = os.read(self._fd, 4096)
        except OSError:
            data = b""
        if not data:
            self._stop_reading()
            with self._lock:
                self._closed = True
        else:
            with self._lock:
                text = self.gate.take(data)
                if text:
                    self._passed.append(text)
        self._ready()

    def _start_reading(self) -> None:
        if self._fd is not None and self._loop is not None and not self._reading:
            try:
                self._loop.add_reader(self._fd, self._read_fd)
            except (OSError, ValueError):  # not something a loop can watch
                raise EOFError from None
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading and self._loop is not None and self._fd is not None:
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                self._loop.remove_reader(self._fd)
        self._reading = False

    # ------------------------------------------------ prompt_toolkit's Input

    def read_keys(self) -> list[KeyPress]:
        with self._lock:
            text, self._passed = "".join(self._passed), []
        if text:
            self._parser.feed(text)
        keys, self._keys[:] = list(self._keys), []
        return keys

    def flush_keys(self) -> list[KeyPress]:
        with self._lock:
            text = "".join(self._passed) + self.gate.flush()
            self._passed = []
        if text:
            self._parser.feed(text)
        self._parser.flush()
        keys, self._keys[:] = list(self._keys), []
        return keys

    @property
    def closed(self) -> bool:
        return self._closed

    def fileno(self) -> int:
        if self._fd is None:
            raise NotImplementedError("a pushed input has no file descriptor")
        return self._fd

    def typeahead_hash(self) -> str:
        return f"gated-{id(self)}"

    def raw_mode(self) -> AbstractContextManager[None]:
        if self._fd is not None and os.isatty(self._fd):
            from prompt_toolkit.input.vt100 import raw_mode

            return raw_mode(self._fd)
        return contextlib.nullcontext()

    def cooked_mode(self) -> AbstractContextManager[None]:
        if self._fd is not None and os.isatty(self._fd):
            from prompt_toolkit.input.vt100 import cooked_mode

            return cooked_mode(self._fd)
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def attach(self, input_ready_callback: Callable[[], None]) -> Iterator[None]:
        self._loop = get_running_loop()
        self._callbacks.append(input_ready_callback)
        self._start_reading()
        with self._lock:
            waiting = bool(self._passed) or self._closed
        if waiting:
            self._loop.call_soon(self._ready)
        try:
            yield
        finally:
            self._callbacks.remove(input_ready_callback)
            if not self._callbacks:
                self._stop_reading()

    @contextlib.contextmanager
    def detach(self) -> Iterator[None]:
        callbacks, self._callbacks = self._callbacks, []
        self._stop_reading()
        try:
            yield
        finally:
            self._callbacks = callbacks
            if callbacks:
                self._start_reading()
