package io.chronix.engine.read;

import java.util.Map;

/**
 * The newest point of a series: its timestamp and the fields it holds there (last write wins,
 * absent fields absent). Values are {@code Double} (float), {@code Long} (integer; unsigned as its
 * 64 bits — read with {@link Long#toUnsignedString}), {@code Boolean} or {@code String}.
 */
public record LastPoint(long timestamp, Map<String, Object> fields) {

    public LastPoint {
        fields = Map.copyOf(fields);
    }
}
