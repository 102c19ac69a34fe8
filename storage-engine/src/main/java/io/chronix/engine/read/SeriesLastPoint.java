package io.chronix.engine.read;

import java.util.Map;

/** The newest point of one series of a measurement: its complete tag set and the point. */
public record SeriesLastPoint(Map<String, String> tags, LastPoint point) {

    public SeriesLastPoint {
        tags = Map.copyOf(tags);
    }
}
