package io.chronix.api.engine;

import io.chronix.engine.EngineConfig;
import io.chronix.engine.wal.FsyncPolicy;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * A namespace's own engine settings, read from the {@code settings} JSON object of its record;
 * every absent (or {@code null}) key takes the service default from {@link EngineProperties}.
 *
 * <pre>{"fsyncPolicy": "PERIODIC", "fsyncInterval": "PT0.2S", "shardDuration": "PT2H",
 *  "oooToleranceShards": 3, "futureTolerance": "PT30M"}</pre>
 *
 * Durations are ISO-8601. Unknown keys are ignored (the settings object is shared with other
 * features of the data plane).
 */
public record NamespaceEngineSettings(FsyncPolicy fsyncPolicy, Duration fsyncInterval, Duration shardDuration,
                                      Integer oooToleranceShards, Duration futureTolerance) {

    static final NamespaceEngineSettings NONE = new NamespaceEngineSettings(null, null, null, null, null);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * @throws IllegalArgumentException naming the key whose value is not valid
     */
    public static NamespaceEngineSettings parse(String settingsJson) {
        if (settingsJson == null || settingsJson.isBlank()) {
            return NONE;
        }
        JsonNode root;
        try {
            root = JSON.readTree(settingsJson);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("namespace settings are not a JSON object");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("namespace settings are not a JSON object");
        }
        String policy = text(root, "fsyncPolicy");
        FsyncPolicy p = null;
        if (policy != null) {
            try {
                p = FsyncPolicy.valueOf(policy.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("fsyncPolicy must be PER_WRITE, PER_BATCH or PERIODIC: " + policy);
            }
        }
        Integer ooo = null;
        JsonNode o = root.get("oooToleranceShards");
        if (o != null && !o.isNull()) {
            if (!o.isIntegralNumber() || o.asLong() < 0 || o.asLong() > 1_000_000) {
                throw new IllegalArgumentException("oooToleranceShards must be an integer in [0, 1000000]");
            }
            ooo = o.asInt();
        }
        return new NamespaceEngineSettings(p, duration(root, "fsyncInterval"), duration(root, "shardDuration"), ooo,
                duration(root, "futureTolerance"));
    }

    /** These settings over the service defaults. */
    public EngineConfig apply(EngineProperties defaults) {
        EngineConfig base = EngineConfig.defaults();
        return new EngineConfig(
                fsyncPolicy != null ? fsyncPolicy : defaults.fsyncPolicy(),
                fsyncInterval != null ? fsyncInterval : defaults.fsyncInterval(),
                shardDuration != null ? shardDuration : defaults.shardDuration(),
                oooToleranceShards != null ? oooToleranceShards : defaults.oooToleranceShards(),
                futureTolerance != null ? futureTolerance : defaults.futureTolerance(),
                defaults.flushThreshold().toBytes(), base.targetSegmentSizeBytes(), base.walMaxFileSize(), base.clock(), base.io(),
                base.segments(), base.compactionTrigger(), base.maintenanceInterval());
    }

    private static String text(JsonNode root, String key) {
        JsonNode n = root.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isString()) {
            throw new IllegalArgumentException(key + " must be a string");
        }
        return n.asString();
    }

    private static Duration duration(JsonNode root, String key) {
        String s = text(root, key);
        if (s == null) {
            return null;
        }
        try {
            Duration d = Duration.parse(s);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(key + " must be positive: " + s);
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + " must be an ISO-8601 duration: " + s);
        }
    }
}
