"""The shared cache tier (Redis) is asked only when one call to it fits in the time the
search has left: the cache never spends the search's deadline."""

from websearch_sync.client.cache import MemoryCache, ResultCache


class CountingTier:
    """A stand-in with the shared tier's interface, recording what it is asked."""

    timeout_s = 0.25

    def __init__(self):
        self.calls = []
        self.stored = {}

    def get_entry(self, key, left_s=None):
        self.calls.append(("get", key))
        return self.stored.get(key)

    def set(self, key, value, ttl_s, left_s=None):
        self.calls.append(("set", key))
        self.stored[key] = (value, ttl_s)


def test_the_shared_tier_is_used_when_the_call_has_time():
    shared = CountingTier()
    cache = ResultCache(MemoryCache(60), None, shared)
    cache.set("k", {"items": []}, 60, left_s=5.0)
    assert ResultCache(MemoryCache(60), None, shared).get("k", left_s=5.0) == {"items": []}
    assert shared.calls == [("set", "k"), ("get", "k")]


def test_a_call_with_less_time_than_one_redis_call_skips_the_shared_tier():
    shared = CountingTier()
    shared.stored["k"] = ({"items": []}, 60)
    cache = ResultCache(MemoryCache(60), None, shared)
    assert cache.get("k", left_s=0.1) is None
    cache.set("k2", {"items": []}, 60, left_s=0.05)
    assert shared.calls == []
