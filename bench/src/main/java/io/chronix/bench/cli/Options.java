package io.chronix.bench.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} and {@code --flag} arguments. Every name read is recorded, so
 * {@link #rejectUnknown()} can refuse a misspelt option instead of silently using a default.
 * Durations accept {@code 10s}, {@code 5m}, {@code 12h}, {@code 3d}, {@code 250ms} or ISO-8601.
 */
public final class Options {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> read = new HashSet<>();

    private Options() {
    }

    public static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("expected --name, got '" + a + "'");
            }
            String name = a.substring(2);
            String value = "true";
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            }
            o.values.put(name, value);
        }
        return o;
    }

    public String string(String name, String defaultValue) {
        read.add(name);
        return values.getOrDefault(name, defaultValue);
    }

    public String required(String name) {
        read.add(name);
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing required option --" + name);
        }
        return v;
    }

    public boolean has(String name) {
        read.add(name);
        return values.containsKey(name);
    }

    public boolean flag(String name) {
        read.add(name);
        return Boolean.parseBoolean(values.getOrDefault(name, "false"));
    }

    public int integer(String name, int defaultValue) {
        read.add(name);
        String v = values.get(name);
        return v == null ? defaultValue : Integer.parseInt(v);
    }

    public long longValue(String name, long defaultValue) {
        read.add(name);
        String v = values.get(name);
        return v == null ? defaultValue : Long.parseLong(v);
    }

    public Duration duration(String name, Duration defaultValue) {
        read.add(name);
        String v = values.get(name);
        return v == null ? defaultValue : parseDuration(v);
    }

    public Instant instant(String name, Instant defaultValue) {
        read.add(name);
        String v = values.get(name);
        return v == null ? defaultValue : Instant.parse(v);
    }

    /** Repeated values given as a comma-separated list. */
    public List<String> list(String name, List<String> defaultValue) {
        read.add(name);
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        List<String> out = new ArrayList<>();
        for (String part : v.split(",")) {
            if (!part.isBlank()) {
                out.add(part.trim());
            }
        }
        return out;
    }

    /** Fails on any option that no accessor asked for: a typo must not run with defaults. */
    public void rejectUnknown() {
        for (String name : values.keySet()) {
            if (!read.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name);
            }
        }
    }

    public static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase();
        if (s.startsWith("p") || s.startsWith("-p")) {
            return Duration.parse(v.trim().toUpperCase());
        }
        int i = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("not a duration: '" + v + "'");
        }
        double n = Double.parseDouble(s.substring(0, i));
        String unit = s.substring(i);
        long nanos = switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s", "" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalArgumentException("unknown duration unit in '" + v + "'");
        };
        return Duration.ofNanos(Math.round(n * nanos));
    }
}
