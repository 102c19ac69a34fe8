package io.chronix.api.engine;

import io.chronix.api.config.DataDirectory;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Health component {@code diskSpace}, in place of Spring Boot's (which looks at the working
 * directory, not at where the data is): the free space of the data directory's file system, and of
 * {@code namespaces/} where that is another file system (a mount of its own), against {@code
 * chronix.engine.disk-free-threshold}. Below it on either, DOWN — part of the readiness group, so a
 * full disk takes the instance out of service while writes answer 507 — and UP again once space
 * returns, without a restart. Details (operator): each path, its free and total bytes, the threshold.
 */
@Component("diskSpaceHealthIndicator")
class DataDiskHealthIndicator extends AbstractHealthIndicator {

    private final Path root;
    private final Path namespaces;
    private final long threshold;

    DataDiskHealthIndicator(DataDirectory data, EngineProperties properties) {
        super("disk space check failed");
        this.root = data.root();
        this.namespaces = data.namespaces();
        this.threshold = properties.diskFreeThreshold().toBytes();
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws IOException {
        FileStore rootStore = Files.getFileStore(root);
        boolean ok = rootStore.getUsableSpace() >= threshold;
        builder.withDetail("path", root.toString()).withDetail("free", rootStore.getUsableSpace())
                .withDetail("total", rootStore.getTotalSpace()).withDetail("threshold", threshold);
        if (Files.isDirectory(namespaces)) {
            FileStore nsStore = Files.getFileStore(namespaces);
            if (!nsStore.equals(rootStore)) {
                Map<String, Object> ns = new LinkedHashMap<>();
                ns.put("path", namespaces.toString());
                ns.put("free", nsStore.getUsableSpace());
                ns.put("total", nsStore.getTotalSpace());
                builder.withDetail("namespaces", ns);
                ok &= nsStore.getUsableSpace() >= threshold;
            }
        }
        if (ok) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
