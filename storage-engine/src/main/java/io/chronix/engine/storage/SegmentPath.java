package io.chronix.engine.storage;

import java.util.Objects;
import java.util.Optional;

/**
 * The cold tier's object key, scoped by namespace for defence in depth: even a policy mistake
 * cannot make one tenant's keys collide with another's, because the prefix differs.
 *
 * <p>Key: {@code ns_{namespace}/shard_{id}/{segmentName}}. The segment name is refused if it is
 * empty, contains a path separator ({@code /} or {@code \}), is a {@code .} or {@code ..} component,
 * or contains a control character.
 */
public record SegmentPath(NamespaceId namespace, ShardId shard, String segmentName) {

    public SegmentPath {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(segmentName, "segmentName");
        validateName(segmentName);
    }

    /** The object key. */
    public String key() {
        return namespace.keyPrefix() + "shard_" + shard.value() + "/" + segmentName;
    }

    /**
     * Parses a key this type produced; anything else (another namespace's prefix, extra path
     * components, a bad name) is empty rather than an exception, because listings may hold foreign
     * objects a backend must skip.
     */
    public static Optional<SegmentPath> parse(String key) {
        String[] parts = key.split("/", -1);
        if (parts.length != 3 || !parts[0].startsWith("ns_") || !parts[1].startsWith("shard_")) {
            return Optional.empty();
        }
        try {
            long ns = Long.parseLong(parts[0].substring(3));
            long shard = Long.parseLong(parts[1].substring(6));
            SegmentPath path = new SegmentPath(new NamespaceId(ns), new ShardId(shard), parts[2]);
            return path.key().equals(key) ? Optional.of(path) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static void validateName(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("segment name must not be empty");
        }
        if (name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("segment name must not be a relative component [name=" + name + "]");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                throw new IllegalArgumentException("segment name must not contain a path separator [name=" + name + "]");
            }
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("segment name must not contain control characters");
            }
        }
    }

    @Override
    public String toString() {
        return key();
    }
}
