package io.chronix.api.archive;

import io.chronix.api.security.TenantAccess;
import io.chronix.engine.archive.ArchiveReport;
import io.chronix.tenancy.IsoDuration;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /api/v1/namespaces/{ns}/archive} (scope {@code admin}): an archiving pass now. */
@RestController
@Tag(name = "Data lifecycle", description = "Flush, compact, archive, delete, rollups. Scope admin:<ns> or admin:*.")
class ArchiveController {

    private final TenantAccess access;
    private final ArchiveService archive;

    ArchiveController(TenantAccess access, ArchiveService archive) {
        this.access = access;
        this.archive = archive;
    }

    @Schema(description = "What one archiving pass moved to the cold tier")
    record ArchiveAnswer(
            @Schema(description = "segments moved") int segments,
            @Schema(description = "rows they hold") long rows,
            @Schema(description = "bytes they took in the hot tier (.csx)") long hotBytes,
            @Schema(description = "bytes of the Parquet objects written") long objectBytes,
            @Schema(description = "old-enough segments not moved because a failure stopped the pass; the next pass retries") int pending,
            @Schema(description = "objects under the namespace's prefix no catalog entry knew, deleted") int strayObjectsRemoved,
            @Schema(description = "what stopped the pass, or null", nullable = true) String failure,
            @Schema(description = "the cutoff age applied (ISO-8601)", example = "P30D") String coldAfter) {
    }

    @PostMapping("/api/v1/namespaces/{ns}/archive")
    @Operation(summary = "Run an archiving pass now",
            description = "Flushes the memtables, then moves every segment whose newest point is older than the namespace's coldAfter "
                    + "(wall clock) to the cold tier as Parquet, and answers what moved. A store that cannot be reached stops the pass: the answer is still 200, "
                    + "with failure set and the segments left hot (pending); nothing is lost and the next pass retries.")
    ArchiveAnswer archive(Authentication auth, @PathVariable("ns") String name) {
        Namespace ns = access.namespace(auth, name, Scope.Action.ADMIN);
        ArchiveReport r = archive.archive(ns, true);
        return new ArchiveAnswer(r.segments(), r.rows(), r.hotBytes(), r.objectBytes(), r.pending(), r.strayObjectsRemoved(),
                r.failure().orElse(null), IsoDuration.format(archive.coldAfter(ns)));
    }
}
