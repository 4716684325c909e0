"""A set that makes two threads race: both look a key up before either adds it, unless a lock keeps
the second out until the first is done."""

import threading

__all__ = ["RacedSet"]


class RacedSet(set):
    """A set whose first look-up in each thread, once made, waits (up to 0.5 s) for a second thread's:
    two threads that check it without a lock both find the key missing. Later look-ups (a check again
    under the lock) do not wait: the thread that holds the lock would wait out the 0.5 s for one the
    other thread cannot make until it lets go."""

    def __init__(self) -> None:
        super().__init__()
        self.barrier = threading.Barrier(2)
        self._looked: set[int] = set()

    def __contains__(self, item: object) -> bool:
        found = super().__contains__(item)
        thread = threading.get_ident()
        if thread not in self._looked:
            self._looked.add(thread)
            try:
                self.barrier.wait(timeout=0.5)
            except threading.BrokenBarrierError:  # the other thread waits for the lock: it looks up after this one
                pass
        return found
