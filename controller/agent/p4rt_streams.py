"""Every P4Runtime session's stream of a process on one event loop, and one gRPC channel per
switch server.

Why: P4Runtime keeps one bidirectional ``StreamChannel`` per device for its whole session
(arbitration, the primary's updates, PacketOut/PacketIn). gRPC's synchronous API holds a
stream with two threads of its own (one feeding the requests, one reading the answers) and
a channel per session adds a thread while its answers stream: a daemon of 1024 sessions ran
2,800 threads, spent its cores switching between them and starved the rest of its process
(a Dask worker's heartbeats). Here the streams of every session live on **one** asyncio
event loop (``grpc.aio``) in one thread (:func:`hub`): a thousand idle streams cost no
thread and no CPU, a PacketOut is a message handed to the loop.

Channels are shared by address (and TLS settings): a simulated fabric or a multi-device
switch serves many devices on one address, and one HTTP/2 connection carries all their
streams and calls (P4Runtime names the device in every message). The synchronous channel
that carries the unary calls (Write, Read, pipeline) is shared the same way
(:func:`sync_channel`); both are closed when their last session closes.

The semantics are P4Runtime's and unchanged: one stream per device and session, the
arbitration on it, the stream ended when the session closes (the switch sees the
controller leave and elects the next primary). A session closes its stream by ending its
side and waiting for the switch to end the call (:meth:`Stream.close`): the switch lets go of
the session's election id before it answers, so a controller that reconnects at once with
the same id is not refused as a second holder of it.
"""

from __future__ import annotations

import asyncio
import os
import queue
import threading
from typing import Callable

import grpc
import grpc.aio
from finsy.proto import p4r_grpc

#: how quickly a shared channel reconnects after its server went away (a restarted switch):
#: a new session must not wait for gRPC's default backoff (up to 120 s)
RECONNECT_OPTIONS = [("grpc.initial_reconnect_backoff_ms", 200), ("grpc.min_reconnect_backoff_ms", 200),
                     ("grpc.max_reconnect_backoff_ms", 1000)]

ChannelKey = tuple

#: seconds a closing session waits for the stream's orderly end (the queued messages sent,
#: its half ended, the switch's end of the call) before it cancels the call
CLOSE_WAIT_S = 2.0


class _Shared:
    """Channels by key, counted by their sessions; the last session closes the channel."""

    def __init__(self):
        self.lock = threading.Lock()
        self.channels: dict[ChannelKey, list] = {}    # key -> [channel, sessions]

    def take(self, key: ChannelKey, make: Callable[[], object]):
        with self.lock:
            got = self.channels.get(key)
            if got is None:
                got = self.channels[key] = [make(), 0]
            got[1] += 1
            return got[0]

    def give_back(self, key: ChannelKey):
        """The channel to close if this was its last session, else None."""
        with self.lock:
            got = self.channels.get(key)
            if got is None:
                return None
            got[1] -= 1
            if got[1] > 0:
                return None
            del self.channels[key]
            return got[0]


_sync = _Shared()


def sync_channel(key: ChannelKey, make: Callable[[], "grpc.Channel"]) -> "grpc.Channel":
    """The synchronous channel of ``key`` (made by ``make`` for its first session); give it
    back with :func:`release_sync_channel`."""
    return _sync.take(key, make)


def release_sync_channel(key: ChannelKey) -> None:
    ch = _sync.give_back(key)
    if ch is not None:
        ch.close()


class StreamHub:
    """One asyncio event loop in a thread of its own holding every session's stream."""

    def __init__(self):
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.channels = _Shared()
        self.thread = threading.Thread(target=self._run, name="p4rt-streams", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coro, timeout: float | None = None):
        """Run ``coro`` on the loop and wait for its result (from any other thread)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


_hub: StreamHub | None = None
_hub_lock = threading.Lock()


def hub() -> StreamHub:
    """The process's hub (made on first use; again in a forked child, whose copy of the
    loop's thread does not run)."""
    global _hub
    with _hub_lock:
        if _hub is None or _hub.pid != os.getpid():
            _hub = StreamHub()
        return _hub


class StreamClosed(Exception):
    """A message handed to a stream that ended."""


class Stream:
    """One session's ``StreamChannel`` on the hub.

    ``on_message(msg)`` is called on the hub's thread for every message from the switch (it
    must be quick and never block); ``on_end(reason, code)`` once when the stream ends (code
    None when this side closed it). :meth:`send` queues a message from any thread; at most
    ``limit`` may wait for gRPC (:class:`queue.Full` beyond)."""

    def __init__(self, key: ChannelKey, make_channel: Callable[[], "grpc.aio.Channel"],
                 on_message: Callable[[object], None], on_end: Callable[[str, object], None], limit: int):
        self.hub = hub()
        self.key = key
        self._make = make_channel
        self._on_message = on_message
        self._on_end = on_end
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting = 0
        self._ended = False
        self._closed = False
        self.ended_by_switch = False     # the switch ended the call (status OK): it let go of the session
        self._call = None
        self._q: asyncio.Queue | None = None
        self._tasks: list = []

    # ---- opening -----------------------------------------------------------------------------
    def open(self, timeout: float) -> bool:
        """Connect the shared channel (False: not ready within ``timeout``) and start the
        stream. The caller then sends its arbitration."""
        return self.hub.run(self._open(timeout))

    async def _open(self, timeout: float) -> bool:
        ch = self.hub.channels.take(self.key, self._make)
        self._channel = ch
        try:
            await asyncio.wait_for(ch.channel_ready(), timeout)
        except asyncio.TimeoutError:
            return False
        self._q = asyncio.Queue()
        self._call = p4r_grpc.P4RuntimeStub(ch).StreamChannel()
        self._tasks = [asyncio.ensure_future(self._read()), asyncio.ensure_future(self._write())]
        return True

    # ---- both directions ----------------------------------------------------------------------
    def send(self, msg) -> None:
        """Queue ``msg`` for the switch (thread-safe, never blocks)."""
        with self._lock:
            if self._ended or self._q is None:
                raise StreamClosed()
            if self._waiting >= self.limit:
                raise queue.Full()
            self._waiting += 1
        self.hub.loop.call_soon_threadsafe(self._q.put_nowait, msg)

    async def _write(self) -> None:
        while True:
            msg = await self._q.get()
            if msg is None:
                return
            try:
                await self._call.write(msg)
            except Exception:        # the stream ended: the reader reports why
                return
            finally:
                with self._lock:
                    self._waiting -= 1

    async def _read(self) -> None:
        reason, code = "the switch closed the stream", None
        try:
            while True:
                msg = await self._call.read()
                if msg is grpc.aio.EOF:
                    self.ended_by_switch = True
                    break
                self._on_message(msg)
        except grpc.aio.AioRpcError as e:
            reason, code = f"{e.code().name}: {e.details()}", e.code()
        except asyncio.CancelledError:
            reason = "closed by this controller"
        except Exception as e:  # pragma: no cover - a bug in a handler must not hang waiters
            reason = f"stream reader failed: {e!r}"
        with self._lock:
            self._ended = True
            closed = self._closed
        self._q.put_nowait(None)
        self._on_end("closed by this controller" if closed else reason, None if closed else code)

    # ---- closing -------------------------------------------------------------------------------
    def close(self) -> bool:
        """End the stream (idempotent, any thread but the hub's): what was queued is sent,
        this side's half is ended and the switch's end of the call awaited (up to
        :data:`CLOSE_WAIT_S`), then the call is cancelled; the channel is closed if no
        other session uses it. True when the switch ended the call itself: it has let go of
        the session (PI's server drops the connection, its election id with it, before it
        ends the call); False when it did not answer in time (or was closed before)."""
        with self._lock:
            if self._closed:
                return False
            self._closed = True
        try:
            self.hub.run(self._close(), timeout=CLOSE_WAIT_S + 12.0)
        except Exception:  # noqa: BLE001 - closing must not fail the caller
            pass
        return self.ended_by_switch

    async def _orderly_end(self) -> None:
        reader, writer = self._tasks
        self._q.put_nowait(None)      # the writer ends after what is queued
        await asyncio.shield(writer)
        await self._call.done_writing()
        await asyncio.shield(reader)

    async def _close(self) -> None:
        if self._call is not None:
            if not self._tasks[0].done():
                try:
                    await asyncio.wait_for(self._orderly_end(), CLOSE_WAIT_S)
                except BaseException:  # noqa: BLE001 - a switch that does not answer: cancelled below
                    pass
            self._call.cancel()
            for t in self._tasks:
                try:
                    await asyncio.wait_for(asyncio.shield(t), 5.0)
                except BaseException:  # noqa: BLE001
                    pass
        if getattr(self, "_channel", None) is not None:
            ch = self.hub.channels.give_back(self.key)
            if ch is not None:
                await ch.close()
