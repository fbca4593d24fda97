package io.etl.schema.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** A map of at most {@code capacity} entries that drops the least recently used one; thread-safe. */
final class BoundedCache<K, V> {

    private final LinkedHashMap<K, V> map;

    BoundedCache(int capacity) {
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized V get(K key) {
        return map.get(key);
    }

    synchronized void put(K key, V value) {
        map.put(key, value);
    }

    synchronized int size() {
        return map.size();
    }
}
